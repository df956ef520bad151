"""`scripts/lesson renumber`: give lessons new numbers, folders and every reference at once (ADR-0133).

    scripts/lesson renumber 16=17 17=18 18=19           rename, rewrite, print what changed
    scripts/lesson renumber --check 16=17 17=18 18=19   print what it would change; change nothing

The pairs are applied at once, so a chain never collides: each number read in the old text is mapped
once. What moves: the folders `lessons/NN-topic/` and their `NN-topic.*` files (`git mv`), and in every
file git tracks (not `tasks/`, not `docs/adr/`: they are history) these references:

- "lesson NN" in any case, a marker's `[lesson NN]`, `[/lesson NN]`, `[before lesson NN]`, and the
  numbers that follow "lessons" in a list or range ("lessons 15 and 16", "lessons 02–18");
- `N=NN` and `N="NN NN"` (make's lesson variable), `lessons/NN-`, `build/NN/`, `snapshot NN`,
  `show_diff(NN`, a moved folder's name (`NN-topic`), `lessonNN` (a notebook's scratch
  folder, a job's name), a row `| NN |`.

A number keeps its width ("lesson 6", "lesson 06"), and a whole number is read ("lesson 1" is not
"lesson 16"). Numbers in code (`snapshots[18]`, `diff(17)`) are not references it can know: the
tests that name lessons so are read by hand. The notebooks are paired again afterwards (jupytext).
"""

import argparse
import re
import shutil
import subprocess
import sys
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
HISTORY = ("tasks/", "docs/adr/")  # what was decided and done under the old numbers stays so
# This tool and its tests hold references as data: renumbering them would change what they test.
OWN_FILES = {"scripts/lesson_renumber.py", "tests/lessons/test_lesson_renumber.py"}
SKIPPED = {"uv.lock"}
JOINS = r"(?:\s*,\s*|,?\s+and\s+|\s+or\s+|\s*[–-]\s*|\s*/\s*)"
REFERENCES = [
    rf"\b[Ll]essons?\s+\d{{1,2}}(?:{JOINS}\d{{1,2}})*\b",  # lesson 06, [lesson 06], lessons 15 and 16
    r"\bN=(?:\"\d{1,2}(?:\s+\d{1,2})*\"|\d{1,2}\b)",  # make lesson-diff N=06, N="11 17"
    r"\blessons/\d\d-",
    r"\bbuild/\d\d/",  # the track's copy (`make lesson-start`)
    r"\bsnapshot(?:\s+|\",\s*\")\d\d\b",  # `scripts/lesson snapshot 16`, [..., "snapshot", "16", ...]
    r"\bshow_diff\(\d{1,2}\b",  # a notebook's `show_diff(16, "decode/x.py")`
    r"\blesson\d\d\b",  # a scratch folder's `decode-lesson16-`, a job named `lesson16`
    r"^\|\s*\d\d\s*\|",  # a row of a table: the top README's lessons
]


class RenumberError(Exception):
    """A mapping that cannot be applied: malformed, an unknown lesson, or two lessons on one number."""


@dataclass
class Plan:
    renames: list[tuple[str, str]] = field(default_factory=list)  # paths from the root, old -> new
    edits: dict[str, tuple[str, int]] = field(default_factory=dict)  # path -> new text, references changed


def folders(root: Path) -> dict[int, str]:
    """Each lesson's folder name (`16-observability`), by number."""
    manifests = sorted(root.glob("lessons/[0-9][0-9]-*/lesson.toml"))
    return {int(path.parent.name[:2]): path.parent.name for path in manifests}


def parse_mapping(pairs: list[str], known: dict[int, str]) -> dict[int, int]:
    """`["16=17", "17=18"]` as {16: 17, 17: 18}; a RenumberError names the first problem."""
    mapping: dict[int, int] = {}
    for pair in pairs:
        found = re.fullmatch(r"(\d{1,2})=(\d{1,2})", pair)
        if not found:
            raise RenumberError(f"{pair!r}: a pair is OLD=NEW, lesson numbers of one or two digits (16=17)")
        old, new = int(found[1]), int(found[2])
        if old not in known:
            raise RenumberError(f"{pair}: there is no lesson {old:02} (lessons: {', '.join(f'{n:02}' for n in known)})")
        if old in mapping or not 1 <= new <= 99:
            raise RenumberError(f"{pair}: lesson {old:02} is given twice, or {new} is not a number from 1 to 99")
        mapping[old] = new
    after: dict[int, int] = {}
    for number in known:
        target = mapping.get(number, number)
        if target in after:
            raise RenumberError(
                f"lessons {after[target]:02} and {number:02} would both be {target:02}; move the other one too"
            )
        after[target] = number
    return {old: new for old, new in mapping.items() if old != new}


