"""`evals/perf/run.py`: the load printed first and last, and the closing table of an issue's targets."""

import shutil
import subprocess
import sys
from pathlib import Path

PERF = Path(__file__).resolve().parents[3] / "evals" / "perf"

MET = """
from perf import Figure, ratio


def benchmarks(ctx):
    yield ratio("bwrap bash('true') vs none", 1.2, 1.5, issue=27)
    yield Figure("a figure of no issue", 3.0, "ms", 5.0)
"""
OVER = """
from perf import ratio


def benchmarks(ctx):
    yield ratio("tracing off vs lesson 20", 1.3, 1.1, issue=27)
"""
SILENT = """
def benchmarks(ctx):
    return iter(())
"""
ON_REQUEST = """
def benchmarks(ctx):
    raise SystemExit("the suite ran in a bare run")
"""


def perf_copy(tmp_path: Path, modules: dict[str, str]) -> Path:
    """The runner and kit copied beside the given bench modules only (the real ones take minutes)."""
    folder = tmp_path / "evals" / "perf"
    folder.mkdir(parents=True)
    for name in ("perf.py", "run.py"):
        shutil.copy(PERF / name, folder / name)
    for name, text in modules.items():
        (folder / f"bench_{name}.py").write_text(text, encoding="utf-8")
    return folder


def run(folder: Path, *names: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run(
        [sys.executable, str(folder / "run.py"), *names], capture_output=True, text=True, timeout=120, check=False
    )


def test_a_run_prints_the_load_and_ends_with_every_target_of_the_issue(tmp_path: Path) -> None:
    folder = perf_copy(tmp_path, {"sandbox": MET, "tracing": OVER, "tools": SILENT})

    done = run(folder, "sandbox", "tracing", "tools")

    assert done.returncode == 1, done.stderr  # a target not met
    lines = done.stdout.splitlines()
    assert "load " in lines[0]
    assert "(1/5/15 min) on" in lines[0]
    assert lines[-1].startswith("At the end: load ")
    summary = done.stdout[done.stdout.index("## Targets of issue 27") :]
    assert "| bwrap bash('true') vs none | sandbox | 1.20x | ≤ 1.5x | yes |" in summary
    assert "| tracing off vs lesson 20 | tracing | 1.30x | ≤ 1.1x | NO |" in summary
    assert "| (no target reported) | tools | not measured |  | NO |" in summary
    assert "a figure of no issue" not in summary
    assert "1 of 3 met." in summary
    (written,) = (folder / "results").glob("perf-*.md")
    assert "## Targets of issue 27" in written.read_text(encoding="utf-8")


def test_a_bare_run_leaves_the_suite_out_and_names_the_modules_missing(tmp_path: Path) -> None:
    folder = perf_copy(tmp_path, {"sandbox": MET, "suite": ON_REQUEST})

    done = run(folder)

    assert "the suite ran" not in done.stdout + done.stderr
    summary = done.stdout[done.stdout.index("## Targets of issue 27") :]
    assert "| (no such module) | bench_tracing.py | not measured |  | NO |" in summary
    assert "bench_suite.py" not in summary  # run only when named
    assert done.returncode == 1


def test_all_targets_met_exit_zero(tmp_path: Path) -> None:
    folder = perf_copy(tmp_path, {"sandbox": MET})

    done = run(folder, "sandbox")

    assert done.returncode == 0, done.stdout + done.stderr
    assert "1 of 1 met." in done.stdout


def test_an_unknown_module_is_one_clear_line(tmp_path: Path) -> None:
    folder = perf_copy(tmp_path, {"sandbox": MET})

    done = run(folder, "nope")

    assert done.returncode == 1
    assert done.stderr.strip().splitlines() == ["run.py: no benchmark module named nope (have: sandbox)"]
