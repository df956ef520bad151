"""Packages that only re-export names load each name on first use, and give what a full import gives.

The checks about the openai SDK run in fresh interpreters (the first import is what they are about):
one imports `openai.types` and every package under it the ordinary way, one with decode's finders,
and every name the first one found resolves in the second to the same object (type, module, name).
"""

import json
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from decode.models.lazy_reexports import FUTURE, reexports

DESCRIBE = """
import importlib, json, pkgutil, sys, types

def describe(value):
    if isinstance(value, types.ModuleType):
        return ["module", value.__name__]
    module, qualname = getattr(value, "__module__", None), getattr(value, "__qualname__", None)
    if isinstance(module, str) and isinstance(qualname, str):
        return [type(value).__name__, module, qualname]
    return [type(value).__name__, repr(value)]
"""


def _run(code: str, *args: str) -> dict:
    """Run `code` in a new Python; it prints one JSON object, returned here."""
    done = subprocess.run(
        [sys.executable, "-c", textwrap.dedent(code), *args],
        capture_output=True,
        text=True,
        check=False,
        timeout=240,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    return json.loads(done.stdout.splitlines()[-1])


def test_a_file_of_relative_imports_maps_each_name_to_its_submodule() -> None:
    source = b"from __future__ import annotations\n\nfrom .batch import Batch as Batch\nfrom .chat import A, B\n"
    assert reexports(source) == {"annotations": FUTURE, "Batch": "batch", "A": "chat", "B": "chat"}


@pytest.mark.parametrize(
    "source",
    [
        "from .batch import Batch as Other\n",  # a rename
        "from .batch import *\n",
        "from ..shared import Metadata\n",  # not one of its own submodules
        "from . import batch\n",
        "import os\n",
        "from .batch import Batch\nBatch.x = 1\n",  # any other statement: code to run
        '"""A docstring."""\nfrom .batch import Batch\n',
        "if True:\n    from .batch import Batch\n",
    ],
)
def test_a_file_that_does_anything_else_is_not_deferred(source: str) -> None:
    assert reexports(source.encode()) is None


def test_a_later_import_of_a_name_wins_as_when_the_file_runs() -> None:
    assert reexports(b"from .a import X\nfrom .b import X\n") == {"X": "b"}


@pytest.mark.parametrize("root", ["openai.types", "anthropic.types"])
def test_every_name_of_the_types_packages_is_the_object_a_full_import_gives(tmp_path: Path, root: str) -> None:
    full = tmp_path / "full.json"
    _run(
        DESCRIBE
        + textwrap.dedent(
            f"""
        root = importlib.import_module({root!r})
        packages = [{root!r}] + [m.name for m in pkgutil.walk_packages(root.__path__, {root!r} + ".") if m.ispkg]
        for name in packages:
            importlib.import_module(name)
        found = {{
            name: {{key: describe(value) for key, value in vars(sys.modules[name]).items() if not key.startswith("__")}}
            for name in packages
        }}
        json.dump(found, open(sys.argv[1], "w"))
        print(json.dumps({{"packages": len(packages)}}))
        """
        ),
        str(full),
    )
    lazy = _run(
        DESCRIBE
        + textwrap.dedent(
            """
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        expected = json.load(open(sys.argv[1]))
        found = {
            name: {key: describe(getattr(importlib.import_module(name), key)) for key in names}
            for name, names in expected.items()
        }
        print(json.dumps(found))
        """
        ),
        str(full),
    )
    expected = json.loads(full.read_text())
    assert len(expected) > 10
    assert sum(map(len, expected.values())) > 1000
    assert lazy == expected


def test_openai_imports_the_types_of_the_apis_it_is_asked_about_only() -> None:
    found = _run(
        """
        import json, sys
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        import openai
        from openai.types import chat
        loaded = lambda *names: sorted(name for name in names if name in sys.modules)
        before = loaded("openai.types.batch", "openai.types.graders", "openai.types.evals", "openai.types.realtime")
        batch = openai.types.Batch
        print(json.dumps({
            "before": before,
            "after": loaded("openai.types.batch"),
            "chat": chat.__name__,
            "batch": [batch.__module__, batch.__name__],
            "kept": "Batch" in vars(openai.types),
            "listed": {"Batch", "chat", "ChatModel"} <= set(dir(openai.types)),
            "unknown": hasattr(openai.types, "NoSuchName"),
        }))
        """
    )
    assert found == {
        "before": [],
        "after": ["openai.types.batch"],
        "chat": "openai.types.chat",
        "batch": ["openai.types.batch", "Batch"],
        "kept": True,
        "listed": True,
        "unknown": False,
    }


def _package(root: Path, name: str, init: str) -> None:
    """A package `name` whose submodule `part` notes in `sys.ran` that it ran."""
    (root / name).mkdir()
    (root / name / "__init__.py").write_text(init)
    (root / name / "part.py").write_text("import sys\nsys.ran.append(__name__)\nValue = 42\n")


def test_a_package_that_does_more_than_re_export_is_imported_whole(tmp_path: Path) -> None:
    _package(tmp_path, "pure", "from .part import Value as Value\n")
    _package(tmp_path, "busy", "from .part import Value as Value\nDOUBLED = Value * 2\n")
    found = _run(
        f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        sys.ran = []
        from decode.models import lazy_reexports
        from decode.models.deferred_imports import defer_imports

        lazy_reexports.LAZY = ("pure", "busy")
        defer_imports()
        import pure, busy
        ran = list(sys.ran)
        print(json.dumps({{"ran": ran, "doubled": busy.DOUBLED, "value": pure.Value, "then": sys.ran}}))
        """
    )
    assert found == {"ran": ["busy.part"], "doubled": 84, "value": 42, "then": ["busy.part", "pure.part"]}


def test_a_submodule_that_fails_to_import_raises_its_own_error(tmp_path: Path) -> None:
    (tmp_path / "broken").mkdir()
    (tmp_path / "broken" / "__init__.py").write_text("from .part import Value as Value\n")
    (tmp_path / "broken" / "part.py").write_text("import no_such_module_anywhere\nValue = 1\n")
    found = _run(
        f"""
        import json, sys
        sys.path.insert(0, {str(tmp_path)!r})
        from decode.models import lazy_reexports
        from decode.models.deferred_imports import defer_imports

        lazy_reexports.LAZY = ("broken",)
        defer_imports()
        import broken
        try:
            broken.Value
        except ModuleNotFoundError as error:
            print(json.dumps({{"missing": error.name}}))
        """
    )
    assert found == {"missing": "no_such_module_anywhere"}