def rewrite(text: str, mapping: dict[int, int], moved: list[str]) -> tuple[str, int]:
    """`text` with each reference to a moved lesson renumbered, and how many numbers changed."""
    patterns = list(REFERENCES)
    if moved:
        patterns.append(rf"(?<![\w-])(?:{'|'.join(map(re.escape, moved))})(?![\w-])")
    count = 0

    def number(found: re.Match[str]) -> str:
        nonlocal count
        old = int(found[0])
        if old not in mapping:
            return found[0]
        count += 1
        return f"{mapping[old]:0{len(found[0])}d}"

    def reference(found: re.Match[str]) -> str:
        return re.sub(r"\d+", number, found[0])

    every = re.compile("|".join(f"(?:{pattern})" for pattern in patterns), re.MULTILINE)
    return every.sub(reference, text), count


def tracked(root: Path) -> list[str]:
    """The files git tracks under `root`, as paths from it."""
    done = subprocess.run(["git", "ls-files", "-z"], cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise RenumberError(f"{root}: not a git work tree ({done.stderr.strip()})")
    return [path for path in done.stdout.split("\0") if path]


def plan(mapping: dict[int, int], root: Path = ROOT) -> Plan:
    """What renumbering by `mapping` changes under `root`, nothing written."""
    known = folders(root)
    moved = [known[old] for old in mapping]
    result = Plan()
    for path in tracked(root):
        if path.startswith(HISTORY) or path in OWN_FILES | SKIPPED or not (root / path).is_file():
            continue
        try:
            text = (root / path).read_text(encoding="utf-8")
        except UnicodeDecodeError:
            continue
        new, count = rewrite(text, mapping, moved)
        if count:
            result.edits[path] = (new, count)
    for old, new in sorted(mapping.items()):
        name = known[old]
        renamed = f"{new:02}{name[2:]}"
        result.renames.append((f"lessons/{name}", f"lessons/{renamed}"))
        for file in sorted((root / "lessons" / name).glob(f"{name}.*")):
            result.renames.append((f"lessons/{name}/{file.name}", f"lessons/{renamed}/{renamed}{file.suffix}"))
    return result


def apply(result: Plan, root: Path = ROOT) -> None:
    """Write the edits, then move the folders (through a temporary name, so a chain never meets itself)
    and their files, with git; then pair the notebooks again."""
    for path, (text, _) in result.edits.items():
        (root / path).write_text(text, encoding="utf-8")
    moved = [(old, new) for old, new in result.renames if old.count("/") == 1]  # the folders
    for old, _ in moved:
        _git(root, "mv", old, f"{old}.renumbering")
    for old, new in moved:
        _git(root, "mv", f"{old}.renumbering", new)
    for old, new in result.renames:
        if old.count("/") == 2:  # a folder's own files, where its move took them
            _git(root, "mv", _moved(old, moved), new)
    jupytext = shutil.which("jupytext", path=str(Path(sys.executable).parent)) or shutil.which("jupytext")
    for path in sorted({_moved(path, result.renames) for path in result.edits} | {new for _, new in result.renames}):
        if path.startswith("lessons/") and path.endswith(".py") and (root / path).with_suffix(".ipynb").exists():
            if jupytext is None:
                raise RenumberError(f"{path}: jupytext is not installed, so its notebook was not paired again")
            subprocess.run([jupytext, "--quiet", "--to", "ipynb", "--update", path], cwd=root, check=True)


def _moved(path: str, renames: list[tuple[str, str]]) -> str:
    """Where `path` is once the folders and files of `renames` have moved."""
    for old, new in renames:
        if path == old or path.startswith(f"{old}/"):
            path = new + path[len(old) :]
    return path


def _git(root: Path, *args: str) -> None:
    done = subprocess.run(["git", *args], cwd=root, capture_output=True, text=True)
    if done.returncode:
        raise RenumberError(f"git {' '.join(args)}: {done.stderr.strip()}")


def report(result: Plan, check: bool) -> list[str]:
    """One line per change, as the verb prints them."""
    verb = "would rename" if check else "renamed"
    lines = [f"{verb} {old} -> {new}" for old, new in result.renames]
    changed = "would change" if check else "changed"
    lines += [f"{path}: {changed} {count} reference(s)" for path, (_, count) in sorted(result.edits.items())]
    return lines


def add_commands(commands: "argparse._SubParsersAction[argparse.ArgumentParser]") -> None:
    """The `renumber` verb on `scripts/lesson`'s parser."""
    verb = commands.add_parser("renumber", help="give lessons new numbers (OLD=NEW ...), folders and references")
    verb.add_argument("pairs", nargs="+", metavar="OLD=NEW")
    verb.add_argument("--check", action="store_true", help="print what would change; change nothing")
    verb.add_argument("--root", type=Path, default=ROOT, help=argparse.SUPPRESS)  # the tests' scratch repository


def run(arguments: argparse.Namespace) -> int | None:
    """Run the verb if `arguments` names it: its exit code (2 for a bad mapping); None for another verb."""
    if arguments.command != "renumber":
        return None
    root = arguments.root.resolve()
    try:
        mapping = parse_mapping(arguments.pairs, folders(root))
        result = plan(mapping, root)
        for line in report(result, arguments.check):
            print(line)
        if not arguments.check:
            apply(result, root)
    except RenumberError as exc:
        print(f"scripts/lesson renumber: {exc}", file=sys.stderr)
        return 2
    return 0
