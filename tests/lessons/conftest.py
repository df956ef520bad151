"""What the lesson tests share: the repository root, and the two scripts they test, loaded by path.

`scripts/` is not a package, so `scripts/check_notebook_pairs.py` and `scripts/lesson` are loaded
from their files, once, when this conftest is imported: the lesson contract needs them while tests
are collected (to find the lesson folders and the lessons' numbers), before any fixture could hand
them over.
"""

import importlib.machinery
import importlib.util
from pathlib import Path
from types import ModuleType

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
