"""The build-along track of `scripts/lesson` (ADR-0121): a lesson's package with its key functions
left for the learner to write, and a check that says in plain words what is still missing.

A lesson declares its track in `lesson.toml`:

    [track]
    tests = "track_tests.py"                 # small behaviour tests of this lesson's own functions
    stubs = [
        { function = "decode/agent/loop.py:AgentLoop._walk", hint = "…what to write, in one line…" },
    ]

`stub()` keeps each function's signature and docstring and makes its body
`raise NotImplementedError("AgentLoop._walk: hint")` (a generator, async or not, stays one: an
unreachable `yield` follows). `start()` writes the learner's copy; `check()` runs the lesson's
track tests on it (`track_runner.py`) and prints one line per behaviour.
"""

import ast
import json
import subprocess
import sys
import textwrap
import tomllib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path

import track_runner

ROOT = Path(__file__).resolve().parent.parent
LESSONS = ROOT / "lessons"
PACKAGE = "decode"


KEEP_IMPORTS = "# ruff: noqa: F401 -- the stubs keep their imports for your code; delete this line once it is written\n"
"""The first line of a file whose stubs left imports unused: they stay (the bodies you write use them)."""


class TrackError(Exception):
    """A track that cannot be built: no track for the lesson, or a stub naming no function."""


@dataclass(frozen=True)
class Stub:
    path: str  # from the repository root: decode/agent/loop.py
    function: str  # its qualified name in the module: AgentLoop._walk
    hint: str

    @property
    def message(self) -> str:
        return f"{self.function}: {self.hint}"


@dataclass(frozen=True)
class Track:
    lesson: int
    folder: Path
    tests: Path
    stubs: tuple[Stub, ...]


def lesson_folder(lesson: int) -> Path:
    found = sorted(LESSONS.glob(f"{lesson:02}-*/lesson.toml"))
    if not found:
        raise TrackError(f"lesson {lesson:02} does not exist")
    return found[0].parent


def track(lesson: int) -> Track:
    """Lesson `lesson`'s track, from the `[track]` table of its `lesson.toml`."""
    folder = lesson_folder(lesson)
    table = tomllib.loads((folder / "lesson.toml").read_text(encoding="utf-8")).get("track")
    if not table:
        raise TrackError(f"lesson {lesson:02} has no build-along track (no [track] in {folder.name}/lesson.toml)")
    where = f"{folder.name}/lesson.toml [track]"
    tests, entries = table.get("tests"), table.get("stubs")
    if not isinstance(tests, str) or not (folder / tests).is_file():
        raise TrackError(f"{where}: `tests` must name a file of the lesson folder, not {tests!r}")
    if not isinstance(entries, list) or not entries:
        raise TrackError(f"{where}: `stubs` must be a list of {{ function = 'decode/x.py:name', hint = '…' }}")
    stubs = []
    for entry in entries:
        function, hint = (entry.get(key) if isinstance(entry, dict) else None for key in ("function", "hint"))
        if not isinstance(function, str) or ":" not in function or not isinstance(hint, str) or not hint.strip():
            raise TrackError(f"{where}: a stub needs `function = 'path.py:Name'` and a `hint`, not {entry!r}")
        path, _, name = function.partition(":")
        stubs.append(Stub(path, name, hint.strip()))
    return Track(lesson, folder, folder / tests, tuple(stubs))


def tracked_lessons() -> list[int]:
    """Every lesson with a `[track]` table."""
    numbers = []
    for manifest in sorted(LESSONS.glob("[0-9][0-9]-*/lesson.toml")):
        if "track" in tomllib.loads(manifest.read_text(encoding="utf-8")):
            numbers.append(int(manifest.parent.name[:2]))
    return numbers


def _find(tree: ast.Module, qualname: str) -> ast.FunctionDef | ast.AsyncFunctionDef | None:
    body: list[ast.stmt] = tree.body
    *outer, name = qualname.split(".")
    for part in outer:
        node = next((n for n in body if isinstance(n, ast.ClassDef) and n.name == part), None)
        if node is None:
            return None
        body = node.body
    functions = (ast.FunctionDef, ast.AsyncFunctionDef)
    return next((n for n in body if isinstance(n, functions) and n.name == name), None)


def _is_generator(function: ast.FunctionDef | ast.AsyncFunctionDef) -> bool:
    """A `yield` in the function's own body (not in a function, lambda or class nested in it)."""
    pending: list[ast.AST] = list(function.body)
    while pending:
        node = pending.pop()
        if isinstance(node, ast.Yield | ast.YieldFrom):
            return True
        if not isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.Lambda | ast.ClassDef):
            pending.extend(ast.iter_child_nodes(node))
    return False


