"""The layers of decode point down: a module imports only its own layer or the ones below.

    front ends     tui/  runtime/  remote/  cli.py  __main__.py
    harness        harness/
    loop           agent/  agents/
    capabilities   tools/  permissions/  context/  memory/  skills/  (and what lessons 10–18 add)
    processes      processes/  (the local executor, running and ending programs: below tools and sandbox/)
    foundation     config/  entities/  models/  logging.py  files.py

Every import counts: at module level, inside functions, and under `TYPE_CHECKING`.
"""

import ast
from pathlib import Path

import pytest

PACKAGE = Path(__file__).resolve().parents[2] / "decode"
LAYERS = {
    "foundation": 0,
    "processes": 1,
    "capabilities": 2,
    "loop": 3,
    "harness": 4,
    "front ends": 5,
}
PLACES = {
    "config": "foundation",
    "entities": "foundation",
    "models": "foundation",
    "logging": "foundation",
    "files": "foundation",
    "__init__": "foundation",
    "processes": "processes",
    "agent": "loop",
    "agents": "loop",
    "harness": "harness",
    "tui": "front ends",
    "runtime": "front ends",
    "remote": "front ends",
    "cli": "front ends",
    "__main__": "front ends",
}
CAPABILITIES = "capabilities"  # every other package: tools, permissions, context, memory, skills…


def layer_of(module: str) -> str:
    """The layer of a dotted `decode…` module name."""
    parts = module.split(".")
    top = parts[1] if len(parts) > 1 else "__init__"
    return PLACES.get(top, CAPABILITIES)


def module_name(path: Path) -> str:
    relative = path.relative_to(PACKAGE.parent).with_suffix("")
    parts = list(relative.parts)
    if parts[-1] == "__init__" and len(parts) > 1:
        parts.pop()
    return ".".join(parts)


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every `decode` module `path` imports, with the line: module level, in functions, anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return [(line, name) for line, name in found if name == "decode" or name.startswith("decode.")]


MODULES = sorted(PACKAGE.rglob("*.py"))


def test_every_module_is_in_a_layer() -> None:
    assert MODULES, "no modules found"
    for path in MODULES:
        assert layer_of(module_name(path)) in LAYERS


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_imports_point_down(path: Path) -> None:
    importer = module_name(path)
    own = LAYERS[layer_of(importer)]
    upward = [
        f"{path.relative_to(PACKAGE.parent)}:{line} imports {name} ({layer_of(name)})"
        for line, name in imported_modules(path)
        if LAYERS[layer_of(name)] > own
    ]
    assert not upward, f"{importer} is in {layer_of(importer)}, but:\n" + "\n".join(upward)


def test_the_checker_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    source = tmp_path / "sample.py"
    source.write_text(
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from decode.tui.app import Repl\n"
        "def f():\n    import decode.agent.loop\n",
        encoding="utf-8",
    )
    assert [name for _, name in imported_modules(source)] == ["decode.tui.app", "decode.agent.loop"]
    assert layer_of("decode.tui.app") == "front ends"
    assert layer_of("decode.tools.read") == "capabilities"
    assert layer_of("decode.processes.local") == "processes"
