"""The build-along track (`scripts/lesson_track.py`, ADR-0121), proved both ways for every lesson.

For each lesson with a `[track]`: its reference snapshot passes its track tests, and each of its stubs,
alone in the snapshot, makes at least one of them fail with that stub's own NotImplementedError. All
runs share one interpreter (`run_elsewhere`), so pydantic-ai is imported once for the whole track.
"""

import ast
import inspect
import shutil
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


def test_start_refuses_a_folder_that_holds_a_package(tmp_path: Path) -> None:
    (tmp_path / "decode").mkdir()
    script = [sys.executable, str(ROOT / "scripts" / "lesson")]
    done = subprocess.run([*script, "start", "02", str(tmp_path)], capture_output=True, text=True)
    assert done.returncode == 2
    assert "exists (your work?)" in done.stderr
    done = subprocess.run([*script, "track-check", "02", str(tmp_path / "none")], capture_output=True, text=True)
    assert done.returncode == 2
    assert "start with: make lesson-start N=02" in done.stderr


# --- every lesson, both ways -------------------------------------------------------------------------


@pytest.fixture(scope="module")
def outcomes(tmp_path_factory: pytest.TempPathFactory) -> dict[tuple[int, str], list[dict[str, object]]]:
    """Each lesson's track tests run on its reference snapshot and on each one-stub variant of it."""
    base = tmp_path_factory.mktemp("track")
    runs: dict[tuple[int, str], Path] = {}
    for lesson in TRACKED:
        files = track_module.package_files(lesson, lesson_script.snapshot_files(lesson))
        reference = base / f"{lesson:02}" / "reference"
        track_module.write(files, reference)
        runs[(lesson, "reference")] = reference
        for stub in track_module.track(lesson).stubs:
            variant = base / f"{lesson:02}" / stub.function
            shutil.copytree(reference, variant)
            track_module.write({stub.path: track_module.stubbed_files(files, (stub,))[stub.path]}, variant)
            runs[(lesson, stub.function)] = variant
    results = track_module.run_elsewhere([(lesson, folder) for (lesson, _), folder in runs.items()])
    return dict(zip(runs, results, strict=True))


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_the_reference_snapshot_passes_its_track(
    lesson: int, outcomes: dict[tuple[int, str], list[dict[str, object]]]
) -> None:
    results = outcomes[(lesson, "reference")]
    assert results, f"lesson {lesson:02}: no track test ran"
    assert [r for r in results if not r["passed"]] == []


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_each_stub_is_caught_by_a_track_test(
    lesson: int, outcomes: dict[tuple[int, str], list[dict[str, object]]]
) -> None:
    for stub in track_module.track(lesson).stubs:
        failed = [r["stub"] for r in outcomes[(lesson, stub.function)] if not r["passed"]]
        assert " ".join(stub.message.split()) in failed, f"lesson {lesson:02}: no track test catches {stub.function}"


@pytest.mark.parametrize("lesson", TRACKED, ids=lambda n: f"{n:02}")
def test_the_learners_package_parses_with_every_stub(lesson: int) -> None:
    chosen = track_module.track(lesson)
    files = track_module.package_files(lesson, lesson_script.snapshot_files(lesson))
    files = track_module.stubbed_files(files, chosen.stubs)
    for path in {stub.path for stub in chosen.stubs}:
        ast.parse(files[path])
        assert files[path].count(b"raise NotImplementedError(") >= 1
