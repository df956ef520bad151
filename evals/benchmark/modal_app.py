"""`python -m evals benchmark --env modal`: every trial in a Modal container of its task's own image.

    app, trial_functions = build_app(tasks, model)     # defined offline; no token needed
    job_dir = run_on_modal(tasks, model=..., trials=5, threads=50)

Each task gets one Modal function whose image is its `environment/Dockerfile` (the folder as build
context) with decode installed from this checkout in `/opt/decode-venv`; the function runs
`container_trial.run_in_container`. A job maps every function over its trial numbers at once, so
trials run in parallel containers (`--threads` caps the containers per task), and writes the
same `evals/results/JOB/` (job.json, trials.jsonl, report) as a local job. The model's provider
keys travel in a Secret made from this machine's environment, never in an image.
"""

import json
import os
from collections.abc import Sequence
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

import modal

from evals.benchmark.container_trial import run_in_container, trial_spec
from evals.benchmark.job import RESULTS_ROOT, git_commit, job_name
from evals.benchmark.tasks import Task
from evals.benchmark.trial import PROVIDER_VARIABLES, empty_record

PROJECT = Path(__file__).resolve().parents[2]
LEFT_OUT = [".git", ".venv", ".decode", "**/__pycache__", "**/.env", "**/.env.*", "lessons", "tests", "evals/results"]
"""Not copied into an image: history, local state, results and every `.env` (secrets stay out of images)."""
APP_NAME = "decode-evals"
COMPUTE = {"cpu": 1.0, "memory": 2048}
"""A trial container's reservation: one core, 2 GiB (the tasks' own `cpus` / `memory_mb`)."""


def task_image(task: Task) -> modal.Image:
    """The task's Dockerfile, plus decode in its own venv (needs `python3` with `venv` in the image)."""
    context = task.path / "environment"
    dockerfile = (context / "Dockerfile").read_text(encoding="utf-8")
    python_base = any(line.strip().lower().startswith("from python:") for line in dockerfile.splitlines())
    return (
        modal.Image.from_dockerfile(
            context / "Dockerfile", context_dir=context, add_python=None if python_base else "3.12"
        )
        .add_local_dir(PROJECT, "/opt/decode", copy=True, ignore=LEFT_OUT)
        .run_commands("python3 -m venv /opt/decode-venv && /opt/decode-venv/bin/pip install --no-cache-dir /opt/decode")
        .add_local_python_source("evals", copy=True)
    )


def provider_secret(model: str, environ: dict[str, str] | None = None) -> modal.Secret:
    """The model's provider variables set here (`PROVIDER_VARIABLES`), as an ephemeral Secret."""
    environ = dict(os.environ) if environ is None else environ
    names = PROVIDER_VARIABLES.get(model.split(":", 1)[0], ())
    return modal.Secret.from_dict({name: environ[name] for name in names if name in environ})


def trial(spec: dict[str, Any], number: int) -> dict[str, Any]:
    """One trial in this container (the body of every task's function)."""
    return run_in_container(spec, number)


def build_app(
    tasks: Sequence[Task], model: str, threads: int = 10, environ: dict[str, str] | None = None
) -> tuple[modal.App, dict[str, Any]]:
    """The app and one function per task (by task name), each on its own image, at most `threads` at once."""
    app = modal.App(APP_NAME)
    secret = provider_secret(model, environ)
    functions = {}
    for task in tasks:
        functions[task.name] = app.function(
            image=task_image(task),
            secrets=[secret],
            timeout=int(task.agent_timeout_s + task.verifier_timeout_s + 300),  # + start-up
            max_containers=threads,
            serialized=True,
            name=f"trial-{task.name}",
            **COMPUTE,
        )(trial)
    return app, functions


def _outcome(task: Task, number: int, model: str, call: Any) -> dict[str, Any]:
    """The record a spawned trial returned, or an errored one when its container failed."""
    try:
        return call.get()
    except Exception as exc:  # one lost container must not lose the others' records
        return empty_record(task, number, model, error=f"runner error on Modal: {exc!r}")


def run_on_modal(
    tasks: Sequence[Task],
    *,
    model: str,
    trials: int = 1,
    threads: int = 10,
    job: str | None = None,
    results_root: Path = RESULTS_ROOT,
) -> Path:
    """Run `trials` trials of every task on Modal, all at once; the job's folder (as `run_job`'s)."""
    name = job or job_name(model)
    job_dir = Path(results_root) / name
    if (job_dir / "trials.jsonl").exists():
        raise FileExistsError(f"job {name!r} already has results in {job_dir}: pick another --job, or remove it")
    job_dir.mkdir(parents=True, exist_ok=True)
    meta = {"job": name, "model": model, "sandbox": "modal", "trials": trials, "tasks": [t.name for t in tasks]}
    meta.update(started_at=datetime.now(UTC).isoformat(), git_commit=git_commit())
    app, functions = build_app(tasks, model, threads)
    with modal.enable_output(), app.run():
        calls = []  # every trial is spawned before any is awaited: they all run at once
        for task in tasks:
            spec = trial_spec(task, model)
            calls += [(task, n, functions[task.name].spawn(spec, n)) for n in range(1, trials + 1)]
        records = [_outcome(task, number, model, call) for task, number, call in calls]
    with (job_dir / "trials.jsonl").open("w", encoding="utf-8") as handle:
        handle.writelines(json.dumps(record) + "\n" for record in records)
    meta["finished_at"] = datetime.now(UTC).isoformat()
    (job_dir / "job.json").write_text(json.dumps(meta, indent=2) + "\n", encoding="utf-8")
    from evals.report import write_report

    write_report([job_dir], job_dir)
    return job_dir
