"""Run the performance benchmarks: `make bench`, or `python evals/perf/run.py [NAME ...]`.

Every `bench_*.py` beside this file is a benchmark module; NAME picks modules by the part after
`bench_` (`startup`). The tables go to stdout and, with the machine they were measured on, to
`evals/perf/results/perf-<UTC time>.md` (git-ignored). Exit code 1 when a row is over target.

A new benchmark module needs one function:

    def benchmarks(ctx: Context) -> Iterable[Comparison | Figure]: ...

yielding `Comparison(name, subject, baseline, target)` for timed work (`command([...])` builds a
subject from a command line; a `Subject(label, call, inner=...)` times a function in-process) and
`Figure(name, value, unit, limit)` for anything else it measured (characters, megabytes…).
"""

import argparse
import importlib.util
import sys
import tempfile
from datetime import UTC, datetime
from pathlib import Path
from types import ModuleType

from perf import Comparison, Context, Report, Row, compare, judge, machine

HERE = Path(__file__).resolve().parent
ROOT = HERE.parent.parent
RESULTS = HERE / "results"
DEFAULT_RUNS = 20


def discover(names: list[str]) -> list[Path]:
    """The benchmark modules, all of them or those NAME picks."""
    modules = sorted(HERE.glob("bench_*.py"))
    if not names:
        return modules
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
    rows = []
    with tempfile.TemporaryDirectory(prefix=f"decode-{path.stem}-") as scratch:
        ctx = Context(root=ROOT, bin_dir=Path(sys.executable).parent, tmp=Path(scratch), warmup=args.warmup)
        for item in load(path).benchmarks(ctx):
            print(f"  {item.name} …", file=sys.stderr, flush=True)
            if isinstance(item, Comparison):
                rows.append(compare(item, args.runs or item.runs or DEFAULT_RUNS, args.warmup))
            else:
                rows.append(judge(item))
    return rows


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

    print(machine(), file=sys.stderr)
    report = Report()
    over = 0
    for path in discover(args.names):
        print(f"{path.name}:", file=sys.stderr, flush=True)
        rows = run_module(path, args)
        over += sum(not row.passed for row in rows)
        print("\n" + report.add(path.stem.removeprefix("bench_"), rows), flush=True)

    RESULTS.mkdir(exist_ok=True)
    out = RESULTS / f"perf-{datetime.now(UTC).strftime('%Y%m%dT%H%M%SZ')}.md"
    out.write_text(report.markdown(), encoding="utf-8")
    print(f"written to {out.relative_to(ROOT)}", file=sys.stderr)
    return 1 if over else 0


if __name__ == "__main__":
    sys.exit(main())
