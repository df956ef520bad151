"""Each lesson notebook, run as CI runs it: `python evals/perf/run.py notebooks` (minutes; not in a bare run).

Issue 29: a notebook runs in under about 15 s on an idle machine. Each notebook runs on its own,
one after another, under nbval against its lesson's snapshot (`pytest --nbval --nbval-current-env
lessons/NN-*/NN-*.ipynb`; lessons/conftest.py writes the snapshot and starts the kernel on it),
with a JUnit report. A notebook's time is the sum of its cells' times in that report: the
snapshot's writing and the kernel's start (both in its first cell's set-up) and every cell's run,
not pytest's own start and collection, which the note gives as the whole run's wall time. The
figures come slowest first. Seconds measured on a shared machine say little without its load:
the run prints it first and last. `DECODE_BENCH_NOTEBOOKS=14,23` runs only those lessons' notebooks.
"""

import os
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from perf import Context, Figure, load_line

LIMIT_S = 15.0
"""Issue 29: a notebook runs in under about 15 s on an idle machine."""


@dataclass(frozen=True)
class NotebookTime:
    """One notebook's run: its cells' seconds, the whole pytest run's wall seconds, cells and failures."""

    name: str
    seconds: float
    wall: float
    cells: int
    failed: int


def cell_times(report: Path) -> tuple[int, int, float]:
    """Cells (test cases), failures (and errors) and the sum of their seconds in a JUnit report."""
    cases = list(ElementTree.parse(report).getroot().iter("testcase"))
    failed = sum(1 for case in cases if case.find("failure") is not None or case.find("error") is not None)
    return len(cases), failed, sum(float(case.get("time") or 0) for case in cases)


def chosen_notebooks(root: Path) -> list[Path]:
    """The notebooks of the lessons `DECODE_BENCH_NOTEBOOKS` names (every lesson's by default)."""
    every = {int(path.parent.name[:2]): path for path in sorted(root.glob("lessons/[0-9][0-9]-*/[0-9][0-9]-*.ipynb"))}
    raw = [name.strip() for name in os.environ.get("DECODE_BENCH_NOTEBOOKS", "").split(",") if name.strip()]
    unknown = [name for name in raw if not name.isdigit() or int(name) not in every]
    if unknown:
        have = ", ".join(f"{number:02}" for number in every)
        raise SystemExit(f"bench_notebooks: no lesson notebook {', '.join(unknown)} (have: {have})")
    return [every[int(name)] for name in raw] if raw else list(every.values())


def run_notebook(ctx: Context, notebook: Path) -> NotebookTime:
    """Run one notebook under nbval to the end (a failure is reported, not raised)."""
    report = ctx.tmp / f"{notebook.stem}.xml"
    argv = ["-q", "-n", "0", "--nbval", "--nbval-current-env", str(notebook.relative_to(ctx.root))]
    wall = ctx.pytest(argv, report)
    if not report.is_file():
        raise RuntimeError(f"bench_notebooks: pytest wrote no report for {notebook.name}")
    cells, failed, seconds = cell_times(report)
    return NotebookTime(notebook.stem, seconds, wall, cells, failed)


def benchmarks(ctx: Context) -> Iterator[Figure]:
    times = []
    for notebook in chosen_notebooks(ctx.root):
        measured = run_notebook(ctx, notebook)
        print(f"    {measured.seconds:6.1f} s  {measured.name}  ({load_line()})", file=sys.stderr, flush=True)
        times.append(measured)
    for measured in sorted(times, key=lambda t: t.seconds, reverse=True):
        note = f"{measured.cells} cells, {measured.failed} failed; pytest's whole run {measured.wall:.1f} s"
        yield Figure(f"notebook {measured.name} runs in", measured.seconds, "s", LIMIT_S, note=note, issue=29)
