"""The benchmark report: one or more jobs' results as `report.md` and `chart.png`.

    python -m evals report JOB [JOB …] [--out DIR]     # JOB: a path, or a name under evals/results
    write_report([Path("evals/results/a"), Path("evals/results/b")], Path("out"))  # -> out/report.md

A job directory holds `job.json` and `trials.jsonl` (the runner writes them; the shapes are in
evals/README.md). The report opens with a one-line verdict, then a summary per job, pass@1 per
difficulty and category, every task's passes per job (`2/3`), the failed trials with their
error, and the commands that reproduce it.
"""

import json
import logging
from collections.abc import Callable, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import click

from evals.metrics import Group, Summary, difficulty_names, errored, summarize

log = logging.getLogger(__name__)

RESULTS_ROOT = Path(__file__).resolve().parent / "results"
"""Where `python -m evals benchmark` writes its jobs (git-ignored)."""

# Field -> accepted types of one trials.jsonl record (NoneType: JSON null allowed).
NULL = type(None)
TRIAL_FIELDS: dict[str, tuple[type, ...]] = {
    **dict.fromkeys(("task", "difficulty", "category", "model"), (str,)),
    **dict.fromkeys(("trial", "requests", "input_tokens", "output_tokens"), (int,)),
    **dict.fromkeys(("reward", "wall_s"), (int, float)),
    **dict.fromkeys(("error", "session_id"), (str, NULL)),
    "passed": (bool,),
    "exit_code": (int, NULL),
    "cost_usd": (int, float, NULL),
}


class ResultsError(ValueError):
    """A job directory that cannot be read: the message names the file and line."""


@dataclass(frozen=True)
class Job:
    """One job's metadata (job.json), trial records (trials.jsonl) and their summary."""

    name: str
    meta: dict[str, Any]
    trials: list[dict[str, Any]]
    summary: Summary

    @property
    def model(self) -> str:
        return str(self.meta.get("model", "?"))


def _check_trial(record: object, where: str) -> dict[str, Any]:
    if not isinstance(record, dict):
        raise ResultsError(f"{where}: expected a JSON object, got {type(record).__name__}")
    if missing := [field for field in TRIAL_FIELDS if field not in record]:
        raise ResultsError(f"{where}: missing {', '.join(missing)}")
    for field, types in TRIAL_FIELDS.items():
        value = record[field]
        # bool is an int in Python: only "passed" may be one.
        if not isinstance(value, types) or (isinstance(value, bool) and bool not in types):
            raise ResultsError(f"{where}: field {field!r} has the wrong type ({value!r})")
    return record


def load_job(job_dir: Path) -> Job:
    """Read and check `job_dir`'s job.json and trials.jsonl (`ResultsError` names a bad line N)."""
    meta_path, trials_path = job_dir / "job.json", job_dir / "trials.jsonl"
    try:
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        raise ResultsError(f"{meta_path}: not found (is {job_dir} a job directory?)") from None
    except json.JSONDecodeError as error:
        raise ResultsError(f"{meta_path}: not valid JSON ({error})") from None
    if not isinstance(meta, dict):
        raise ResultsError(f"{meta_path}: expected a JSON object")
    try:
        lines = trials_path.read_text(encoding="utf-8").splitlines()
    except FileNotFoundError:
        raise ResultsError(f"{trials_path}: not found (the job recorded no trial)") from None
    trials = []
    for number, line in enumerate(lines, start=1):
        if not line.strip():
            continue
        where = f"{trials_path}:{number}"
        try:
            record = json.loads(line)
        except json.JSONDecodeError as error:
            raise ResultsError(f"{where}: not valid JSON ({error.msg})") from None
        trials.append(_check_trial(record, where))
    if not trials:
        raise ResultsError(f"{trials_path}: no trials")
    name = str(meta.get("job") or job_dir.name)
    return Job(name=name, meta=meta, trials=trials, summary=summarize(trials))


# Formatting: numbers are right-aligned columns (`---:`), always with the same precision.
def _rate(value: float) -> str:
    return f"{value:.2f}"


