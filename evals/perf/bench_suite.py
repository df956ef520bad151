"""The test suite's own time, part by part: `python evals/perf/run.py suite` (minutes; not in a bare run).

Each part runs as `make` runs it (`pytest -n 3 --dist loadscope`, the notebooks under nbval) with
a JUnit report, whose per-test times name the slowest tests. A figure per part (wall seconds, the
tests, failures and the five slowest in its note), and the three together against issue 27's
budget for the whole CI run, 10 minutes (install and static checks are not in it: a floor, not the
whole). `DECODE_BENCH_SUITE_PARTS=unit,notebooks` runs only those parts.
"""

import os
import sys
import xml.etree.ElementTree as ElementTree
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path

from perf import Context, Figure

PARTS: dict[str, tuple[str, ...]] = {
    "unit": ("tests/unit",),
    "integration": ("tests/integration",),
    "notebooks": ("lessons", "--nbval", "--nbval-current-env"),
}
"""What `make unit-tests`, `make integration-tests` and `make notebooks` run."""
XDIST = ("-n", "3", "--dist", "loadscope")  # as `make test` (ADR-0131)
BUDGET_S = 600.0
"""Issue 27: fresh-clone CI in at most 10 minutes on the quiet 2-core machine."""
SLOWEST = 5


@dataclass(frozen=True)
class PartTime:
    """One part's run: wall seconds, its tests and failures, and the slowest tests by their own time."""

    wall: float
    tests: int
    failed: int
    slowest: list[tuple[float, str]]


def junit_times(report: Path) -> tuple[int, int, list[tuple[float, str]]]:
    """Tests, failures (and errors) and every test's (seconds, id) from a pytest JUnit report."""
    root = ElementTree.parse(report).getroot()
    cases = list(root.iter("testcase"))
    failed = sum(1 for case in cases if case.find("failure") is not None or case.find("error") is not None)
    times = [(float(case.get("time") or 0), f"{case.get('classname')}::{case.get('name')}") for case in cases]
    # classname: `tests.unit.x.test_y` or `lessons.01-foundations.01-foundations.ipynb`
    return len(cases), failed, sorted(times, reverse=True)


def run_part(ctx: Context, name: str) -> PartTime:
    """Run one part of the suite to completion (failures are reported, not raised)."""
    report = ctx.tmp / f"{name}.xml"
    argv = ["-q", "-p", "no:cacheprovider", *XDIST, *PARTS[name]]
    wall = ctx.pytest(argv, report)
    if not report.is_file():
        raise RuntimeError(f"bench_suite: pytest wrote no report for {name} ({' '.join(argv)})")
    tests, failed, times = junit_times(report)
    if not tests:
        raise RuntimeError(f"bench_suite: pytest ran no tests for {name} ({' '.join(argv)})")
    return PartTime(wall, tests, failed, times[:SLOWEST])


def _short(test: str) -> str:
    """`test_y::test_z` of `tests.unit.x.test_y::test_z`; `01-foundations.ipynb::Cell 0` of a notebook."""
    where, _, name = test.partition("::")
    module = where.removesuffix(".ipynb").rsplit(".", 1)[-1] + (".ipynb" if where.endswith(".ipynb") else "")
    return f"{module}::{name}"


def chosen_parts() -> list[str]:
    """The parts `DECODE_BENCH_SUITE_PARTS` names (all by default); an unknown name is an error."""
    names = [name.strip() for name in os.environ.get("DECODE_BENCH_SUITE_PARTS", "").split(",") if name.strip()]
    unknown = sorted(set(names) - set(PARTS))
    if unknown:
        raise SystemExit(f"bench_suite: no part named {', '.join(unknown)} (have: {', '.join(PARTS)})")
    return names or list(PARTS)


def benchmarks(ctx: Context) -> Iterator[Figure]:
    parts = chosen_parts()
    total = 0.0
    for name in parts:
        part = run_part(ctx, name)
        total += part.wall
        slowest = "; ".join(f"{_short(test)} {seconds:.1f} s" for seconds, test in part.slowest)
        for seconds, test in part.slowest:
            print(f"    {seconds:7.1f} s  {test}", file=sys.stderr)
        note = f"{part.tests} tests, {part.failed} failed; slowest: {slowest}"
        yield Figure(f"suite part: {name}", part.wall, "s", BUDGET_S, note=note[:200])
    if parts == list(PARTS):
        note = "unit + integration + notebooks, one after another (CI's install and checks come on top)"
        yield Figure("the test suite (make test's parts)", total, "s", BUDGET_S, note=note, issue=27)
