"""The benchmark kit: time a subject against a baseline and judge the ratio against a target.

A benchmark module (`bench_*.py` beside this file) defines `benchmarks(ctx)`, which yields
`Comparison`s (timed by the runner) and `Figure`s (a number the module measured itself, such as
the characters of a prompt; `ratio()` makes one of a ratio it timed itself, interleaved). `run.py`
finds the modules, runs them and prints one markdown table per module.

An issue's target is a row with `issue=N` (a `Comparison`, a `Figure`, a `ratio()`): the run ends
with a table of every such row, measured, target and met, and names each module of
`ISSUE_BENCHES[N]` that ran but reported no target of the issue ("not measured").

Timing is wall-clock over whole runs, repeated: the subject and the baseline alternate so a
burst of load on the machine hits both alike, and the median of each is compared. Ratios to a
baseline measured in the same run travel between machines far better than raw seconds.
"""

import os
import platform
import resource
import shlex
import statistics
import subprocess
import sys
import time
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path


@dataclass(frozen=True)
class Subject:
    """Something to time: `call()` is one repetition; `inner` calls make one sample.

    Use `inner` > 1 for in-process work much shorter than a millisecond, so the clock's
    resolution and the loop's own cost don't dominate.
    """

    label: str
    call: Callable[[], object]
    inner: int = 1


def steady_state_environment(overrides: dict[str, str] | None = None) -> dict[str, str]:
    """This process's environment, minus what would make a start slower than a user's second one.

    With PYTHONDONTWRITEBYTECODE set (some sandboxes and CI images set it), Python compiles every
    module it imports from source, every time; a user's Python caches the bytecode on first run.
    Benchmarks measure that steady state: the warm-up runs write the cache.
    """
    env = {name: value for name, value in os.environ.items() if name != "PYTHONDONTWRITEBYTECODE"}
    return {**env, **(overrides or {})}


def command(
    argv: Sequence[str | Path],
    *,
    label: str | None = None,
    cwd: Path | None = None,
    env: dict[str, str] | None = None,
) -> Subject:
    """A command run to completion, output discarded; a non-zero exit aborts the benchmark.

    `env` adds to (or overrides) the steady-state environment; it does not replace it.
    """
    args = [str(part) for part in argv]
    environment = steady_state_environment(env)

    def call() -> None:
        subprocess.run(
            args,
            cwd=cwd,
            env=environment,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=True,
        )

    return Subject(label or shlex.join(args), call)


@dataclass(frozen=True)
class Comparison:
    """`subject` may take at most `target` times as long as `baseline` (medians)."""

    name: str
    subject: Subject
    baseline: Subject
    target: float
    runs: int | None = None  # samples of each side; None: the runner's default (`--runs` overrides both)
    issue: int | None = None  # a target of this issue: listed in the run's closing summary


@dataclass(frozen=True)
class Figure:
    """A value the benchmark measured itself, with the most it may be (`limit`, same unit)."""

    name: str
    value: float
    unit: str
    limit: float
    note: str = ""
    issue: int | None = None  # a target of this issue: listed in the run's closing summary


def ratio(name: str, value: float, limit: float, *, note: str = "", issue: int | None = None) -> Figure:
    """A ratio the module timed itself (subject over baseline, medians of interleaved samples)."""
    return Figure(name, value, "x", limit, note=note, issue=issue)


ISSUE_BENCHES: dict[int, tuple[str, ...]] = {
    27: (
        "files",
        "first_request",
        "git_status",
        "loop",
        "permissions",
        "process_farm",
        "repl",
        "run_exit",
        "sandbox",
        "startup",
        "suite",
        "tools",
        "tracing",
    ),
    29: ("notebooks",),
}
"""The modules (the part after `bench_`) expected to report an issue's targets. One that ran and
reported none shows as "not measured" in the summary (a bench that skipped, a target not adopted);
one missing from a full run shows as "no such module". A new module adds its name here."""


