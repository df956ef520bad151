"""The package as of every lesson (`scripts/lesson`): markers read right, and every snapshot is real.

The marker tests feed `render()` small sources. The snapshot tests build each lesson's package
once per session and check what a learner relies on: it holds nothing of later lessons, every module
imports with only the snapshot on the path and nothing it names is left undefined, `decode run`
answers from lesson 02 on, and the REPL starts, answers and quits from lesson 03 on.
"""

import functools
import json
import os
import shutil
import subprocess
import sys
import uuid
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.lessons.conftest import ROOT, lesson_script
from tests.lessons.warm_libraries import WarmLibraries

script = lesson_script
LESSON_NUMBERS = sorted(script.lessons())
KNOWN = set(LESSON_NUMBERS)


def render(text: str, lesson: int) -> str:
    return script.render(text, lesson, KNOWN, "sample.py")


# --- markers -------------------------------------------------------------------------------------

SAMPLE = """\
import a
import b  # [lesson 03]


def build():
    # [lesson 03]
    gate = make_gate()
    # [lesson 05]
    gate.shell = True
    # [/lesson 05]
    # [before lesson 03]
    # gate = None
    # [/lesson 03]
    return gate
"""


def test_a_line_marker_keeps_its_line_from_its_lesson_on() -> None:
    assert "import b\n" not in render(SAMPLE, 2)
    assert "import b\n" in render(SAMPLE, 3)
    assert "[lesson" not in render(SAMPLE, 3)


def test_a_block_replaces_its_before_part_and_blocks_nest() -> None:
    assert render(SAMPLE, 2) == "import a\n\n\ndef build():\n    gate = None\n    return gate\n"
    assert render(SAMPLE, 4) == ("import a\nimport b\n\n\ndef build():\n    gate = make_gate()\n    return gate\n")
    assert "    gate.shell = True\n" in render(SAMPLE, 5)


def test_a_file_without_markers_is_kept_byte_for_byte() -> None:
    text = 'x = 1\r\ns = "a\x0cb"  # a comment, [not a marker]\n\n\ndef f():\n    return x\n'
    assert render(text, 2) == render(text, 9) == text


STATEMENTS = """\
import a


class Loop:
    run: int = 0  # [lesson 10]
    \"\"\"The turn in progress.\"\"\"
    size: int = 1

    @property
    def pending(self) -> int:  # [lesson 11]
        if self.run:  # [lesson 13]
            return 1
        return 0

    def clear(self) -> None:
        if self.run:  # [lesson 05]
            self.run = 0
        elif self.size:  # [lesson 12]
            self.size = 0  # [lesson 12]
        self.size = 1
"""


def test_a_marker_on_a_statements_first_line_covers_the_whole_statement() -> None:
    # The field with its docstring, the `def` with its decorator and body, the `if` with its `elif`:
    early = "import a\n\n\nclass Loop:\n    size: int = 1\n\n\n    def clear(self) -> None:\n        self.size = 1\n"
    assert render(STATEMENTS, 4) == early  # the blank lines a dropped statement leaves: the snapshot formats them
    assert "@property\n    def pending(self) -> int:\n        return 0\n" in render(STATEMENTS, 11)
    assert "        if self.run:\n            return 1\n" in render(STATEMENTS, 13)


def test_a_marker_on_an_elif_covers_its_line_only() -> None:
    # An `elif` is the `else` of the `if` before it: its marker cannot cover a statement of its own.
    assert "self.size = 0" not in render(STATEMENTS, 11)
    assert "            self.run = 0\n        elif self.size:\n            self.size = 0\n" in render(STATEMENTS, 12)


