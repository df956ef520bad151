"""A job: every trial of some tasks on one model, run in parallel, recorded as they finish.

    job_dir = run_job(load_tasks(difficulties=["easy"]), model="google-gla:gemini-flash-latest", trials=3)

`evals/results/JOB/` gets `job.json` (what was run: model, sandbox, trials, tasks, git commit,
start and end) and `trials.jsonl` (one record per trial, appended under a lock as each finishes, so
a job cut short keeps what it did), each trial's files in `NAME-TRIAL/`, and at the end the report
(`evals.report.write_report`). Progress goes to stderr.
"""

import json
import logging
import re
import subprocess
import threading
from collections.abc import Sequence
from concurrent.futures import ThreadPoolExecutor, as_completed
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from evals.benchmark.tasks import Task
from evals.benchmark.trial import empty_record, run_trial

logger = logging.getLogger(__name__)

REPO_ROOT = Path(__file__).resolve().parents[2]
RESULTS_ROOT = REPO_ROOT / "evals" / "results"
JOB_NAME = re.compile(r"[A-Za-z0-9][A-Za-z0-9._-]*")


def job_name(model: str, now: datetime | None = None) -> str:
    """The default job name: a UTC timestamp and a slug of the model.

    `google-gla:gemini-flash-latest` → `20260101T120000Z-google-gla-gemini-flash-latest`;
    a script's file name, or its folder's for a script per task: `script:evals/smoke/{task}.json`
    → `20260101T120000Z-script-smoke`.
    """
    now = now or datetime.now(UTC)
    if model.startswith("script:"):
        path = Path(model.removeprefix("script:"))
        model = "script-" + (path.parent.name if "{task}" in path.name else path.stem)
    slug = re.sub(r"[^A-Za-z0-9.]+", "-", model).strip("-")[:48] or "model"
    return f"{now:%Y%m%dT%H%M%SZ}-{slug}"


def git_commit(root: Path = REPO_ROOT) -> str | None:
    """The commit the repository is at (None outside a git checkout)."""
    try:
        done = subprocess.run(["git", "rev-parse", "HEAD"], cwd=root, capture_output=True, text=True, timeout=10)
    except (OSError, subprocess.TimeoutExpired):
        return None
    if done.returncode != 0:
        return None
    return done.stdout.strip() or None


def run_job(
    tasks: Sequence[Task],
    *,
    model: str,
    trials: int = 1,
    threads: int = 1,
    sandbox: str = "bwrap",
    job: str | None = None,
    results_root: Path = RESULTS_ROOT,
) -> Path:
    """Run `trials` trials of every task on `model`, `threads` at a time; returns the job's folder."""
    name = job or job_name(model)
    if not JOB_NAME.fullmatch(name):
        raise ValueError(f"a job name is letters, digits, '.', '_' and '-': {name!r}")
    job_dir = Path(results_root) / name
    if job is not None and (job_dir / "trials.jsonl").exists():
        raise FileExistsError(f"job {name!r} already has results in {job_dir}: pick another --job, or remove it")
    job_dir.mkdir(parents=True, exist_ok=True)
    meta: dict[str, Any] = {
        "job": job_dir.name,
        "model": model,
        "sandbox": sandbox,
        "trials": trials,
        "started_at": datetime.now(UTC).isoformat(),
        "finished_at": None,
        "git_commit": git_commit(),
        "tasks": [task.name for task in tasks],
    }
    _write_json(job_dir / "job.json", meta)
    records_path = job_dir / "trials.jsonl"
    records_path.write_text("", encoding="utf-8")
    lock = threading.Lock()
    work = [(task, number) for task in tasks for number in range(1, trials + 1)]

    from rich.console import Console
    from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn

    passed = 0
    columns = (TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn())
    with (
        Progress(*columns, console=Console(stderr=True)) as progress,
        ThreadPoolExecutor(max_workers=max(1, threads)) as pool,
    ):
        bar = progress.add_task(f"{job_dir.name}: 0 passed", total=len(work))
        futures = [
            pool.submit(_run_and_record, task, number, model, sandbox, job_dir, records_path, lock)
            for task, number in work
        ]
        for future in as_completed(futures):
            passed += bool(future.result()["passed"])
            progress.update(bar, advance=1, description=f"{job_dir.name}: {passed} passed")
    meta["finished_at"] = datetime.now(UTC).isoformat()
    _write_json(job_dir / "job.json", meta)
    _report(job_dir)
    return job_dir


def _run_and_record(
    task: Task, number: int, model: str, sandbox: str, job_dir: Path, records_path: Path, lock: threading.Lock
) -> dict[str, Any]:
    """One trial, its record appended to trials.jsonl as soon as it is done (one writer at a time)."""
    try:
        record = run_trial(task, model=model, trial=number, sandbox=sandbox, results_dir=job_dir)
    except Exception as exc:  # a runner bug in one trial must not lose the others' records
        logger.exception("trial %s-%s crashed", task.name, number)
        record = _crashed(task, number, model, exc)
    with lock, records_path.open("a", encoding="utf-8") as handle:
        handle.write(json.dumps(record) + "\n")
    return record


def _report(job_dir: Path) -> None:
    try:
        from evals.report import write_report
    except ImportError:
        logger.warning("evals.report is not available: no report.md for %s", job_dir)
        return
    write_report([job_dir], job_dir)


def _crashed(task: Task, number: int, model: str, exc: Exception) -> dict[str, Any]:
    return empty_record(task, number, model, error=f"runner error: {exc!r}")


def _write_json(path: Path, data: dict[str, Any]) -> None:
    path.write_text(json.dumps(data, indent=2) + "\n", encoding="utf-8")
