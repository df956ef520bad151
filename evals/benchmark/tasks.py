"""Benchmark tasks: one folder each under `evals/tasks/`, in the Harbor / Terminal-Bench 2 layout.

    task = load_task(TASKS_ROOT / "fix-off-by-one")
    easy = load_tasks(difficulties=["easy"])

A folder holds `task.toml` (metadata and timeouts), `instruction.md` (what the user types),
`environment/` (`seed/` and an optional `setup.sh`), `tests/test.sh` (the verifier) and
`solution/solve.sh` (a reference solution).
"""

import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

TASKS_ROOT = Path(__file__).resolve().parent.parent / "tasks"
DIFFICULTIES = ("easy", "medium", "hard")


class TaskError(ValueError):
    """A task folder that cannot be used; the message names the file and what is wrong."""


@dataclass(frozen=True)
class Task:
    """One benchmark task, as read from its folder."""

    name: str
    path: Path
    difficulty: str
    category: str
    tags: tuple[str, ...]
    instruction: str
    agent_timeout_s: float
    verifier_timeout_s: float

    @property
    def seed(self) -> Path:
        return self.path / "environment" / "seed"

    @property
    def setup_script(self) -> Path:
        return self.path / "environment" / "setup.sh"

    @property
    def tests_dir(self) -> Path:
        return self.path / "tests"

    @property
    def solution_script(self) -> Path:
        return self.path / "solution" / "solve.sh"


def load_task(path: Path) -> Task:
    """The task in folder `path`; `TaskError` naming the file when it is malformed."""
    path = Path(path).resolve()
    toml_path = path / "task.toml"
    try:
        data = tomllib.loads(toml_path.read_text(encoding="utf-8"))
    except FileNotFoundError as exc:
        raise TaskError(f"{toml_path}: missing (is {path.name} a task folder?)") from exc
    except tomllib.TOMLDecodeError as exc:
        raise TaskError(f"{toml_path}: not valid TOML: {exc}") from exc
    except UnicodeDecodeError as exc:
        raise TaskError(f"{toml_path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
    metadata = _table(data, "metadata", toml_path)
    difficulty = metadata.get("difficulty")
    if difficulty not in DIFFICULTIES:
        raise TaskError(
            f"{toml_path}: [metadata] difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}"
        )
    category = metadata.get("category")
    if not isinstance(category, str) or not category:
        raise TaskError(f"{toml_path}: [metadata] category must be a non-empty string")
    tags = metadata.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise TaskError(f"{toml_path}: [metadata] tags must be a list of strings")
    instruction_path = path / "instruction.md"
    if not instruction_path.is_file():
        raise TaskError(f"{instruction_path}: missing")
    for required in (path / "tests" / "test.sh", path / "environment" / "seed"):
        if not required.exists():
            raise TaskError(f"{required}: missing")
    return Task(
        name=path.name,
        path=path,
        difficulty=difficulty,
        category=category,
        tags=tuple(tags),
        instruction=_text(instruction_path),
        agent_timeout_s=_seconds(data, "agent", toml_path),
        verifier_timeout_s=_seconds(data, "verifier", toml_path),
    )


def load_tasks(
    root: Path = TASKS_ROOT, names: Iterable[str] | None = None, difficulties: Iterable[str] | None = None
) -> list[Task]:
    """The tasks under `root`, sorted by name; only `names` / `difficulties` when given.

    An unknown name or difficulty is a `TaskError` that names it.
    """
    root = Path(root)
    folders = sorted(p for p in root.iterdir() if (p / "task.toml").exists()) if root.is_dir() else []
    by_name = {folder.name: folder for folder in folders}
    if names is not None:
        wanted = list(dict.fromkeys(names))
        unknown = [name for name in wanted if name not in by_name]
        if unknown:
            raise TaskError(f"unknown task(s): {', '.join(unknown)} (in {root}: {', '.join(by_name) or 'none'})")
        folders = [by_name[name] for name in sorted(wanted)]
    tasks = [load_task(folder) for folder in folders]
    if difficulties is not None:
        levels = set(difficulties)
        if bad := sorted(levels - set(DIFFICULTIES)):
            raise TaskError(f"unknown difficulty: {', '.join(bad)} (one of {', '.join(DIFFICULTIES)})")
        tasks = [task for task in tasks if task.difficulty in levels]
    return tasks


def _table(data: dict, name: str, toml_path: Path) -> dict:
    table = data.get(name)
    if not isinstance(table, dict):
        raise TaskError(f"{toml_path}: missing the [{name}] table")
    return table


def _seconds(data: dict, name: str, toml_path: Path) -> float:
    value = _table(data, name, toml_path).get("timeout_sec")
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:  # nan too
        raise TaskError(f"{toml_path}: [{name}] timeout_sec must be a positive number, not {value!r}")
    return float(value)


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError as exc:
        raise TaskError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