@dataclass(frozen=True)
class Context:
    """What a benchmark module gets: where things are, and a scratch directory of its own."""

    root: Path
    bin_dir: Path
    tmp: Path
    warmup: int

    def bin(self, name: str) -> Path:
        """A program of the project's virtual environment (`python`, `decode`, `rg`…)."""
        return self.bin_dir / name

    def environment(self, **overrides: str) -> dict[str, str]:
        """The environment commands run with, plus `overrides` (see `steady_state_environment`)."""
        return steady_state_environment(overrides)

    def pytest(self, arguments: Sequence[str], report: Path) -> float:
        """Run `python -m pytest ARGUMENTS` quietly in the root with a JUnit report at `report`; its
        wall seconds. A failing test is no error here: the report says which."""
        argv = [str(self.bin("python")), "-m", "pytest", *arguments, f"--junitxml={report}"]
        started = time.perf_counter()
        subprocess.run(
            argv,
            cwd=self.root,
            env=self.environment(),
            stdin=subprocess.DEVNULL,
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
            check=False,
        )
        return time.perf_counter() - started


@dataclass(frozen=True)
class Row:
    """One line of the results table."""

    name: str
    subject: str
    value: str
    baseline: str
    ratio: str
    cpu_ratio: str
    target: str
    passed: bool
    issue: int | None = None
    module: str = ""


def sample(subject: Subject) -> float:
    """Wall-clock seconds for one sample of `subject` (per call when `inner` > 1)."""
    return timed(subject).wall


@dataclass(frozen=True)
class Sample:
    """One sample: wall-clock seconds, and CPU seconds (this process's and its finished children's)."""

    wall: float
    cpu: float


def _children_cpu() -> float:
    usage = resource.getrusage(resource.RUSAGE_CHILDREN)
    return usage.ru_utime + usage.ru_stime


def timed(subject: Subject) -> Sample:
    """One sample of `subject`, per call when `inner` > 1.

    CPU time barely moves when other work shares the machine, wall time does: on a busy machine,
    the CPU ratio is the steadier figure (start-up is CPU-bound once files are cached).
    """
    cpu, children = time.process_time(), _children_cpu()
    started = time.perf_counter()
    for _ in range(subject.inner):
        subject.call()
    wall = time.perf_counter() - started
    cpu = time.process_time() - cpu + _children_cpu() - children
    return Sample(wall / subject.inner, cpu / subject.inner)


def measure(comparison: Comparison, runs: int, warmup: int) -> tuple[list[Sample], list[Sample]]:
    """Samples of the subject and of the baseline, taken alternately (order flipped each round)."""
    for _ in range(warmup):
        timed(comparison.subject)
        timed(comparison.baseline)
    subject_samples: list[Sample] = []
    baseline_samples: list[Sample] = []
    for round_ in range(runs):
        if round_ % 2:
            baseline_samples.append(timed(comparison.baseline))
            subject_samples.append(timed(comparison.subject))
        else:
            subject_samples.append(timed(comparison.subject))
            baseline_samples.append(timed(comparison.baseline))
    return subject_samples, baseline_samples


def seconds(value: float) -> str:
    """A duration at a readable scale: `2.31 s`, `48.2 ms`, `310 µs`."""
    if value >= 1:
        return f"{value:.2f} s"
    if value >= 1e-3:
        return f"{value * 1e3:.1f} ms"
    return f"{value * 1e6:.0f} µs"


def compare(comparison: Comparison, runs: int, warmup: int) -> Row:
    """Run a comparison (`runs` samples of each side) and judge it by the wall-clock medians."""
    subject_samples, baseline_samples = measure(comparison, runs, warmup)
    subject = statistics.median(sample.wall for sample in subject_samples)
    baseline = statistics.median(sample.wall for sample in baseline_samples)
    baseline_cpu = statistics.median(sample.cpu for sample in baseline_samples)
    cpu_ratio = statistics.median(sample.cpu for sample in subject_samples) / baseline_cpu if baseline_cpu else None
    measured = subject / baseline
    return Row(
        name=comparison.name,
        subject=comparison.subject.label,
        value=seconds(subject),
        baseline=f"`{comparison.baseline.label}` {seconds(baseline)}",
        ratio=f"{measured:.2f}x",
        cpu_ratio=f"{cpu_ratio:.2f}x" if cpu_ratio is not None else "",
        target=f"≤ {comparison.target:g}x",
        passed=measured <= comparison.target,
        issue=comparison.issue,
    )