def _cost(value: float | None) -> str:
    return "n/a" if value is None else f"${value:,.2f}"


def _table(header: Sequence[str], rows: Sequence[Sequence[str]], numeric_from: int = 1) -> list[str]:
    align = ["---" if i < numeric_from else "---:" for i in range(len(header))]
    return [
        "| " + " | ".join(header) + " |",
        "| " + " | ".join(align) + " |",
        *("| " + " | ".join(row) + " |" for row in rows),
    ]


def _verdict(jobs: Sequence[Job]) -> str:
    """One line: how many tasks each job passes, e.g. "**a** (m) passes 14/19 tasks (pass@1 0.68); **b** 12/19 …"."""
    parts = []
    for index, job in enumerate(jobs):
        s = job.summary
        passed = f"{s.overall.solved}/{s.overall.tasks}"
        detail = f"pass@1 {_rate(s.pass_at_1)}" + (f", pass@{s.trials} {_rate(s.pass_at_k)}" if s.trials > 1 else "")
        lead = f"**{job.name}** (`{job.model}`) passes {passed} tasks" if index == 0 else f"**{job.name}** {passed}"
        parts.append(f"{lead} ({detail})")
    trials = max(job.summary.trials for job in jobs)
    rule = f" — a task passes when at least one of its {trials} trials does." if trials > 1 else "."
    return "; ".join(parts) + rule


def _summary_table(jobs: Sequence[Job]) -> list[str]:
    header = ["Job", "Model", "Tasks", "Trials", "pass@1", "pass@k", "Requests", "Requests/trial"]
    header += ["Input tokens", "Output tokens", "Tokens/trial", "Cost", "Cost/trial", "Median wall"]
    rows = [
        [
            job.name,
            f"`{job.model}`",
            str(s.overall.tasks),
            str(s.trials),
            _rate(s.pass_at_1),
            f"{_rate(s.pass_at_k)} (k={s.trials})",
            f"{s.requests_total:,}",
            f"{s.requests_mean:.1f}",
            f"{s.input_tokens:,}",
            f"{s.output_tokens:,}",
            f"{s.tokens_mean:,.0f}",
            _cost(s.cost_usd),
            "n/a" if s.cost_mean is None else f"${s.cost_mean:.4f}",
            f"{s.wall_median_s:.1f} s",
        ]
        for job in jobs
        for s in [job.summary]
    ]
    return _table(header, rows, numeric_from=2)


def _group_table(
    jobs: Sequence[Job], label: str, names: list[str], pick: Callable[[Summary], dict[str, Group]]
) -> list[str]:
    header = [label] + [f"{job.name} pass@1" for job in jobs]
    rows = []
    for name in names:
        row = [name]
        for job in jobs:
            group = pick(job.summary).get(name)
            row.append(f"{_rate(group.pass_at_1)} ({group.solved}/{group.tasks})" if group else "–")
        rows.append(row)
    return _table(header, rows)


def _task_table(jobs: Sequence[Job]) -> list[str]:
    names = sorted({name for job in jobs for name in job.summary.tasks})
    header = ["Task", "Difficulty", "Category"] + [job.name for job in jobs]
    rows = []
    for name in names:
        first = next(job.summary.tasks[name] for job in jobs if name in job.summary.tasks)
        row = [name, first.difficulty, first.category]
        for job in jobs:
            result = job.summary.tasks.get(name)
            row.append("–" if result is None else f"{'✓' if result.c else '✗'} {result.c}/{result.n}")
        rows.append(row)
    return _table(header, rows, numeric_from=3)


def _failures(jobs: Sequence[Job]) -> list[str]:
    """Each job's failed trials, then those that errored (`metrics.errored`): not the agent's doing."""
    lines = []
    for job in jobs:
        ordered = sorted((t for t in job.trials if not t["passed"]), key=lambda t: (t["task"], t["trial"]))
        failed = [t for t in ordered if not errored(t)]
        errors = [t for t in ordered if errored(t)]
        count = f"{len(failed)} of {len(job.trials)} trials failed" + (f", {len(errors)} errored" if errors else "")
        lines += ["", f"### {job.name}: {count}", ""]
        for t in failed:
            why = t["error"] or f"the verifier gave reward {t['reward']:g}"
            lines.append(f"- `{t['task']}` trial {t['trial']} (exit {t['exit_code']}): {why}")
        for t in errors:
            lines.append(
                f"- `{t['task']}` trial {t['trial']} (exit {t['exit_code']}): error, not a failure: {t['error']}"
            )
    return lines