def stub(source: str, stubbed: Stub) -> str:
    """`source` with `stubbed.function`'s body (past its docstring) replaced by a NotImplementedError."""
    function = _find(ast.parse(source), stubbed.function)
    if function is None:
        raise TrackError(f"{stubbed.path}: no function {stubbed.function} to stub")
    body = function.body
    has_docstring = isinstance(body[0], ast.Expr) and isinstance(getattr(body[0], "value", None), ast.Constant)
    first = body[1] if has_docstring and len(body) > 1 else None if has_docstring else body[0]
    lines = source.splitlines(keepends=True)
    indent = " " * body[0].col_offset
    if body[0].lineno == function.lineno:
        raise TrackError(f"{stubbed.path}: {stubbed.function} is on one line; it cannot be stubbed")
    start = first.lineno - 1 if first is not None else body[0].end_lineno or body[0].lineno
    chunks = textwrap.wrap(stubbed.message, 100 - len(indent), drop_whitespace=False) or [""]
    new = [f"{indent}raise NotImplementedError(\n"]
    new += [f"{indent}    {json.dumps(chunk, ensure_ascii=False)}\n" for chunk in chunks]
    new += [f"{indent})\n"]
    if _is_generator(function):
        new.append(f"{indent}yield  # unreachable: keeps the function a generator, as its callers expect\n")
    end = function.end_lineno or function.lineno
    return "".join(lines[:start] + new + lines[end:])


def package_files(lesson: int, snapshot: dict[str, bytes]) -> dict[str, bytes]:
    """`snapshot` and the lesson's `builds` (lesson 24's `evals/`) where the snapshot lacks them: the
    learner's copy holds every package the lesson's track tests import."""
    table = tomllib.loads((lesson_folder(lesson) / "lesson.toml").read_text(encoding="utf-8"))
    built: dict[str, bytes] = {}
    for entry in table.get("builds", []):
        found = sorted((ROOT / entry).rglob("*")) if entry.endswith("/") else [ROOT / entry]
        for path in found:
            if path.is_file() and "__pycache__" not in path.parts:
                built[path.relative_to(ROOT).as_posix()] = path.read_bytes()
    return built | snapshot


def stubbed_files(files: dict[str, bytes], chosen: tuple[Stub, ...]) -> dict[str, bytes]:
    """`files` (a snapshot: paths and contents) with each of `chosen` stubbed."""
    changed = dict(files)
    for item in chosen:
        if item.path not in changed:
            raise TrackError(f"{item.path} is not in this lesson's package")
        changed[item.path] = stub(changed[item.path].decode("utf-8"), item).encode("utf-8")
    for path in {item.path for item in chosen}:
        if _unused_imports(changed[path].decode("utf-8"), path):
            changed[path] = KEEP_IMPORTS.encode("utf-8") + changed[path]
    return changed


def _unused_imports(text: str, path: str) -> bool:
    """Does ruff find an import `text` no longer uses (the stubs took the code that did)?"""
    ruff = str(Path(sys.executable).parent / "ruff")
    command = [ruff, "check", "--isolated", "--no-cache", "--quiet", "--select", "F401", "--stdin-filename", path, "-"]
    return subprocess.run(command, input=text, capture_output=True, text=True).returncode == 1


def write(files: dict[str, bytes], target: Path) -> None:
    for path, data in files.items():
        destination = target / path
        destination.parent.mkdir(parents=True, exist_ok=True)
        destination.write_bytes(data)


def run(pairs: list[tuple[int, Path]]) -> list[list[dict[str, object]]]:
    """Each lesson's track tests against its package folder, all in one fresh interpreter."""
    try:
        return track_runner.run_elsewhere([(track(lesson).tests, folder) for lesson, folder in pairs])
    except track_runner.RunnerError as exc:
        raise TrackError(str(exc)) from None


def default_folder(lesson: int) -> Path:
    """Where `make lesson-start` writes the learner's copy (ignored by git and ruff)."""
    return ROOT / "build" / f"{lesson:02}"


def start(lesson: int, target: Path | None, snapshot: Callable[[int], dict[str, bytes]]) -> int:
    """Write lesson `lesson`'s package (`snapshot(lesson)`) into `target` with its track's functions stubbed."""
    chosen, target = track(lesson), target or default_folder(lesson)
    if (target / PACKAGE).exists():
        print(f"scripts/lesson: {target / PACKAGE} exists (your work?); remove it or choose DIR=", file=sys.stderr)
        return 2
    write(stubbed_files(package_files(lesson, snapshot(lesson)), chosen.stubs), target)
    print(f"lesson {lesson:02}'s package is in {target}; yours to write:")
    for item in chosen.stubs:
        print(f"  {item.path}: {item.function}")
    elsewhere = f" DIR={target}" if target.resolve() != default_folder(lesson) else ""
    print(f"check it with: make lesson-check N={lesson:02}{elsewhere}")
    return 0


def check(lesson: int, target: Path | None) -> int:
    """Run lesson `lesson`'s track tests on `target`: one line per behaviour; 1 while any is missing."""
    track(lesson)  # a lesson without a track fails here, in one line
    target = target or default_folder(lesson)
    if not (target / PACKAGE / "__init__.py").is_file():
        print(f"scripts/lesson: no package in {target}; start with: make lesson-start N={lesson:02}", file=sys.stderr)
        return 2
    [results] = run([(lesson, target)])
    print("\n".join(track_runner.report(results)))
    missing = sum(not result["passed"] for result in results)
    said = f"{missing} of {len(results)} behaviours still missing" if missing else "all done"
    print(f"lesson {lesson:02}: {said}")
    return 1 if missing else 0