@pytest.mark.parametrize(
    ("source", "problem"),
    [
        ("# [lesson 03]\nx = 1\n", "never closed"),
        ("x = 1\n# [/lesson 03]\n", "closes no open block"),
        ("# [lesson 03]\nx = 1\n# [/lesson 04]\n", "closes no open block"),
        ("x = 1  # [lesson 77]\n", "lesson 77 does not exist"),
        ("# [lesson 05]\n# [lesson 03]\n# [/lesson 03]\n# [/lesson 05]\n", "inside a later lesson's block"),
        ("# [lesson 03]\nx = 1\n# [before lesson 03]\nx = 2\n# [/lesson 03]\n", "must be a comment"),
        ("# [before lesson 03]\n", "outside its block"),
        ("x = 1  # [lesson 3]\n", "misspelt"),
        ("x = 1  # [lesson 03] and more\n", "misspelt"),
        ("# [Lesson 03]\nx = 1\n# [/Lesson 03]\n", "misspelt"),
        ("x = 1  #  [lesson 03]\n", "misspelt"),
        ("x = 1  # [ lesson 03]\n", "misspelt"),
        ("x = 1  # [lessons 03]\n", "misspelt"),
        ("x = 1  #[lesson 03]\n", "misspelt"),
        ("x = 1  #\u00a0[lesson 03]\n", "misspelt"),
        ("x = 1  # ［lesson 03]\n", "misspelt"),
        ("# [lesson 03] \nx = 1\n# [/lesson 03]\n", "misspelt"),
        ("# [lesson 03]\r\nx = 1\r\n# [/lesson 03]\r\n", "misspelt"),
        ('s = """\n# [lesson 03]\n"""\n', "inside a string"),
        ('"""Docs.  # [lesson 03]"""\n', "inside a string"),
        ("# [lesson 03]\nx = 1\n# [before lesson 03]\n# y = 1  # [lesson 05]\n# [/lesson 03]\n", "inside a `before`"),
        ("# [lesson 05]\nx = 1  # [lesson 03]\n# [/lesson 05]\n", "inside a later lesson's block"),
        ("x = (\n", "cannot be read as Python"),
        ("def f():  # [lesson 05]\n    y = 1  # [lesson 03]\n", "inside a later lesson's block"),
        ("def f():  # [lesson 05]\n    y = 1  # [lesson 05]\n", "inside a later lesson's block"),
        ("# [lesson 05]\ndef f():  # [lesson 03]\n    y = 1\n# [/lesson 05]\n", "statement inside a later block"),
    ],
)
def test_a_broken_marker_is_an_error_naming_its_line(source: str, problem: str) -> None:
    with pytest.raises(script.MarkerError, match=problem):
        render(source, 9)


def test_a_rendering_is_kept_under_what_it_is_made_from(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(script, "CACHE", tmp_path / "cache")
    sources = {"decode/a.py": b"x = 1\ny = 2  # [lesson 05]\n"}
    key = script._cache_key(3, KNOWN, sources)
    assert script._cached(key) is None
    files = script._rendered(3, KNOWN, sources)
    assert files == {"decode/a.py": b"x = 1\n"}
    script._store(key, files)
    assert script._cached(key) == files
    assert script._cache_key(5, KNOWN, sources) != key
    assert script._cache_key(3, KNOWN, {"decode/a.py": b"x = 2\n"}) != key
    (tmp_path / "cache" / key).write_bytes(b"\x00not marshal")
    assert script._cached(key) is None  # a torn or foreign file is a miss, not an error


def test_the_command_rejects_an_unknown_lesson(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, ROOT / "scripts" / "lesson", "snapshot", "77", tmp_path], capture_output=True, text=True
    )
    assert done.returncode == 1
    assert "lesson 77 does not exist" in done.stderr


# --- every snapshot ------------------------------------------------------------------------------


@pytest.fixture(scope="session")
def snapshots(tmp_path_factory: pytest.TempPathFactory) -> dict[int, Path]:
    folders = {}
    for number in LESSON_NUMBERS:
        folder = tmp_path_factory.mktemp(f"lesson{number:02}")
        script.write_snapshot(number, folder)
        folders[number] = folder
    return folders