def _reproduce(jobs: Sequence[Job]) -> list[str]:
    lines = ["```sh"]
    for job in jobs:
        m = job.meta
        tasks = ",".join(m.get("tasks") or sorted(job.summary.tasks))
        lines.append(
            f"python -m evals benchmark --model '{job.model}' --trials {m.get('trials', job.summary.trials)}"
            f" --sandbox {m.get('sandbox', 'bwrap')} --job {job.name} --tasks {tasks}"
        )
    lines.append("python -m evals report " + " ".join(job.name for job in jobs))
    return [*lines, "```"]


def render(jobs: Sequence[Job]) -> str:
    """The report's Markdown for `jobs` (its chart is `chart.png` beside it)."""
    summaries = [job.summary for job in jobs]
    commits = ", ".join(f"{job.name} at `{(job.meta.get('git_commit') or 'unknown')[:12]}`" for job in jobs)
    started = ", ".join(f"{job.name} {job.meta.get('started_at', '?')}" for job in jobs)
    categories = sorted({c for s in summaries for c in s.by_category})
    lines = [
        "# decode benchmark report",
        "",
        _verdict(jobs),
        "",
        f"Jobs: {started} (UTC); decode {commits}.",
        "",
        "![pass@1 by difficulty](chart.png)",
        "",
        "## Summary",
        "",
        *_summary_table(jobs),
        "",
        "## By difficulty",
        "",
        *_group_table(jobs, "Difficulty", difficulty_names(summaries), lambda s: s.by_difficulty),
        "",
        "## By category",
        "",
        *_group_table(jobs, "Category", categories, lambda s: s.by_category),
        "",
        "## Tasks",
        "",
        "Passing trials of each task (✓: at least one passed).",
        "",
        *_task_table(jobs),
        "",
        "## Failures",
        *_failures(jobs),
        "",
        "## Reproduce",
        "",
        *_reproduce(jobs),
        "",
    ]
    return "\n".join(lines)


def write_report(jobs: list[Path], out: Path) -> Path:
    """Write `out/report.md` and `out/chart.png` for the job directories `jobs`; return report.md."""
    from evals.chart import write_chart

    loaded = [load_job(job_dir) for job_dir in jobs]
    out.mkdir(parents=True, exist_ok=True)
    report = out / "report.md"
    report.write_text(render(loaded), encoding="utf-8")
    try:
        write_chart({f"{job.name} ({job.model})": job.summary for job in loaded}, out / "chart.png")
    except ModuleNotFoundError as error:  # the tables stand without the chart; a job must not fail here
        if error.name != "matplotlib":
            raise
        log.warning("no chart.png: matplotlib is not installed (`make install` installs it)")
    log.info("wrote %s", report)
    return report


def resolve_job(job: str) -> Path:
    """A job argument: an existing directory, else a job name under evals/results."""
    path = Path(job)
    return path if path.is_dir() else RESULTS_ROOT / job


@click.command()
@click.argument("jobs", nargs=-1, required=True)
@click.option(
    "--out",
    type=click.Path(file_okay=False, path_type=Path),
    help="Where report.md and chart.png go. Default: the job's directory (one job), else evals/results/report-A-B.",
)
def report(jobs: tuple[str, ...], out: Path | None) -> None:
    """Write report.md and chart.png for one or more benchmark JOBs (a path or a name under evals/results)."""
    dirs = [resolve_job(job) for job in jobs]
    if out is None:
        out = dirs[0] if len(dirs) == 1 else RESULTS_ROOT / ("report-" + "-".join(d.name for d in dirs))
    try:
        path = write_report(dirs, out)
    except ResultsError as error:
        raise click.ClickException(str(error)) from None
    click.echo(path)
