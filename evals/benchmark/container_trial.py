"""One trial inside the task's own container, as Harbor runs it: the agent first, then the tests.

    record = run_in_container(trial_spec(task, model), number=1)

The container was built from the task's `environment/Dockerfile`, so its working directory
(`/app`) already holds the workspace. decode runs there headless; only then are the tests
written to `/tests` (they are not in the image: the agent never sees them) and `test.sh` run,
its reward read from `/logs/verifier`. The container is the sandbox (it is thrown away), so
nothing here needs bubblewrap. `root` moves all three folders under another one: the offline
test runs this on the local machine that way.
"""

import io
import os
import subprocess
import tarfile
import time
from pathlib import Path
from typing import Any

from evals.benchmark.grade import read_rewards
from evals.benchmark.tasks import Task
from evals.benchmark.trial import fill_record

DECODE = "/opt/decode-venv/bin/decode"
"""Where the image installs decode: its own venv, apart from the task's Python."""


def trial_spec(task: Task, model: str, *, root: str = "/", decode: str = DECODE) -> dict[str, Any]:
    """Everything a container needs of `task` besides its image: plain values, the tests as a tar."""
    tests = io.BytesIO()
    with tarfile.open(fileobj=tests, mode="w:gz") as tar:
        tar.add(task.tests_dir, arcname=".")
    return {
        "task": task.name,
        "difficulty": task.difficulty,
        "category": task.category,
        "model": model,
        "instruction": task.instruction,
        "workdir": task.workdir,
        "agent_timeout_s": task.agent_timeout_s,
        "verifier_timeout_s": task.verifier_timeout_s,
        "tests_tar": tests.getvalue(),
        "root": root,
        "decode": decode,
    }


def run_in_container(spec: dict[str, Any], number: int, env: dict[str, str] | None = None) -> dict[str, Any]:
    """Run trial `number` of `spec` here; its trials.jsonl record (the same fields as a local trial's)."""
    root = Path(spec["root"])
    workdir, tests, rewards = (root / spec["workdir"].lstrip("/"), root / "tests", root / "logs" / "verifier")
    record = {key: spec[key] for key in ("task", "difficulty", "category", "model")}
    record.update(trial=number, reward=0.0, passed=False, exit_code=None, requests=0, input_tokens=0)
    record.update(output_tokens=0, cost_usd=None, wall_s=0.0, error=None, session_id=None)
    env = {**(os.environ if env is None else env), "TERM": "dumb"}
    argv = [spec["decode"], "run", "--output-format", "json", "--permission-mode", "bypass"]
    started = time.monotonic()
    try:
        done = subprocess.run(
            [*argv, "--model", spec["model"], spec["instruction"]],
            cwd=workdir,
            env=env,
            stdin=subprocess.DEVNULL,  # nothing to go with the task (decode run appends piped stdin)
            capture_output=True,
            timeout=spec["agent_timeout_s"],
            check=False,
        )
    except subprocess.TimeoutExpired:
        record["error"] = f"agent timed out after {spec['agent_timeout_s']:g}s"
    else:
        record["exit_code"] = done.returncode
        fill_record(done.stdout.decode("utf-8", "replace"), record)
    record["wall_s"] = round(time.monotonic() - started, 3)
    reward, error, output = _verify(spec, workdir, tests, rewards)
    record.update(reward=reward, passed=error is None and reward >= 1.0, verifier_output=output[-4000:])
    record["error"] = record["error"] or error
    return record


def _verify(spec: dict[str, Any], workdir: Path, tests: Path, rewards: Path) -> tuple[float, str | None, str]:
    """Write the tests in, run test.sh in the working directory; the reward, an error, the output."""
    tests.mkdir(parents=True, exist_ok=True)
    rewards.mkdir(parents=True, exist_ok=True)
    with tarfile.open(fileobj=io.BytesIO(spec["tests_tar"]), mode="r:gz") as tar:
        tar.extractall(tests, filter="data")
    env = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": "/root", "LANG": "C.UTF-8"}
    env.update(APP_DIR=str(workdir), TESTS_DIR=str(tests), REWARD_DIR=str(rewards))
    try:
        done = subprocess.run(
            ["bash", str(tests / "test.sh")],
            cwd=workdir,
            env=env,
            capture_output=True,
            timeout=spec["verifier_timeout_s"],
            check=False,
        )
    except subprocess.TimeoutExpired:
        return 0.0, f"verifier timed out after {spec['verifier_timeout_s']:g}s", ""
    output = (done.stdout + done.stderr).decode("utf-8", "replace")
    reward, error = read_rewards(rewards)
    if error is None and done.returncode != 0:
        return 0.0, f"the verifier exited {done.returncode} (a verifier always exits 0)", output
    return reward, error, output
