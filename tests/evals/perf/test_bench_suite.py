"""`evals/perf/bench_suite.py`: a part of the suite run for real, its JUnit report read back."""

import importlib.util
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

PERF = Path(__file__).resolve().parents[3] / "evals" / "perf"


def bench_suite() -> ModuleType:
    sys.path.insert(0, str(PERF))  # the bench imports its kit as `perf`, as run.py has it
    try:
        spec = importlib.util.spec_from_file_location("bench_suite_under_test", PERF / "bench_suite.py")
        assert spec is not None
        assert spec.loader is not None
        module = importlib.util.module_from_spec(spec)
        spec.loader.exec_module(module)
        return module
    finally:
        sys.path.remove(str(PERF))


def test_a_junit_report_gives_the_tests_the_failures_and_the_slowest_first(tmp_path: Path) -> None:
    (tmp_path / "test_sample.py").write_text(
        "import pytest\n\n"
        "def test_passes():\n    assert True\n\n"
        "def test_fails():\n    assert False\n\n"
        "@pytest.fixture\ndef broken():\n    raise RuntimeError('setup')\n\n"
        "def test_errors(broken):\n    pass\n",
        encoding="utf-8",
    )
    report = tmp_path / "report.xml"
    subprocess.run(
        [sys.executable, "-m", "pytest", "-q", "-p", "no:cacheprovider", "-n", "0", f"--junitxml={report}"],
        cwd=tmp_path,
        capture_output=True,
        timeout=120,
        check=False,
    )

    tests, failed, times = bench_suite().junit_times(report)

    assert (tests, failed) == (3, 2)
    assert sorted(test.rsplit("::", 1)[-1] for _, test in times) == ["test_errors", "test_fails", "test_passes"]
    assert [seconds for seconds, _ in times] == sorted((seconds for seconds, _ in times), reverse=True)


def test_an_unknown_part_is_one_clear_line(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_BENCH_SUITE_PARTS", "unit,nope")

    with pytest.raises(SystemExit, match=r"^bench_suite: no part named nope \(have: unit, integration, notebooks\)$"):
        bench_suite().chosen_parts()


def test_the_parts_are_what_make_runs() -> None:
    makefile = (PERF.parents[1] / "Makefile").read_text(encoding="utf-8")
    parts = bench_suite().PARTS

    assert f"WORKERS ?= {bench_suite().XDIST[1]}\n" in makefile
    assert "$(XDIST) tests/unit)" in makefile
    assert parts["unit"] == ("tests/unit",)
    assert "$(XDIST) tests/integration)" in makefile
    assert parts["integration"] == ("tests/integration",)
    assert "$(XDIST) lessons $(NBVAL))" in makefile
    assert parts["notebooks"][0] == "lessons"
