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
unreachable `yield` follows). `run_tests()` runs a lesson's track tests against a package folder in
this process, with the package first on `sys.path` and no earlier `decode` modules kept; `python
scripts/lesson_track.py run NN DIR [NN DIR …]` runs several and prints what each test did as JSON.
"""

import ast
import json
import os
import re
import subprocess
import sys
import textwrap
import tomllib
from dataclasses import dataclass
from pathlib import Path

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
    """`snapshot` and the lesson's `builds` (lesson 18's `evals/`) where the snapshot lacks them: the
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


# --- running a lesson's track tests against a package ----------------------------------------------


class _Outcomes:
    """A pytest plugin keeping each test's docstring, outcome and, when it failed, why."""

    def __init__(self) -> None:
        self.results: list[dict[str, object]] = []

    def pytest_collectreport(self, report: object) -> None:
        import pytest

        assert isinstance(report, pytest.CollectReport)
        if report.failed:
            why = _import_problem(str(report.longrepr))
            self.results.append(
                {"test": "collect", "doc": "your package imports", "passed": False, "why": why, "stub": ""}
            )

    def pytest_runtest_makereport(self, item: object, call: object) -> None:
        import pytest

        assert isinstance(item, pytest.Function)
        assert isinstance(call, pytest.CallInfo)
        if call.when == "teardown" and not call.excinfo:
            return
        if call.when != "call" and not call.excinfo:
            return
        doc = (item.obj.__doc__ or item.name).strip().splitlines()[0]
        if call.excinfo is not None and call.excinfo.errisinstance(pytest.skip.Exception):
            why = str(call.excinfo.value).strip()
            self.results.append(
                {"test": item.name, "doc": doc, "passed": True, "why": why, "stub": "", "skipped": True}
            )
            return
        why, stub_message = "", ""
        error: BaseException | None = call.excinfo.value if call.excinfo else None
        if error is not None:
            why = f"{type(error).__name__}: {str(error).strip().splitlines()[0] if str(error).strip() else ''}"
            seen: set[int] = set()
            while error is not None and id(error) not in seen:
                seen.add(id(error))
                if isinstance(error, NotImplementedError):
                    stub_message = " ".join(str(error).split())
                    break
                error = error.__cause__ or error.__context__
        self.results.append(
            {"test": item.name, "doc": doc, "passed": call.excinfo is None, "why": why, "stub": stub_message}
        )


def _import_problem(text: str) -> str:
    """The error that stopped the track tests importing, and where, from pytest's report of it."""
    lines = text.strip().splitlines()
    error = lines[-1].removeprefix("E").strip() if lines else "an error"
    places = re.findall(r'File "([^"]+)", line (\d+)', text) or re.findall(r"^(\S+\.py):(\d+)", text, re.MULTILINE)
    return f"{error} at {places[-1][0]}:{places[-1][1]}" if places else error


def _forget(folders: list[Path], packages: set[str]) -> None:
    """Drop the modules imported from the packages and the lessons, so the next run imports afresh."""
    for name, module in list(sys.modules.items()):
        file = getattr(module, "__file__", None) or ""
        if name.partition(".")[0] in packages or any(str(f) in file for f in folders):
            del sys.modules[name]


def run_tests(lesson: int, package_root: Path) -> list[dict[str, object]]:
    """Lesson `lesson`'s track tests run against `package_root/decode`, in this process."""
    import pytest

    tests = track(lesson).tests
    root = package_root.resolve()
    packages = {PACKAGE} | {path.name for path in root.iterdir() if (path / "__init__.py").is_file()}
    _forget([root, LESSONS], packages)
    sys.path.insert(0, str(root))
    outcomes = _Outcomes()
    try:
        import decode

        if not Path(decode.__file__ or "").resolve().is_relative_to(root):
            raise TrackError(f"{root} holds no decode/ package (imported {decode.__file__})")
        arguments = ["-q", "-p", "asyncio", "--no-header", "-o", "console_output_style=classic", str(tests)]
        pytest.main([*arguments, "--rootdir", str(ROOT), "-c", str(ROOT / "pyproject.toml")], plugins=[outcomes])
    finally:
        sys.path.remove(str(root))
        _forget([root, LESSONS], packages)
    return outcomes.results


def run_elsewhere(pairs: list[tuple[int, Path]]) -> list[list[dict[str, object]]]:
    """`run_tests` for each (lesson, package folder), in one fresh interpreter, quietly."""
    command = [sys.executable, __file__, "run", *(str(part) for pair in pairs for part in pair)]
    # Only the plugins the track tests use (`-p asyncio` in `run_tests`): a fifth of each run's cost.
    environment = {**os.environ, "PYTEST_DISABLE_PLUGIN_AUTOLOAD": "1"}
    done = subprocess.run(command, capture_output=True, text=True, cwd=ROOT, env=environment)
    if done.returncode:
        raise TrackError(f"the track tests could not run:\n{done.stderr.strip() or done.stdout.strip()}")
    return json.loads(done.stdout.splitlines()[-1])


def report(results: list[dict[str, object]]) -> list[str]:
    """One plain line per behaviour, what works and what is still missing, then each stub's hint once."""
    lines, hints = [], {}
    for result in results:
        if result.get("skipped"):
            lines.append(f"  skipped  {result['doc']} ({result['why']})")
        elif result["passed"]:
            lines.append(f"  ok       {result['doc']}")
        elif result["stub"]:
            function, _, hint = str(result["stub"]).partition(": ")
            hints[function] = hint
            lines.append(f"  missing  {result['doc']} ({function} is still a stub)")
        else:
            lines.append(f"  missing  {result['doc']} ({result['why']})")
    lines += [f"hint for {function}: {hint}" for function, hint in hints.items()]
    return lines


def main(argv: list[str]) -> int:
    """`run NN DIR [NN DIR …]`: the track tests of each lesson against each folder, as one JSON line."""
    import contextlib
    import io

    if len(argv) < 3 or argv[0] != "run" or len(argv) % 2 == 0:
        print("usage: lesson_track.py run NN DIR [NN DIR ...]", file=sys.stderr)
        return 2
    everything = []
    for number, folder in zip(argv[1::2], argv[2::2], strict=True):
        with contextlib.redirect_stdout(io.StringIO()):  # pytest's own report: the caller words its own
            everything.append(run_tests(int(number), Path(folder)))
    print(json.dumps(everything))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
