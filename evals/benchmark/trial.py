"""One trial: decode works a task headless in a fresh workspace, then the task's verifier grades it.

    record = run_trial(task, model="script:fix.json", trial=1, sandbox="bwrap", results_dir=job_dir)

It is a real `decode run --output-format json --permission-mode bypass` subprocess, as a user would
run it, with the workspace as its working directory. Its environment is a whitelist: a safe PATH,
an empty HOME, the locale, `TERM=dumb`, and only the provider variables its model string needs
(`PROVIDER_VARIABLES`). Past the task's agent timeout its whole process group is killed.
In a bwrap sandbox the answer key is hidden (`sandbox_hide`): the tasks folder (tests and
solutions), the git repository that holds it, and the results of every job; so the workspace is
built outside them, in a temporary folder, and moved into the results once graded.

Everything stays under `results_dir/NAME-TRIAL/` for post-mortems: `workspace` (as the agent
left it; a symlink to `.decode/workspaces/app`, see `workspace_path`), `stdout.json` and
`stderr.log` of the run, `harness/` (the run's own `.decode/`, its session log: moved out of the
workspace before grading, so the verifier sees only the agent's work) and `verifier.log`.
"""

import contextlib
import json
import logging
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from evals.benchmark.grade import grade
from evals.benchmark.tasks import Task
from evals.benchmark.workspace import SAFE_PATH, WorkspaceError, prepare, workspace_path

logger = logging.getLogger(__name__)

PROVIDER_VARIABLES = {
    "google-gla": ("GEMINI_API_KEY", "GOOGLE_API_KEY", "GEMINI_BASE_URL"),
    "openrouter": ("OPENROUTER_API_KEY", "OPENROUTER_BASE_URL"),
    "openai-compatible": ("OPENAI_API_KEY", "OPENAI_BASE_URL"),
    "modal": ("DECODE_MODAL_LLM_URL", "DECODE_MODAL_LLM_TOKEN"),
}
"""Model provider → the host variables its runs get (decode/config/settings.py names them)."""

KILL_GRACE_S = 5.0
"""After SIGTERM at the timeout, how long decode has to close its sandbox before SIGKILL."""


def decode_executable() -> str:
    """The `decode` of this interpreter's environment (the venv's), else the one on PATH."""
    beside = Path(sys.executable).parent / "decode"
    return str(beside) if beside.exists() else (shutil.which("decode") or "decode")


def resolve_model(model: str, task: Task) -> str:
    """`model` for `task`: `{task}` replaced by its name, a relative `script:` path made absolute.

    The run's working directory is the workspace, so a script path is resolved here, where the
    runner was started.
    """
    model = model.replace("{task}", task.name)
    if model.startswith("script:"):
        model = "script:" + str(Path(model.removeprefix("script:")).resolve())
    return model


def agent_environment(
    model: str, home: Path, host: dict[str, str] | None = None, hide: list[Path] | None = None
) -> dict[str, str]:
    """The whole environment of the agent's run (see the module docstring); `hide`: `answer_key`."""
    host = dict(os.environ) if host is None else host
    env = {"PATH": SAFE_PATH, "HOME": str(home), "LANG": "C.UTF-8", "TERM": "dumb"}
    if hide:
        env["DECODE_SANDBOX_HIDE"] = os.pathsep.join(str(path) for path in hide)
    provider = model.split(":", 1)[0]
    for name in PROVIDER_VARIABLES.get(provider, ()):
        if name in host:
            env[name] = host[name]
    return env


def answer_key(task: Task, results_dir: Path) -> list[Path]:
    """What the agent must not read: the tasks folder, the git repository holding it, all results."""
    hide = [task.path.parent.resolve(), Path(results_dir).resolve().parent]
    with contextlib.suppress(OSError, subprocess.SubprocessError):
        found = subprocess.run(
            ["git", "-C", str(task.path), "rev-parse", "--path-format=absolute", "--git-common-dir"],
            capture_output=True,
            text=True,
            timeout=30,
            check=False,
        )
        if found.returncode == 0 and found.stdout.strip():
            hide.append(Path(found.stdout.strip()))
    return hide


def empty_record(task: Task, trial: int, model: str, error: str | None = None) -> dict[str, Any]:
    """A trials.jsonl record of a trial that has not scored (yet): reward 0, nothing counted."""
    return {
        "task": task.name,
        "trial": trial,
        "difficulty": task.difficulty,
        "category": task.category,
        "model": model,
        "reward": 0.0,
        "passed": False,
        "exit_code": None,
        "requests": 0,
        "input_tokens": 0,
        "output_tokens": 0,
        "cost_usd": None,
        "wall_s": 0.0,
        "error": error,
        "session_id": None,
    }


