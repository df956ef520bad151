"""The `verify` and `benchmark` verbs of `python -m evals` (registered in evals/cli.py).

python -m evals verify --tasks fix-off-by-one-pagination
python -m evals benchmark --difficulty easy --model google-gla:gemini-flash-latest --trials 3
"""

import json
import sys
from pathlib import Path

import click

SANDBOXES = ("bwrap", "docker", "none")


def _names(value: str | None) -> list[str] | None:
    """A comma-separated option as a list (None when not given)."""
    if not value:
        return None
    return [name.strip() for name in value.split(",") if name.strip()]


def _load(tasks: str | None, difficulty: str | None = None) -> list:
    from evals.benchmark.tasks import TaskError, load_tasks

    try:
        found = load_tasks(names=_names(tasks), difficulties=_names(difficulty))
    except TaskError as exc:
        raise click.UsageError(str(exc)) from exc
    if not found:
        raise click.UsageError("no task matches")
    return found


def _runnable_here(chosen: list, named: bool) -> list:
    """`chosen` less the tasks in Harbor's layout: their instructions name `/app`, which a local
    trial's workspace is not; named ones are an error, others are left out with a note."""
    harbor = [task.name for task in chosen if task.harbor_layout]
    if harbor and named:
        raise click.UsageError(f"{', '.join(harbor)}: Harbor's layout (/app) runs with --env modal or `harbor run`")
    if harbor:
        click.echo(f"left out (Harbor's layout, run with --env modal): {', '.join(harbor)}", err=True)
    rest = [task for task in chosen if not task.harbor_layout]
    if not rest:
        raise click.UsageError("no task matches that runs here")
    return rest


def _require_modal_token() -> None:
    """Exit 2 with one line when no Modal token is configured (`modal token new`, or MODAL_TOKEN_ID/_SECRET)."""
    from modal.config import config

    if not (config.get("token_id") and config.get("token_secret")):
        click.echo(
            "error: Modal: no token (run `modal token new`, or set MODAL_TOKEN_ID and MODAL_TOKEN_SECRET)", err=True
        )
        sys.exit(2)


def _require_sandbox(sandbox: str) -> None:
    """Exit 2 with one line when `sandbox` cannot start here (bwrap not installed, no Docker engine)."""
    from decode.sandbox.backends import check_sandbox

    if (why := check_sandbox(sandbox, Path.cwd())) is not None:
        click.echo(f"error: {why}", err=True)
        sys.exit(2)


@click.command()
@click.option("--tasks", help="Comma-separated task names (default: every task in evals/tasks).")
@click.option(
    "--sandbox", type=click.Choice(["bwrap", "none"]), default="bwrap", show_default=True, help="Where solve.sh runs."
)
def verify(tasks: str | None, sandbox: str) -> None:
    """Prove every task's solution scores 1 and its untouched seed scores 0."""
    from evals.benchmark.verify import verify as run_verify

    chosen = _load(tasks)
    _require_sandbox(sandbox)
    result = run_verify(chosen, sandbox=sandbox)
    for line in result.lines():
        click.echo(line)
    if not result.ok:
        names = sorted({check.task for check in result.failures})
        click.echo(f"failed: {', '.join(names)}", err=True)
        sys.exit(1)


@click.command()
@click.option("--tasks", help="Comma-separated task names (default: every task).")
@click.option("--difficulty", help="Comma-separated difficulties: easy, medium, hard.")
@click.option(
    "--model",
    "-m",
    default=None,
    show_default=True,
    help="Model string (default: DECODE_MODEL, else decode's); {task} becomes the task's name.",
)
@click.option("--trials", type=click.IntRange(min=1), default=1, show_default=True, help="Trials per task.")
@click.option("--threads", type=click.IntRange(min=1), default=1, show_default=True, help="Trials at once.")
@click.option(
    "--sandbox",
    type=click.Choice(SANDBOXES),
    default="bwrap",
    show_default=True,
    help="Where the agent's commands run.",
)
@click.option(
    "--env",
    "where",
    type=click.Choice(["local", "modal"]),
    default="local",
    show_default=True,
    help="local: trials on this machine in --sandbox; modal: each in a Modal container of its task's image.",
)
@click.option("--job", help="Job name (default: UTC timestamp + model); results go to evals/results/JOB/.")
@click.option(
    "--results-root",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where job folders go instead of evals/results/.",
)
def benchmark(
    tasks: str | None,
    difficulty: str | None,
    model: str | None,
    trials: int,
    threads: int,
    sandbox: str,
    where: str,
    job: str | None,
    results_root: Path | None,
) -> None:
    """Run decode on benchmark tasks and grade every trial; writes evals/results/JOB/."""
    from evals.benchmark.job import run_job
    from evals.benchmark.preflight import model_problem

    if model is None:
        from decode.config.loading import ConfigError, load_settings

        try:
            model = load_settings().model
        except ConfigError as exc:
            raise click.UsageError(str(exc)) from exc
    if where == "modal":
        _require_modal_token()
        chosen = _load(tasks, difficulty)
    else:
        _require_sandbox(sandbox)
        chosen = _runnable_here(_load(tasks, difficulty), named=tasks is not None)
    if (problem := model_problem(model, chosen[0])) is not None:  # before any trial: none would score
        click.echo(f"error: the model cannot be used: {problem}", err=True)
        sys.exit(2)
    into = {"results_root": results_root.resolve()} if results_root is not None else {}
    try:
        if where == "modal":
            from evals.benchmark.modal_app import run_on_modal

            job_dir = run_on_modal(chosen, model=model, trials=trials, threads=threads, job=job, **into)
        else:
            job_dir = run_job(chosen, model=model, trials=trials, threads=threads, sandbox=sandbox, job=job, **into)
    except (ValueError, FileExistsError) as exc:  # a bad or used --job: nothing was run, nothing overwritten
        raise click.UsageError(str(exc)) from exc
    records = (job_dir / "trials.jsonl").read_text(encoding="utf-8").splitlines()
    passed = sum(json.loads(line)["passed"] for line in records)
    click.echo(f"{job_dir}: {passed}/{len(records)} trials passed")
