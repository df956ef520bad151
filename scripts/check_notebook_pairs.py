"""Check that each lesson notebook's two files hold the same cells.

A lesson notebook is a pair: `NN-topic.py` (jupytext py:percent, what reviewers read) and
`NN-topic.ipynb` (with outputs, what nbval runs). They are compared by content, never by
modification time (a fresh clone resets those): the py:percent text is regenerated from the
`.ipynb` with jupytext and the project's jupytext configuration, and must equal the `.py` exactly.

    python scripts/check_notebook_pairs.py              # every pair under lessons/
    python scripts/check_notebook_pairs.py PATH...      # the pairs of these files or lesson folders
    python scripts/check_notebook_pairs.py --fix        # rewrite each stale .py from its .ipynb

Exit codes: 0 every pair in sync, 1 a pair is out of sync or incomplete, 2 usage error.
`tests/lessons/` imports this file and reuses `find_pairs()` and `pair_problem()`.
"""

import argparse
import difflib
import sys
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
NOTEBOOK_SUFFIXES = (".py", ".ipynb")


@dataclass(frozen=True)
class Pair:
    """The two files of one lesson notebook (either may be missing)."""

    py: Path
    ipynb: Path

    @property
    def name(self) -> str:
        return str(self.py.with_suffix("").relative_to(ROOT)) if self.py.is_relative_to(ROOT) else str(self.py)


def lesson_folders(lessons: Path = LESSONS) -> list[Path]:
    """The lesson folders: visible directories directly under `lessons/` (caches excluded)."""
    if not lessons.is_dir():
        return []
    return sorted(path for path in lessons.iterdir() if path.is_dir() and not path.name.startswith((".", "_")))


def _is_notebook(path: Path) -> bool:
    """A lesson's notebook is `NN-topic.py`/`.ipynb`, or any `.ipynb`; other `.py` files
    (`exercises.py`, `solutions.py`) are plain modules."""
    return path.suffix == ".ipynb" or path.stem == path.parent.name or path.with_suffix(".ipynb").is_file()


def _pairs_in(folder: Path) -> set[Pair]:
    stems = {path.stem for path in folder.iterdir() if path.is_file() and path.suffix in NOTEBOOK_SUFFIXES}
    return {
        Pair(folder / f"{stem}.py", folder / f"{stem}.ipynb") for stem in stems if _is_notebook(folder / f"{stem}.py")
    }


def find_pairs(paths: Iterable[Path] = ()) -> list[Pair]:
    """The pairs to check: all of them, or those of the given files and lesson folders.

    Files outside a lesson folder (`lessons/conftest.py`, a README) are not notebooks and are skipped.
    """
    paths = [Path(path).resolve() for path in paths]
    folders = lesson_folders()
    if not paths:
        return sorted(set().union(*(_pairs_in(folder) for folder in folders)), key=lambda pair: pair.py)
    pairs: set[Pair] = set()
    for path in paths:
        if path.is_dir():
            pairs |= _pairs_in(path)
        elif path.suffix in NOTEBOOK_SUFFIXES and path.parent in folders and _is_notebook(path):
            pairs.add(Pair(path.with_suffix(".py"), path.with_suffix(".ipynb")))
    return sorted(pairs, key=lambda pair: pair.py)


def py_text_from_ipynb(ipynb: Path) -> str:
    """The py:percent text jupytext writes for this notebook (the `.py` its pairing would produce)."""
    import jupytext
    from jupytext.config import load_jupytext_config

    config = load_jupytext_config(str(ipynb))
    notebook = jupytext.read(ipynb)
    return jupytext.writes(notebook, fmt="py:percent", config=config)


def pair_problem(pair: Pair) -> str | None:
    """None when the pair is in sync, else what is wrong (with a unified diff of the `.py`)."""
    if not pair.ipynb.exists():
        return (
            f"{pair.name}: {pair.ipynb.name} is missing; create and execute it:\n"
            f"  jupytext --to ipynb {pair.py.name} && jupyter nbconvert --to notebook --execute --inplace "
            f"{pair.ipynb.name}"
        )
    if not pair.py.exists():
        return f"{pair.name}: {pair.py.name} is missing; run scripts/check_notebook_pairs.py --fix"
    committed = pair.py.read_text(encoding="utf-8")
    expected = py_text_from_ipynb(pair.ipynb)
    if committed == expected:
        return None
    diff = difflib.unified_diff(
        committed.splitlines(keepends=True),
        expected.splitlines(keepends=True),
        fromfile=f"{pair.py.name} (as it is)",
        tofile=f"{pair.py.name} (as {pair.ipynb.name} says)",
    )
    return (
        f"{pair.name}: {pair.py.name} and {pair.ipynb.name} differ.\n"
        f"  Edited the .py? jupytext --update --to ipynb {pair.py.name} && "
        f"jupyter nbconvert --to notebook --execute --inplace {pair.ipynb.name}\n"
        f"  Edited the .ipynb? scripts/check_notebook_pairs.py --fix\n" + "".join(diff)
    )


def fix(pair: Pair, *, force: bool = False) -> str:
    """Rewrite the `.py` from the `.ipynb`; refuse (unless forced) when the `.py` is the newer file."""
    if not pair.ipynb.exists():
        return f"{pair.name}: not fixed: {pair.ipynb.name} is missing (only the .py exists)"
    if not force and pair.py.exists() and pair.py.stat().st_mtime > pair.ipynb.stat().st_mtime:
        # The edit was probably made in the .py: rewriting it would throw that edit away.
        return (
            f"{pair.name}: not fixed: {pair.py.name} is newer than {pair.ipynb.name}, so the change is "
            f"probably in the .py. Update the notebook from it (jupytext --update --to ipynb), "
            f"or pass --force to overwrite the .py."
        )
    pair.py.write_text(py_text_from_ipynb(pair.ipynb), encoding="utf-8")
    return f"{pair.name}: rewrote {pair.py.name} from {pair.ipynb.name}"


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description="Check that lesson notebooks' .py and .ipynb hold the same cells.")
    parser.add_argument("paths", nargs="*", type=Path, help="notebook files or lesson folders (default: all)")
    parser.add_argument("--fix", action="store_true", help="rewrite each out-of-sync .py from its .ipynb")
    parser.add_argument("--force", action="store_true", help="with --fix, rewrite even a .py newer than its .ipynb")
    args = parser.parse_args(argv)

    pairs = find_pairs(args.paths)
    problems = {pair: problem for pair in pairs if (problem := pair_problem(pair)) is not None}
    if args.fix:
        for pair in problems:
            print(fix(pair, force=args.force))
        problems = {pair: problem for pair in problems if (problem := pair_problem(pair)) is not None}
    for problem in problems.values():
        print(problem, file=sys.stderr)
    if problems:
        names = ", ".join(pair.name for pair in problems)
        print(f"{len(problems)} of {len(pairs)} notebook pairs out of sync: {names}", file=sys.stderr)
        return 1
    print(f"{len(pairs)} notebook pairs in sync")
    return 0


if __name__ == "__main__":
    sys.exit(main())
