"""What the lesson tests share: the repository root, and `scripts/check_notebook_pairs.py` loaded by path.

`scripts/` is not a package, so the script is loaded from its file, once, when this conftest is
imported: the lesson contract needs it while tests are collected (to find the lesson folders),
before any fixture could hand it over.
"""

import importlib.util
from pathlib import Path
from types import ModuleType

ROOT = Path(__file__).resolve().parents[2]


def _load_pairs_script() -> ModuleType:
    spec = importlib.util.spec_from_file_location("check_notebook_pairs", ROOT / "scripts" / "check_notebook_pairs.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


pairs_script = _load_pairs_script()
