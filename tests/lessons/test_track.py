"""The build-along track (`scripts/lesson_track.py`, ADR-0121), proved both ways for every lesson.

For each lesson with a `[track]`: its reference package passes its track tests, and in the learner's
package (`make lesson-start`) each stub makes at least one of them fail with that stub's own
NotImplementedError (a stub no test reaches there, because an earlier one failed first, is tried
alone). The runs share one interpreter per round (`run_elsewhere`): pydantic-ai is imported once.
"""

import inspect
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lessons.conftest import ROOT, lesson_script

track_module = lesson_script.lesson_track
TRACKED = track_module.tracked_lessons()

SOURCE = '''\
class Loop:
    """A loop."""

    async def walk(self, run: list[int]) -> "AsyncIterator[int]":
        """Each number."""
        for number in run:
            yield number

    def total(self, run: list[int]) -> int:
        return sum(run)


def numbers(count: int):
    """Numbers up to `count`."""
    yield from range(count)
'''


def stub_of(function: str, source: str = SOURCE) -> str:
    return track_module.stub(source, track_module.Stub("decode/sample.py", function, "write me"))


async def test_a_stubbed_async_generator_stays_one_and_raises_with_its_hint() -> None:
    namespace: dict[str, object] = {}
    exec(compile(stub_of("Loop.walk"), "sample", "exec"), namespace)
    method = namespace["Loop"].walk  # type: ignore[attr-defined]
    assert method.__doc__ == "Each number."
    assert inspect.isasyncgenfunction(method)
    walk = namespace["Loop"]().walk([1, 2])  # type: ignore[operator]
    with pytest.raises(NotImplementedError, match=r"^Loop\.walk: write me$"):
        await anext(walk)


def test_a_stub_keeps_the_signature_and_the_rest_of_the_module() -> None:
    stubbed = stub_of("Loop.total")
    assert "def total(self, run: list[int]) -> int:\n        raise NotImplementedError(" in stubbed
    assert "sum(run)" not in stubbed
    assert stubbed.count("yield number") == 1  # Loop.walk is untouched


def test_a_stubbed_generator_stays_a_generator() -> None:
    namespace: dict[str, object] = {}
    exec(compile(stub_of("numbers"), "sample", "exec"), namespace)
    made = namespace["numbers"](3)  # type: ignore[operator]
    assert inspect.isgenerator(made)  # calling did not raise: the first next() does
    with pytest.raises(NotImplementedError, match="numbers: write me"):
        next(made)


def test_a_stub_naming_no_function_is_a_one_line_error() -> None:
    with pytest.raises(track_module.TrackError, match=r"decode/sample.py: no function Loop.run to stub"):
        stub_of("Loop.run")


def test_a_lesson_without_a_track_says_so() -> None:
    with pytest.raises(track_module.TrackError, match="lesson 01 has no build-along track"):
        track_module.track(1)


