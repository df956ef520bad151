"""The evals' smoke test: the whole benchmark pipeline, offline, without a model key.

    python -m evals smoke          # or: make eval-smoke

It runs a real job (`evals.benchmark.job.run_job`: fresh workspaces, `decode run` in
bubblewrap, the tasks' verifiers, the report) on two real tasks, each with its own scripted
model, `evals/smoke/TASK.json`: one script fixes `fix-off-by-one-pagination` as its reference
solution does, the other gives up on `csv-sales-summary`. The job must come out exactly 1 of 2
passed, with a report that names both tasks; anything else exits 1 with what went wrong.
"""

from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

import click

from evals.benchmark.job import RESULTS_ROOT
from evals.benchmark.tasks import TASKS_ROOT

SCRIPTS = Path(__file__).resolve().parent / "smoke"
SOLVED, FAILED = "fix-off-by-one-pagination", "csv-sales-summary"
MODEL = f"script:{SCRIPTS}/{{task}}.json"
"""One scripted model per task: the runner puts each task's name in `{task}`."""


@dataclass(frozen=True)
class SmokeResult:
    """What the smoke job did: its folder, report, and the problems found (none: it passed)."""

    job_dir: Path
    report: Path
    problems: list[str]


def run_smoke(
    results_root: Path = RESULTS_ROOT,
    tasks_root: Path = TASKS_ROOT,
    solved: str = SOLVED,
    failed: str = FAILED,
    model: str = MODEL,
    sandbox: str = "bwrap",
) -> SmokeResult:
    """Run the smoke job and check it: `solved` passes, `failed` fails, the report names both."""
    from evals.benchmark.job import run_job
    from evals.benchmark.tasks import load_tasks

    tasks = load_tasks(tasks_root, names=[solved, failed])
    job = f"smoke-{datetime.now(UTC):%Y%m%dT%H%M%S%fZ}"
    job_dir = run_job(tasks, model=model, trials=1, threads=2, sandbox=sandbox, job=job, results_root=results_root)
    return SmokeResult(job_dir=job_dir, report=job_dir / "report.md", problems=check_job(job_dir, solved, failed))


def check_job(job_dir: Path, solved: str, failed: str) -> list[str]:
    """What is wrong with a smoke job: `solved` must pass, `failed` fail, the report name both."""
    from evals.report import load_job

    records = {record["task"]: record for record in load_job(job_dir).trials}
    problems = []
    for task, expected in ((solved, True), (failed, False)):
        record = records.get(task)
        if record is None:
            problems.append(f"{task}: no trial recorded")
        elif record["passed"] is not expected:
            why = f" ({record['error']})" if record["error"] else ""
            problems.append(f"{task}: expected {'pass' if expected else 'fail'}, got reward {record['reward']}{why}")
    report = job_dir / "report.md"
    if not report.is_file():
        problems.append(f"no report at {report}")
    else:
        text = report.read_text(encoding="utf-8")
        problems += [f"the report does not name {task}" for task in (solved, failed) if task not in text]
        if "1/2 tasks" not in text:
            problems.append("the report's verdict is not 1/2 tasks passed")
    return problems
    return SmokeResult(job_dir=job_dir, report=report, problems=problems)


@click.command()
@click.option("--sandbox", type=click.Choice(["bwrap", "none"]), default="bwrap", show_default=True)
@click.option(
    "--results-root",
    type=click.Path(file_okay=False, path_type=Path),
    default=RESULTS_ROOT,
    help="Where the smoke job's folder goes.  [default: evals/results]",
)
def smoke(sandbox: str, results_root: Path) -> None:
    """Run the benchmark pipeline offline on two tasks with scripted models: one passes, one fails."""
    result = run_smoke(results_root=results_root, sandbox=sandbox)
    if result.problems:
        for problem in result.problems:
            click.echo(f"smoke: {problem}", err=True)
        click.echo(f"smoke: FAILED; see {result.job_dir}", err=True)
        raise SystemExit(1)
    click.echo(f"smoke: ok, 1/2 passed as expected ({SOLVED} solved, {FAILED} not); report: {result.report}")
