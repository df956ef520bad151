"""Before any trial: can the job's model be used at all?

    problem = model_problem("google-gla:gemini-flash-latest", tasks[0])   # None, or why not

A missing key or a model the provider refuses (401, 403, 404: a wrong key, a model name it does
not have) would fail every trial the same way, and the job would publish pass@1 0.00 as if the
agent had tried. So one `decode run` asks the model for a word first, with the environment a trial
gets (`agent_environment`: a key only in the repository's `.env` is not one a trial sees), and the
benchmark stops with exit 2 and decode's own error line when it fails for a reason a retry cannot
fix. A scripted model is only built (its file must exist): it has no provider to refuse it.
"""

import json
import re
import subprocess
import tempfile
from pathlib import Path

from evals.benchmark.tasks import Task
from evals.benchmark.trial import agent_environment, decode_executable, resolve_model

PREFLIGHT_TIMEOUT_S = 180.0
"""How long the one request may take (the model's own retries included)."""

REFUSED = re.compile(r"HTTP (40[0-4])\b")
"""The statuses that mean the configuration is wrong, not the moment (408 and 429 pass)."""


def model_problem(model: str, task: Task) -> str | None:
    """Why `model` (resolved for `task`) cannot be used for a job, or None when it answers."""
    resolved = resolve_model(model, task)
    if resolved.startswith("script:"):
        return _script_problem(resolved)
    with tempfile.TemporaryDirectory(prefix="decode-preflight-") as scratch:
        home, cwd = Path(scratch, "home"), Path(scratch, "work")
        home.mkdir()
        cwd.mkdir()
        argv = [decode_executable(), "run", "--output-format", "json", "--sandbox", "none"]
        argv += ["--permission-mode", "plan", "--max-requests", "1", "--model", resolved, "Reply with the word OK."]
        try:
            done = subprocess.run(
                argv,
                cwd=cwd,
                env=agent_environment(resolved, home),
                stdin=subprocess.DEVNULL,
                capture_output=True,
                text=True,
                timeout=PREFLIGHT_TIMEOUT_S,
            )
        except subprocess.TimeoutExpired:
            return None  # slow is not misconfigured: the trials' own timeouts judge it
    return _judge(done)


def _judge(done: subprocess.CompletedProcess[str]) -> str | None:
    """decode's error when the run says the configuration is wrong (exit 2, or a refusing status)."""
    error = _error_line(done)
    if done.returncode == 2:
        return error or "decode run exited 2 (a usage or configuration error)"
    if done.returncode == 1 and error and REFUSED.search(error):
        return error
    return None


def _error_line(done: subprocess.CompletedProcess[str]) -> str | None:
    for line in done.stderr.splitlines():
        if line.startswith("decode: error: "):
            return line.removeprefix("decode: error: ")
    try:
        result = json.loads(done.stdout.strip().splitlines()[-1]) if done.stdout.strip() else None
    except json.JSONDecodeError:
        return None
    return result.get("error") if isinstance(result, dict) else None


def _script_problem(model: str) -> str | None:
    from decode.config.settings import Settings
    from decode.models.errors import ModelConfigError
    from decode.models.gateway import resolve_model as build

    try:
        build(model, Settings(_env_file=None))  # type: ignore[call-arg]
    except ModelConfigError as exc:
        return str(exc)
    return None
