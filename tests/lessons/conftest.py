"""What the lesson tests share: the repository root, the two scripts they test (loaded by path), and a
lesson's snapshot to run `decode` from (`snapshot`, `decode`).

`scripts/` is not a package, so `scripts/check_notebook_pairs.py` and `scripts/lesson` are loaded
from their files, once, when this conftest is imported: the lesson contract needs them while tests
are collected (to find the lesson folders and the lessons' numbers), before any fixture could hand
them over.
"""

import importlib.machinery
import importlib.util
import os
import subprocess
import sys
from collections.abc import Callable
from pathlib import Path
from types import ModuleType

import pytest

ROOT = Path(__file__).resolve().parents[2]


def _load_script(name: str, path: Path) -> ModuleType:
    loader = importlib.machinery.SourceFileLoader(name, str(path))  # `scripts/lesson` has no .py suffix
    spec = importlib.util.spec_from_loader(name, loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


pairs_script = _load_script("check_notebook_pairs", ROOT / "scripts" / "check_notebook_pairs.py")
lesson_script = _load_script("lesson_script", ROOT / "scripts" / "lesson")


Snapshot = Callable[[int], Path]


@pytest.fixture(scope="module")
def snapshot(tmp_path_factory: pytest.TempPathFactory) -> Snapshot:
    """Lesson NN's package, written once for this module when first asked for."""
    written: dict[int, Path] = {}

    def at(lesson: int) -> Path:
        if lesson not in written:
            written[lesson] = tmp_path_factory.mktemp(f"lesson{lesson:02}")
            lesson_script.write_snapshot(lesson, written[lesson])
        return written[lesson]

    return at


def decode(package: Path, project: Path, *args: str) -> subprocess.CompletedProcess[str]:
    """`decode ARGS` with only `package` (a snapshot) on the path, in `project`."""
    env = {**os.environ, "PYTHONPATH": str(package), "PYTHONDONTWRITEBYTECODE": "1"}
    argv = [sys.executable, "-P", "-m", "decode", *args]
    return subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=120)