def in_snapshot(folder: Path) -> dict[str, str]:
    return {**os.environ, "PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}


@pytest.mark.parametrize("lesson", LESSON_NUMBERS, ids=[f"lesson{n:02}" for n in LESSON_NUMBERS])
def test_a_snapshot_holds_only_its_lessons_code(lesson: int, snapshots: dict[int, Path]) -> None:
    owners = script.owners(script.lessons())
    files = {path.relative_to(snapshots[lesson]).as_posix() for path in snapshots[lesson].rglob("*") if path.is_file()}
    assert files == {path for path, owner in owners.items() if owner <= lesson}
    leftover = [path for path in files if path.endswith(".py") and "[lesson " in (snapshots[lesson] / path).read_text()]
    assert not leftover, f"markers left in lesson {lesson:02}'s snapshot: {leftover}"


@pytest.fixture(scope="module")
def warm(tmp_path_factory: pytest.TempPathFactory) -> Iterator[WarmLibraries]:
    server = WarmLibraries(tmp_path_factory.mktemp("warm"))
    yield server
    server.close()


@pytest.mark.parametrize("lesson", LESSON_NUMBERS, ids=[f"lesson{n:02}" for n in LESSON_NUMBERS])
def test_a_snapshot_imports_on_its_own_lints_and_type_checks(lesson: int, tmp_path: Path, warm: WarmLibraries) -> None:
    imports = functools.partial(warm.imports, script.IMPORT_EVERY_MODULE)
    assert script.verify(lesson, tmp_path / "snapshot", imports=imports) == []


def test_the_warm_import_reads_every_module_from_the_snapshot(tmp_path: Path, warm: WarmLibraries) -> None:
    """What it must refuse as a fresh interpreter does: a module that imports a later lesson's code."""
    first = LESSON_NUMBERS[0]
    script.write_snapshot(first, tmp_path / "snapshot")
    assert warm.imports(script.IMPORT_EVERY_MODULE, tmp_path / "snapshot") == (0, "")
    later = sorted(set(script.owners(script.lessons())) - set(script.snapshot_files(first)))
    module = next(path for path in later if path.endswith(".py") and not path.endswith("__init__.py"))
    dotted = module.removesuffix(".py").replace("/", ".")
    (tmp_path / "snapshot" / "decode" / "uses_later.py").write_text(f"import {dotted}\n")
    code, printed = warm.imports(script.IMPORT_EVERY_MODULE, tmp_path / "snapshot")
    assert code == 1
    assert "ModuleNotFoundError: No module named 'decode." in printed


def test_the_last_snapshot_is_the_whole_package(snapshots: dict[int, Path]) -> None:
    last = snapshots[LESSON_NUMBERS[-1]]
    package = {p.relative_to(ROOT).as_posix() for p in (ROOT / "decode").rglob("*") if is_package_file(p)}
    assert {p.relative_to(last).as_posix() for p in (last / "decode").rglob("*") if p.is_file()} == package


def test_lesson_24s_snapshot_and_diff_hold_the_evals_it_builds(snapshots: dict[int, Path]) -> None:
    """`builds` (files beside the package) is part of the chapter: `make lesson-diff N=24` shows evals/."""
    assert not (snapshots[23] / "evals").exists()
    trial = snapshots[24] / "evals" / "benchmark" / "trial.py"
    assert trial.read_bytes() == (ROOT / "evals" / "benchmark" / "trial.py").read_bytes()
    verifier = snapshots[24] / "evals" / "tasks" / "csv-sales-summary" / "tests" / "test.sh"
    assert os.access(verifier, os.X_OK)  # copied as the task has it
    assert not (snapshots[24] / "evals" / "perf").exists()  # the project's performance suite, no lesson's
    diff = script.diff(24)
    for path in ("evals/benchmark/trial.py", "evals/regression/metrics.py", "evals/tasks/csv-sales-summary/task.toml"):
        assert f"--- /dev/null\n+++ b/{path}\n" in diff
    assert "+def run_trial(" in diff
    assert "evals/" not in script.diff(23)


def is_package_file(path: Path) -> bool:
    return path.is_file() and "__pycache__" not in path.parts


def test_make_lesson_repl_runs_the_snapshot_not_the_finished_package(tmp_path: Path) -> None:
    """From the repository root, where `python -m` would find the finished decode/ first."""
    done = subprocess.run(
        ["make", "-s", "lesson-repl", "N=03", f"DIR={tmp_path}", "ARGS=--help"],
        cwd=ROOT,
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "run  " in done.stdout
    assert "permissions" not in done.stdout  # lesson 06's command


def test_the_diff_of_a_lesson_adds_its_files_and_changes_the_ones_it_extends() -> None:
    manifest = script.lessons()[4]
    diff = script.diff(4)
    for path in manifest.introduces:
        assert f"--- /dev/null\n+++ b/{path}\n" in diff
    for path in manifest.extends:
        assert f"--- a/{path}\n+++ b/{path}\n" in diff
    later = script.lessons()[5].introduces
    assert not any(f"b/{path}\n" in diff for path in later)


def scripted_turns(folder: Path, lesson: int) -> Path:
    """A script: from lesson 04 on the model reads a file first, as the agent of that lesson can."""
    steps = [{"text": "The notes say hello."}]
    if lesson >= 4:
        steps.insert(0, {"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]})
    path = folder / "turns.json"
    path.write_text(json.dumps(steps))
    return path


RUNNABLE = [number for number in LESSON_NUMBERS if number >= 2]


@pytest.mark.parametrize("lesson", RUNNABLE, ids=[f"lesson{n:02}" for n in RUNNABLE])
def test_decode_run_answers_from_a_snapshot(
    lesson: int, snapshots: dict[int, Path], project: Path, warm: WarmLibraries
) -> None:
    (project / "notes.txt").write_text("hello\n")
    turns = scripted_turns(project.parent, lesson)
    done = subprocess.run(  # `python -P -m decode run …`, forked with only the libraries imported
        warm.argv("run", "--model", f"script:{turns}", "what do the notes say?"),
        cwd=project,
        env=in_snapshot(snapshots[lesson]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert "The notes say hello." in done.stdout
    if lesson >= 4:
        assert "read" in done.stderr  # the tool call's progress line


@pytest.mark.parametrize("lesson", RUNNABLE, ids=[f"lesson{n:02}" for n in RUNNABLE])
def test_the_test_model_answers_and_writes_nothing_from_a_snapshot(
    lesson: int, snapshots: dict[int, Path], project: Path, warm: WarmLibraries
) -> None:
    """`--model test` needs nothing and always answers, at every lesson: it calls no tool (pydantic-ai's
    TestModel would call each with made-up arguments: `skill("a")` failed the run, `write("a")` left a
    file `a` wherever lessons 04-05 ran it)."""
    done = subprocess.run(
        warm.argv("run", "--model", "test", "hi"),
        cwd=project,
        env=in_snapshot(snapshots[lesson]),
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 0, done.stderr
    assert done.stdout == "success (no tool calls)\n"
    assert {path.name for path in project.iterdir()} <= {".decode"}  # decode's own records, nothing else


WITH_REPL = [number for number in LESSON_NUMBERS if number >= 3]


@pytest.mark.parametrize("lesson", WITH_REPL, ids=[f"lesson{n:02}" for n in WITH_REPL])
def test_the_repl_starts_answers_and_quits_from_a_snapshot(
    lesson: int, snapshots: dict[int, Path], project: Path
) -> None:
    if shutil.which("tmux") is None:
        pytest.skip("tmux is not installed")
    (project / "notes.txt").write_text("hello\n")
    turns = scripted_turns(project.parent, lesson)
    terminal = Terminal(f"decode-lesson-{uuid.uuid4().hex[:8]}")
    try:
        command = (
            f"PYTHONPATH={snapshots[lesson]} PYTHONDONTWRITEBYTECODE=1 {sys.executable} -P -m decode"
            f" --model script:{turns}; echo decode-exited-$?; sleep 60"
        )
        terminal.start(command, project)
        terminal.wait_for(lambda _: "ready" in terminal.footer(), "the ready footer")
        terminal.submit("what do the notes say?")
        terminal.wait_for_text("The notes say hello.")
        terminal.submit("/quit")
        terminal.wait_for_text("decode-exited-0")
    finally:
        terminal.tmux("kill-server")
