"""`evals/perf/bench_notebooks.py`: a JUnit report read back, the notebooks chosen, the module on request."""

import importlib.util
import sys
from pathlib import Path
from types import ModuleType

import pytest

PERF = Path(__file__).resolve().parents[3] / "evals" / "perf"
ROOT = PERF.parents[1]


def load(name: str) -> ModuleType:
    sys.path.insert(0, str(PERF))  # the bench imports its kit as `perf`, as run.py has it
    try:
        spec = importlib.util.spec_from_file_location(f"{name}_under_test", PERF / f"{name}.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(PERF))


REPORT = """<?xml version="1.0" encoding="utf-8"?>
<testsuites><testsuite name="pytest" errors="1" failures="1" skipped="0" tests="3" time="9.9">
<testcase classname="lessons.14-mcp.14-mcp.ipynb" name="Cell 0" time="4.250" />
<testcase classname="lessons.14-mcp.14-mcp.ipynb" name="Cell 1" time="1.500">
<failure message="Cell outputs differ" /></testcase>
<testcase classname="lessons.14-mcp.14-mcp.ipynb" name="Cell 2" time="0.250"><error message="kernel died" /></testcase>
</testsuite></testsuites>
"""
"""What pytest's `--junitxml` writes for a notebook under nbval (a cell a test case), written here:
a pytest run of its own costs seconds on a busy machine."""


def test_a_junit_report_gives_the_cells_the_failures_and_their_seconds(tmp_path: Path) -> None:
    report = tmp_path / "report.xml"
    report.write_text(REPORT, encoding="utf-8")

    assert load("bench_notebooks").cell_times(report) == (3, 2, 6.0)


def test_the_notebooks_are_every_lessons_or_those_named(monkeypatch: pytest.MonkeyPatch) -> None:
    bench = load("bench_notebooks")
    every = bench.chosen_notebooks(ROOT)
    monkeypatch.setenv("DECODE_BENCH_NOTEBOOKS", "23, 14")

    assert [path.stem for path in bench.chosen_notebooks(ROOT)] == ["23-recording", "14-mcp"]
    assert len(every) == len(list(ROOT.glob("lessons/[0-9][0-9]-*/"))) == len({p.parent for p in every})


def test_an_unknown_lesson_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_BENCH_NOTEBOOKS", "14,99,x")

    with pytest.raises(SystemExit, match=r"^bench_notebooks: no lesson notebook 99, x \(have: 01, .*, 24\)$"):
        load("bench_notebooks").chosen_notebooks(ROOT)


def test_the_notebooks_run_only_when_named_and_report_issue_29() -> None:
    assert "notebooks" in load("run").ON_REQUEST  # minutes long: not in a bare `make bench`
    assert load("perf").ISSUE_BENCHES[29] == ("notebooks",)