def test_a_malformed_track_table_is_a_one_line_error(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = tmp_path / "lessons" / "05-demo"
    folder.mkdir(parents=True)
    (folder / "track_tests.py").write_text("")
    monkeypatch.setattr(track_module, "LESSONS", tmp_path / "lessons")
    for table, complaint in (
        ('tests = "nosuch.py"\nstubs = []', "`tests` must name a file"),
        ('tests = "track_tests.py"\nstubs = []', "`stubs` must be a list"),
        ('tests = "track_tests.py"\nstubs = [{ function = "decode/x.py" }]', "a stub needs"),
    ):
        (folder / "lesson.toml").write_text(f'title = "Demo"\n[track]\n{table}\n')
        with pytest.raises(track_module.TrackError, match=complaint):
            track_module.track(5)


def test_start_refuses_a_folder_that_holds_a_package(tmp_path: Path) -> None:
    (tmp_path / "decode").mkdir()
    script = [sys.executable, str(ROOT / "scripts" / "lesson")]
    done = subprocess.run([*script, "start", "02", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "exists (your work?)" in done.stderr
    done = subprocess.run([*script, "track-check", "02", str(tmp_path / "none")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "start with: make lesson-start N=02" in done.stderr


def test_the_learners_check_says_what_is_missing_in_plain_lines(tmp_path: Path) -> None:
    script = [sys.executable, str(ROOT / "scripts" / "lesson")]
    started = subprocess.run([*script, "start", "14", str(tmp_path)], capture_output=True, text=True)
    assert started.returncode == 0, started.stderr
    assert "decode/mcp/names.py: sanitise" in started.stdout
    checked = subprocess.run([*script, "track-check", "14", str(tmp_path)], capture_output=True, text=True)
    assert checked.returncode == 1
    lines = checked.stdout.splitlines()
    assert (
        "  missing  An MCP tool is named mcp__<server>__<tool>, each part sanitised. (tool_name is still a stub)"
        in lines
    )
    assert lines[-1] == "lesson 14: 4 of 4 behaviours still missing"
    names = tmp_path / "decode" / "mcp" / "names.py"
    names.write_text(names.read_text() + "def broken(:\n")
    broken = subprocess.run([*script, "track-check", "14", str(tmp_path)], capture_output=True, text=True)
    assert broken.returncode == 1
    assert f"  missing  your package imports (SyntaxError: invalid syntax at {names}:" in broken.stdout


# --- every lesson, both ways -------------------------------------------------------------------------


Outcomes = dict[tuple[int, str], list[dict[str, object]]]
TOOLS = Path(sys.executable).parent


def caught(results: list[dict[str, object]], stub: object) -> bool:
    """Did a test fail on `stub`'s own NotImplementedError?"""
    message = " ".join(stub.message.split())  # type: ignore[attr-defined]
    return any(not result["passed"] and result["stub"] == message for result in results)


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> Outcomes:
    """Each lesson's track tests on its reference package and on the learner's (every stub); then, for
    a stub no test reached there (an earlier stub failed first), on the package with that stub alone."""
    base = tmp_path_factory.mktemp("track")
    files = {n: track_module.package_files(n, lesson_script.snapshot_files(n)) for n in TRACKED}
    runs: dict[tuple[int, str], Path] = {}
    for lesson in TRACKED:
        stubs = track_module.track(lesson).stubs
        for variant, chosen in (("reference", ()), ("learner", stubs)):
            runs[(lesson, variant)] = base / f"{lesson:02}" / variant
            track_module.write(track_module.stubbed_files(files[lesson], chosen), runs[(lesson, variant)])
    found = dict(zip(runs, track_module.run([(n, folder) for (n, _), folder in runs.items()]), strict=True))
    alone: dict[tuple[int, str], Path] = {}
    for lesson in TRACKED:
        for stub in track_module.track(lesson).stubs:
            if not caught(found[(lesson, "learner")], stub):
                alone[(lesson, stub.function)] = base / f"{lesson:02}" / stub.function
                track_module.write(track_module.stubbed_files(files[lesson], (stub,)), alone[(lesson, stub.function)])
    if alone:
        results = track_module.run([(n, folder) for (n, _), folder in alone.items()])
        found |= dict(zip(alone, results, strict=True))
    LEARNERS.update({lesson: runs[(lesson, "learner")] for lesson in TRACKED})
    return found


LEARNERS: dict[int, Path] = {}
"""Each lesson's learner's package, as the `outcomes` fixture wrote it."""


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_the_reference_package_passes_its_track(lesson: int, outcomes: Outcomes) -> None:
    results = outcomes[(lesson, "reference")]
    assert results, f"lesson {lesson:02}: no track test ran"
    assert [r for r in results if not r["passed"]] == []


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_each_stub_of_the_learners_package_is_caught_by_a_track_test(lesson: int, outcomes: Outcomes) -> None:
    for stub in track_module.track(lesson).stubs:
        results = outcomes.get((lesson, stub.function), outcomes[(lesson, "learner")])
        assert caught(results, stub), f"lesson {lesson:02}: no track test catches {stub.function}"


def test_every_lesson_from_02_has_a_track() -> None:
    numbers = [number for number in lesson_script.lessons() if number >= 2]
    assert numbers == TRACKED


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_the_notebook_says_what_is_the_learners_to_write(lesson: int) -> None:
    chosen = track_module.track(lesson)
    notebook = (chosen.folder / f"{chosen.folder.name}.py").read_text(encoding="utf-8")
    cell = notebook[notebook.index("**Build it yourself.**") :].split("# %%")[0]
    assert f"make lesson-start N={lesson:02}" in cell
    assert f"make lesson-check N={lesson:02}" in cell
    for stub in chosen.stubs:
        assert f"`{stub.function}` in `{stub.path}`" in cell


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_the_learners_stubbed_files_lint_and_type_check(lesson: int, outcomes: Outcomes) -> None:
    package = LEARNERS[lesson]
    files = sorted({stub.path for stub in track_module.track(lesson).stubs})
    lint = [str(TOOLS / "ruff"), "check", "--no-cache", "--config", str(ROOT / "pyproject.toml"), "--quiet", *files]
    types = [str(TOOLS / "ty"), "check", "--python", sys.prefix, "--project", ".", "--output-format", "concise"]
    typed = [path for path in files if path.startswith("decode/")]  # the project type-checks decode/ (`make check`)
    for command in (lint, [*types, *typed]) if typed else (lint,):
        done = subprocess.run(command, cwd=package, capture_output=True, text=True)
        assert done.returncode == 0, done.stdout + done.stderr
