"""The layers of decode point down: a module imports only its own layer or the ones below.

    front ends     tui/  runtime/  commands/  remote/  cli.py  __main__.py
    harness        harness/
    loop           agent/  agents/
    capabilities   tools/  permissions/  context/  memory/  skills/  (and what lessons 13–24 add)
    processes      processes/  (the local executor, running and ending programs: below tools and sandbox/)
    foundation     config/  entities/  models/  logging.py  files.py

Every import counts: at module level, inside functions, and under `TYPE_CHECKING`.

Only the front ends that talk to a terminal (`TERMINAL`) print, prompt, import click or Rich, or
read the working directory; everything below returns data and raises (ADR-0115). A room that sits
below some of its neighbours (`BELOW`) imports none of them; nothing imports a subcommand's module.
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
    "commands": "front ends",
    "remote": "front ends",
    "cli": "front ends",
    "__main__": "front ends",
}
CAPABILITIES = "capabilities"  # every other package: tools, permissions, context, memory, skills…
TERMINAL = {"cli", "__main__", "commands", "tui", "runtime"}
"""The front ends with a terminal (remote/ is a front end too, but runs in a container, unattended)."""
TERMINAL_LIBRARIES = {"click", "rich"}
BELOW = {"processes": {"tools", "sandbox", "permissions", "mcp"}}
"""The process machinery sits below the packages that run processes: it imports none of them."""


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


def top_package(module: str) -> str:
    """`tools` for `decode.tools.read`, `cli` for `decode.cli`."""
    parts = module.split(".")
    return parts[1] if len(parts) > 1 else "__init__"


def all_imports(path: Path) -> list[tuple[int, str]]:
    """Every module `path` imports, with the line: module level, in functions, anywhere."""
    tree = ast.parse(path.read_text(encoding="utf-8"), filename=str(path))
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [(node.lineno, alias.name) for alias in node.names]
        elif isinstance(node, ast.ImportFrom) and node.module and node.level == 0:
            found.append((node.lineno, node.module))
    return found


def imported_modules(path: Path) -> list[tuple[int, str]]:
    """Every `decode` module `path` imports, with the line."""
    return [(line, name) for line, name in all_imports(path) if name == "decode" or name.startswith("decode.")]


def terminal_uses(path: Path) -> list[str]:
    """What in `path` only a terminal front end may do: import click or Rich, print, prompt, read the cwd."""
    found = [(line, f"imports {name}") for line, name in all_imports(path) if name.split(".")[0] in TERMINAL_LIBRARIES]
    for node in ast.walk(ast.parse(path.read_text(encoding="utf-8"), filename=str(path))):
        if not isinstance(node, ast.Call):
            continue
        called = node.func.id if isinstance(node.func, ast.Name) else getattr(node.func, "attr", None)
        bare = isinstance(node.func, ast.Name) and called in ("print", "input")
        if bare or (isinstance(node.func, ast.Attribute) and called in ("cwd", "getcwd")):
            found.append((node.lineno, f"calls {called}()"))
    return [f"{line}: {what}" for line, what in sorted(found)]


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


@pytest.mark.parametrize("path", MODULES, ids=lambda path: str(path.relative_to(PACKAGE.parent)))
def test_only_a_terminal_front_end_prints_or_reads_the_working_directory(path: Path) -> None:
    if top_package(module_name(path)) in TERMINAL:
        return
    found = terminal_uses(path)
    assert not found, f"{path.relative_to(PACKAGE.parent)} is below the front ends, but:\n" + "\n".join(found)


def package_imports() -> list[tuple[str, str, str]]:
    """Every `decode` import in decode: where it is, the importing package, the imported package."""
    return [
        (f"{path.relative_to(PACKAGE.parent)}:{line} imports {name}", top_package(module_name(path)), top_package(name))
        for path in MODULES
        for line, name in imported_modules(path)
    ]


def test_a_room_below_its_neighbours_imports_none_of_them() -> None:
    upward = [where for where, importer, imported in package_imports() if imported in BELOW.get(importer, ())]
    assert not upward, "\n".join(upward)


def test_commands_are_leaves_nothing_imports_one() -> None:
    """A subcommand is found by name (`decode/cli.py`); what two front ends share lives below them."""
    importers = [where for where, importer, imported in package_imports() if imported == "commands" != importer]
    assert not importers, "\n".join(importers)


def sample(tmp_path: Path, text: str) -> Path:
    source = tmp_path / "sample.py"
    source.write_text(text, encoding="utf-8")
    return source


def test_the_terminal_rules_see_imports_calls_and_the_working_directory(tmp_path: Path) -> None:
    source = sample(
        tmp_path,
        "import os\nfrom pathlib import Path\ndef f():\n    from rich.table import Table\n    import click\n"
        "    print(Path.cwd(), os.getcwd())\n    console.print('fine: not the builtin')\n    input()\n",
    )
    assert terminal_uses(source) == [
        "4: imports rich.table",
        "5: imports click",
        "6: calls cwd()",
        "6: calls getcwd()",
        "6: calls print()",
        "8: calls input()",
    ]
    assert layer_of("decode.commands.permissions") == "front ends"
    assert top_package("decode.commands.permissions") in TERMINAL
    assert top_package("decode.remote.app") not in TERMINAL


def test_the_checker_sees_function_level_and_type_checking_imports(tmp_path: Path) -> None:
    source = sample(
        tmp_path,
        "from typing import TYPE_CHECKING\nif TYPE_CHECKING:\n    from decode.tui.app import Repl\n"
        "def f():\n    import decode.agent.loop\n",
    )
    assert [name for _, name in imported_modules(source)] == ["decode.tui.app", "decode.agent.loop"]
    assert layer_of("decode.tui.app") == "front ends"
    assert layer_of("decode.tools.read") == "capabilities"
    assert layer_of("decode.processes.local") == "processes"
