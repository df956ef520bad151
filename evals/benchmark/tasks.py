"""Benchmark tasks: one folder each under `evals/tasks/`, in the Harbor / Terminal-Bench 2 layout.

    task = load_task(TASKS_ROOT / "fix-off-by-one")
    easy = load_tasks(difficulties=["easy"])

A folder holds `task.toml` (metadata and timeouts), `instruction.md` (what the user types),
`environment/` (a `Dockerfile`, and decode's own `seed/` and optional `setup.sh`), `tests/test.sh`
(the verifier) and `solution/solve.sh` (a reference solution).

A task without `seed/` is in Terminal-Bench 2 / Harbor's own layout: its Dockerfile's `COPY`
lines make the workspace (`dockerfile.py`), and its scripts may name the container's paths
(`/app`, `/tests`, `/logs/verifier`), which the grader maps onto this machine's folders. Only
`[metadata]`'s values that are given are checked; a timeout left out takes Harbor's default.
"""

import math
import tomllib
from collections.abc import Iterable
from dataclasses import dataclass
from pathlib import Path

from evals.benchmark.dockerfile import DockerfileError, read_dockerfile

TASKS_ROOT = Path(__file__).resolve().parent.parent / "tasks"
DIFFICULTIES = ("easy", "medium", "hard")
UNKNOWN = "unknown"
"""Harbor's difficulty (and decode's category) of a task whose `task.toml` names none."""
DEFAULT_TIMEOUTS_S = {"agent": 600.0, "verifier": 600.0}
"""Harbor's verifier default; its agent has none, decode gives it the verifier's."""


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
    workdir: str = "/app"
    """The image's working directory: where the agent starts, the workspace's path in a container."""

    @property
    def seed(self) -> Path:
        return self.path / "environment" / "seed"

    @property
    def harbor_layout(self) -> bool:
        """No `seed/`: the Dockerfile makes the workspace and the scripts may name `/app`, `/tests`…"""
        return not self.seed.is_dir()

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
    metadata = _table(data, "metadata", toml_path, required=False)
    difficulty = metadata.get("difficulty", UNKNOWN)
    if difficulty not in (*DIFFICULTIES, UNKNOWN):
        raise TaskError(
            f"{toml_path}: [metadata] difficulty must be one of {', '.join(DIFFICULTIES)}, not {difficulty!r}"
        )
    category = metadata.get("category", UNKNOWN)
    if not isinstance(category, str) or not category:
        raise TaskError(f"{toml_path}: [metadata] category must be a non-empty string")
    tags = metadata.get("tags", [])
    if not isinstance(tags, list) or not all(isinstance(tag, str) for tag in tags):
        raise TaskError(f"{toml_path}: [metadata] tags must be a list of strings")
    instruction_path = path / "instruction.md"
    if not instruction_path.is_file():
        raise TaskError(f"{instruction_path}: missing")
    for required in (path / "tests" / "test.sh", path / "environment"):
        if not required.exists():
            raise TaskError(f"{required}: missing")
    try:
        build = read_dockerfile(path / "environment")
    except (DockerfileError, UnicodeDecodeError, ValueError) as exc:  # ValueError: a bad JSON-form line
        raise TaskError(f"{path / 'environment' / 'Dockerfile'}: {exc}") from exc
    return Task(
        name=path.name,
        path=path,
        difficulty=difficulty,
        category=category,
        tags=tuple(tags),
        instruction=_text(instruction_path),
        agent_timeout_s=_seconds(data, "agent", toml_path),
        verifier_timeout_s=_seconds(data, "verifier", toml_path),
        workdir=_workdir(data, build.workdir, toml_path),
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


def _table(data: dict, name: str, toml_path: Path, required: bool = True) -> dict:
    table = data.get(name, None if required else {})
    if not isinstance(table, dict):
        raise TaskError(f"{toml_path}: missing the [{name}] table")
    return table


def _seconds(data: dict, name: str, toml_path: Path) -> float:
    value = _table(data, name, toml_path, required=False).get("timeout_sec", DEFAULT_TIMEOUTS_S[name])
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 < value < math.inf:  # nan too
        raise TaskError(f"{toml_path}: [{name}] timeout_sec must be a positive number, not {value!r}")
    return float(value)


def _workdir(data: dict, from_dockerfile: str, toml_path: Path) -> str:
    """`[environment] workdir` (Harbor's override of the image's WORKDIR), else the Dockerfile's."""
    value = _table(data, "environment", toml_path, required=False).get("workdir", from_dockerfile)
    if not isinstance(value, str) or not value.startswith("/") or value == "/":
        raise TaskError(f"{toml_path}: [environment] workdir must be an absolute folder, not {value!r}")
    return value


def _text(path: Path) -> str:
    try:
        return path.read_text(encoding="utf-8").strip()
    except UnicodeDecodeError as exc:
        raise TaskError(f"{path}: not UTF-8 text ({exc.reason} at byte {exc.start})") from exc