def judge(figure: Figure) -> Row:
    """A figure the benchmark measured itself, against its limit (a ratio shown as one: `1.20x`)."""
    is_ratio = figure.unit == "x"
    return Row(
        name=figure.name,
        subject=figure.note,
        value="" if is_ratio else f"{figure.value:,.4g} {figure.unit}",
        baseline="",
        ratio=f"{figure.value:.2f}x" if is_ratio else "",
        cpu_ratio="",
        target=f"≤ {figure.limit:g}x" if is_ratio else f"≤ {figure.limit:,.4g} {figure.unit}",
        passed=figure.value <= figure.limit,
        issue=figure.issue,
    )


def table(rows: Sequence[Row]) -> str:
    """The rows as a markdown table."""
    lines = [
        "| benchmark | subject | median | baseline (median) | ratio | CPU ratio | target | result |",
        "|---|---|---:|---|---:|---:|---|---|",
    ]
    for row in rows:
        subject = f"`{row.subject}`" if row.subject else ""
        result = "PASS" if row.passed else "OVER"
        lines.append(
            f"| {row.name} | {subject} | {row.value} | {row.baseline} | {row.ratio} | {row.cpu_ratio} | {row.target} "
            f"| {result} |"
        )
    return "\n".join(lines)


def load_line() -> str:
    """The machine's load averages (1, 5, 15 minutes) against its CPUs: how shared the run was."""
    averages = os.getloadavg() if hasattr(os, "getloadavg") else (float("nan"),) * 3
    return f"load {' / '.join(f'{value:.2f}' for value in averages)} (1/5/15 min) on {os.cpu_count()} CPUs"


def machine() -> str:
    """One line describing where the figures were taken."""
    now = datetime.now(UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"{now} · Python {platform.python_version()} · {platform.system()} {platform.machine()} · "
        f"{load_line()} · {sys.executable}"
    )


def summary(issue: int, rows: Sequence[Row], silent: Sequence[str], missing: Sequence[str] = ()) -> str:
    """The targets of `issue` as one table: measured, target, met. `silent` modules ran and reported
    none; `missing` ones do not exist."""
    lines = [
        f"## Targets of issue {issue}",
        "",
        "| target | bench | measured | target | met |",
        "|---|---|---:|---|---|",
    ]
    for row in rows:
        measured = row.ratio or row.value
        lines.append(f"| {row.name} | {row.module} | {measured} | {row.target} | {'yes' if row.passed else 'NO'} |")
    for module in silent:
        lines.append(f"| (no target reported) | {module} | not measured |  | NO |")
    for module in missing:
        lines.append(f"| (no such module) | bench_{module}.py | not measured |  | NO |")
    met = sum(row.passed for row in rows)
    lines += ["", f"{met} of {len(rows) + len(silent) + len(missing)} met."]
    return "\n".join(lines) + "\n"


@dataclass
class Report:
    """Every module's table, printed as it completes and kept for the results file."""

    sections: list[str] = field(default_factory=list)

    def add(self, title: str, rows: Sequence[Row]) -> str:
        section = f"## {title}\n\n{table(rows)}\n"
        self.sections.append(section)
        return section

    def markdown(self, header: str) -> str:
        return "# decode performance benchmarks\n\n" + header + "\n\n" + "\n".join(self.sections)


LOG_LINE = b"2026-01-01T00:00:00Z INFO worker-3 handled request /api/v1/items in 12ms\n"
"""Each line of `big_log`'s file (all of one length, so a line number gives its offset)."""


def big_log(path: Path, size: int = 200 * 1024 * 1024) -> Path:
    """A log file of `size` bytes at `path`, in whole lines (the read benchmarks' big file)."""
    block = LOG_LINE * (1024 * 1024 // len(LOG_LINE))
    with path.open("wb") as handle:
        while handle.tell() < size:
            handle.write(block)
    return path