def run_trial(task: Task, *, model: str, trial: int, sandbox: str, results_dir: Path) -> dict[str, Any]:
    """Run and grade one trial of `task`; the trials.jsonl record (evals/README.md has its fields)."""
    trial_dir = Path(results_dir) / f"{task.name}-{trial}"
    if trial_dir.exists():
        shutil.rmtree(trial_dir)
    trial_dir.mkdir(parents=True)
    model = resolve_model(model, task)
    record = empty_record(task, trial, model)
    started = time.monotonic()
    with tempfile.TemporaryDirectory(prefix="decode-trial-") as scratch:
        try:
            workspace = prepare(task, workspace_path(Path(scratch), "app"))
        except WorkspaceError as exc:
            record["error"] = str(exc)
            return record
        try:
            hide = answer_key(task, results_dir) if sandbox == "bwrap" else []
            timed_out = _run_agent(task, model, sandbox, workspace, trial_dir, record, hide)
            record["wall_s"] = round(time.monotonic() - started, 3)
            harness = workspace / ".decode"
            if harness.is_dir() and not harness.is_symlink():
                shutil.move(harness, trial_dir / "harness")
            if timed_out:
                record["error"] = f"agent timed out after {task.agent_timeout_s:g}s"
            else:
                result = grade(task, workspace)
                (trial_dir / "verifier.log").write_text(result.output, encoding="utf-8")
                record.update(reward=result.reward, passed=result.passed)
                record["error"] = record["error"] or result.error
        finally:  # the workspace is kept for a post-mortem, whatever happened
            shutil.move(Path(scratch) / ".decode", trial_dir / ".decode")
    kept = workspace_path(trial_dir, "app")
    (trial_dir / "workspace").symlink_to(kept.relative_to(trial_dir))
    return record


def _run_agent(
    task: Task, model: str, sandbox: str, workspace: Path, trial_dir: Path, record: dict[str, Any], hide: list[Path]
) -> bool:
    """Run decode on `task` in `workspace`, filling in `record` from its result; True if it timed out."""
    argv = [decode_executable(), "run", "--output-format", "json", "--sandbox", sandbox]
    argv += ["--permission-mode", "bypass", "--model", model, task.instruction]
    stdout_path, stderr_path = trial_dir / "stdout.json", trial_dir / "stderr.log"
    with (
        tempfile.TemporaryDirectory(prefix="decode-trial-home-") as home,
        stdout_path.open("wb") as stdout,
        stderr_path.open("wb") as stderr,
    ):
        # Its own process group: at the timeout the whole group goes (bwrap dies with decode).
        process = subprocess.Popen(
            argv,
            cwd=workspace,
            env=agent_environment(model, Path(home), hide=hide),
            stdin=subprocess.DEVNULL,
            stdout=stdout,
            stderr=stderr,
            process_group=0,
        )
        try:
            record["exit_code"] = process.wait(timeout=task.agent_timeout_s)
        except subprocess.TimeoutExpired:
            _kill_group(process)
            return True
    _read_result(stdout_path, record)
    return False


def _kill_group(process: subprocess.Popen[bytes]) -> None:
    """SIGTERM the run's process group (decode closes its sandbox), SIGKILL what is left after a grace."""
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGTERM)
    with contextlib.suppress(subprocess.TimeoutExpired):
        process.wait(timeout=KILL_GRACE_S)
    with contextlib.suppress(ProcessLookupError):
        os.killpg(process.pid, signal.SIGKILL)  # decode itself if it hung, and what it left in its group
    process.wait()


def _read_result(stdout_path: Path, record: dict[str, Any]) -> None:
    """Copy requests, tokens, cost, session id and error from decode's JSON result into `record`."""
    fill_record(stdout_path.read_text(encoding="utf-8", errors="replace"), record)


def fill_record(stdout: str, record: dict[str, Any]) -> None:
    """`_read_result` from the text of decode's standard output (its last line may be the JSON)."""
    text = stdout.strip()
    result = None
    for candidate in (text, text.splitlines()[-1] if text else ""):
        try:
            result = json.loads(candidate)
            break
        except json.JSONDecodeError:
            continue
    if not isinstance(result, dict):
        record["error"] = f"decode run printed no JSON result (exit code {record['exit_code']})"
        return
    usage = result.get("usage") or {}
    record.update(
        requests=int(usage.get("requests") or 0),
        input_tokens=int(usage.get("input_tokens") or 0),
        output_tokens=int(usage.get("output_tokens") or 0),
        cost_usd=result.get("cost_usd"),
        session_id=result.get("session_id") or None,
        error=result.get("error"),
    )
