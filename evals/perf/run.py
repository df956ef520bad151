"""Run the performance benchmarks: `make bench`, or `python evals/perf/run.py [NAME ...]`.

Every `bench_*.py` beside this file is a benchmark module; NAME picks modules by the part after
`bench_` (`startup`). The tables go to stdout and, with the machine they were measured on, to
`evals/perf/results/perf-<UTC time>.md` (git-ignored). The machine's load is printed first and
last; the run ends with a table of every issue target (see below). Exit code 1 when a row is over
target or a target of an issue went unmeasured. Modules of `ON_REQUEST` (`notebooks`, `suite`:
minutes long) run only when named.

A new benchmark module needs one function:

    def benchmarks(ctx: Context) -> Iterable[Comparison | Figure]: ...

yielding `Comparison(name, subject, baseline, target)` for timed work (`command([...])` builds a
subject from a command line; a `Subject(label, call, inner=...)` times a function in-process),
`ratio(name, value, limit)` for a ratio it timed itself (interleaved samples, medians), and
`Figure(name, value, unit, limit)` for anything else it measured (characters, megabytes…).

The targets of an issue (the protocol every benchmark of one follows): pass `issue=N` to the
`Comparison`, `ratio()` or `Figure` that measures one, with the issue's wording as its name and
its limit as the target, and add the module's name to `perf.ISSUE_BENCHES[N]`. The run's closing
table lists each such row (measured, target, met) and each listed module that reported none.
"""

import argparse
import importlib.util
import sys
import tempfile
from dataclasses import replace
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

from perf import ISSUE_BENCHES, Comparison, Context, Report, Row, compare, judge, load_line, machine, summary

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RESULTS = HERE / "results"
DEFAULT_RUNS = 20
ON_REQUEST = ("notebooks", "suite")
"""Modules a bare run leaves out: they take minutes (every notebook, the test suite's own time)."""


def discover(names: list[str]) -> list[Path]:
    """The benchmark modules, all of them or those NAME picks."""
    modules = sorted(HERE.glob("bench_*.py"))
    if not names:
        return [path for path in modules if path.stem.removeprefix("bench_") not in ON_REQUEST]
    chosen = [path for path in modules if path.stem.removeprefix("bench_") in names]
    unknown = set(names) - {path.stem.removeprefix("bench_") for path in chosen}
    if unknown:
        known = ", ".join(path.stem.removeprefix("bench_") for path in modules)
        raise SystemExit(f"run.py: no benchmark module named {', '.join(sorted(unknown))} (have: {known})")
    return chosen


def load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    if spec is None or spec.loader is None:
        raise SystemExit(f"run.py: cannot load {path}")
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def run_module(path: Path, args: argparse.Namespace) -> list[Row]:
    rows: list[Row] = []
    with tempfile.TemporaryDirectory(prefix=f"decode-{path.stem}-") as scratch:
        ctx = Context(root=ROOT, bin_dir=Path(sys.executable).parent, tmp=Path(scratch), warmup=args.warmup)
        for item in load(path).benchmarks(ctx):
            print(f"  {item.name} …", file=sys.stderr, flush=True)
            if isinstance(item, Comparison):
                rows.append(compare(item, args.runs or item.runs or DEFAULT_RUNS, args.warmup))
            else:
                rows.append(judge(item))
    module = path.stem.removeprefix("bench_")
    return [replace(row, module=module) for row in rows]


def closing(rows: list[Row], ran: list[str], everything: bool) -> list[tuple[str, bool]]:
    """The summary table of each issue with a target among `rows` or a module listed for it, and
    whether every target of it was measured and met."""
    sections: list[tuple[str, bool]] = []
    for issue, modules in sorted(ISSUE_BENCHES.items()):
        targets = [row for row in rows if row.issue == issue]
        reported = {row.module for row in targets}
        silent = [module for module in modules if module in ran and module not in reported]
        missing = [module for module in modules if everything and module not in ON_REQUEST and module not in ran]
        if targets or silent or missing:
            met = all(row.passed for row in targets) and not silent and not missing
            sections.append((summary(issue, targets, silent, missing), met))
    return sections


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("names", nargs="*", help="benchmark modules to run (default: all)")
    parser.add_argument(
        "--runs", type=int, help=f"samples of each side (default: the module's choice, else {DEFAULT_RUNS})"
    )
    parser.add_argument("--warmup", type=int, default=2, help="untimed runs of each side first")
    parser.add_argument("--quick", action="store_true", help="3 samples, 1 warm-up: a smoke test, not a measurement")
    args = parser.parse_args()
    if args.quick:
        args.runs, args.warmup = 3, 1

    header = machine()
    print(header, flush=True)
    report = Report()
    rows: list[Row] = []
    paths = discover(args.names)
    for path in paths:
        print(f"{path.name}:", file=sys.stderr, flush=True)
        module_rows = run_module(path, args)
        rows += module_rows
        print("\n" + report.add(path.stem.removeprefix("bench_"), module_rows), flush=True)

    ran = [path.stem.removeprefix("bench_") for path in paths]
    closed = closing(rows, ran, everything=not args.names)
    for section, _ in closed:
        report.sections.append(section)
        print("\n" + section, flush=True)
    footer = f"At the end: {load_line()}"
    print(footer, flush=True)
    report.sections.append(footer + "\n")
    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"perf-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.md"
    out.write_text(report.markdown(header), encoding="utf-8")
    print(f"written to {out.relative_to(ROOT)}", file=sys.stderr)
    unmet = any(not row.passed for row in rows) or not all(met for _, met in closed)
    return 1 if unmet else 0


if __name__ == "__main__":
    sys.exit(main())
