"""The lessons' manifests for `scripts/lesson`: what each `lessons/NN-topic/lesson.toml` says it adds.

- `introduces`: files of the package the lesson writes (each file of `decode/`: one lesson);
- `extends`: files of an earlier lesson it adds code to (with markers, ADR-0003);
- `builds`: what it adds beside the package, a file or a folder ending in `/` (its files), in the
  lesson's snapshot and diff as they are (lesson 24: `evals/`, ADR-0122).
"""

import tomllib
from dataclasses import dataclass, field
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
PACKAGE = "decode"


@dataclass
class Lesson:
    number: int
    folder: Path
    introduces: list[str] = field(default_factory=list)
    extends: list[str] = field(default_factory=list)
    builds: list[str] = field(default_factory=list)  # files and folders (`evals/benchmark/`) outside decode/


# What a `builds` folder holds that no lesson builds: caches a run leaves behind.
NOT_BUILT = {"__pycache__", ".pytest_cache", ".ruff_cache"}


def lessons() -> dict[int, Lesson]:
    """Every lesson folder `lessons/NN-topic/` with its manifest, by number."""
    found: dict[int, Lesson] = {}
    for manifest in sorted(LESSONS.glob("[0-9][0-9]-*/lesson.toml")):
        number = int(manifest.parent.name[:2])
        data = tomllib.loads(manifest.read_text(encoding="utf-8"))
        lists = [list(data.get(key, [])) for key in ("introduces", "extends", "builds")]
        found[number] = Lesson(number, manifest.parent, *lists)
    return found


def built_files(lesson: Lesson) -> list[str]:
    """The files `lesson` builds beside the package: its `builds`, each folder read as the files in it."""
    files: list[str] = []
    for entry in lesson.builds:
        if not entry.endswith("/"):
            files.append(entry)
            continue
        for path in sorted((ROOT / entry).rglob("*")):
            if path.is_file() and not NOT_BUILT & set(path.relative_to(ROOT).parts):
                files.append(path.relative_to(ROOT).as_posix())
    return files


def owners(known: dict[int, Lesson]) -> dict[str, int]:
    """Each file of a snapshot (a path from the repository root) with the lesson that introduces or builds it."""
    return {path: lesson.number for lesson in known.values() for path in [*lesson.introduces, *built_files(lesson)]}


def build_problems(known: dict[int, Lesson]) -> list[str]:
    """A `builds` entry inside the package, missing, or a file two lessons claim."""
    problems: list[str] = []
    claimed: dict[str, list[int]] = {}
    for lesson in known.values():
        for entry in lesson.builds:
            if entry.split("/")[0] == PACKAGE or not (ROOT / entry).exists():
                problems.append(
                    f"lessons/{lesson.folder.name}: builds {entry}, not an existing path outside {PACKAGE}/"
                )
        for path in [*lesson.introduces, *built_files(lesson)]:
            claimed.setdefault(path, []).append(lesson.number)
    for path, numbers in sorted(claimed.items()):
        if len(numbers) > 1:
            problems.append(f"{path}: named by lessons {', '.join(f'{n:02}' for n in numbers)}; one lesson owns a file")
    return problems
