"""Every lesson's exercises: checks that pass the reference solutions and reject a wrong answer.

A lesson folder holds `exercises.py` (one `check_NAME(candidate) -> bool` per exercise, built on
`course.check`) and `solutions.py` (`NAME`, the reference solution, and `wrong_NAME`, a plausible
mistake the check must catch, so a check that accepts anything fails here). Both run in a
subprocess against the lesson's snapshot, as the notebook does, so a solution that reaches for a
later lesson's code fails too. The notebook calls every check on the learner's own attempt.
"""

import ast
import os
import subprocess
import sys
from pathlib import Path

import pytest

from tests.lessons.conftest import ROOT, lesson_script, pairs_script

LESSONS = sorted(pairs_script.lesson_folders())

RUN_CHECKS = """
import exercises, solutions
names = [name.removeprefix("check_") for name in dir(exercises) if name.startswith("check_")]
assert names, "exercises.py defines no check_NAME function"
failed = []
for name in names:
    check = getattr(exercises, "check_" + name)
    if not check(getattr(solutions, name)):
        failed.append(f"the reference solution {name} does not pass check_{name}")
    if check(getattr(solutions, "wrong_" + name)):
        failed.append(f"check_{name} accepts wrong_{name}: it cannot fail")
assert not failed, failed
print(len(names))
"""


def check_names(folder: Path) -> list[str]:
    tree = ast.parse((folder / "exercises.py").read_text(encoding="utf-8"))
    return [node.name for node in tree.body if isinstance(node, ast.FunctionDef) and node.name.startswith("check_")]


@pytest.mark.parametrize("folder", LESSONS, ids=[folder.name for folder in LESSONS])
def test_a_lesson_has_one_to_three_exercises_and_its_notebook_checks_each(folder: Path) -> None:
    assert (folder / "exercises.py").is_file(), f"lessons/{folder.name}: exercises.py is missing"
    assert (folder / "solutions.py").is_file(), f"lessons/{folder.name}: solutions.py is missing"
    names = check_names(folder)
    assert 1 <= len(names) <= 3, f"lessons/{folder.name}: {len(names)} exercises; a lesson has one to three"
    notebook = (folder / f"{folder.name}.py").read_text(encoding="utf-8")
    unchecked = [name for name in names if f"{name}(" not in notebook]
    assert not unchecked, f"lessons/{folder.name}: the notebook never calls {unchecked}"


@pytest.mark.parametrize("folder", LESSONS, ids=[folder.name for folder in LESSONS])
def test_the_reference_solutions_pass_and_a_wrong_answer_fails(folder: Path, tmp_path: Path) -> None:
    lesson_script.write_snapshot(int(folder.name[:2]), tmp_path / "snapshot")
    scratch = tmp_path / "scratch"
    scratch.mkdir()
    path = os.pathsep.join([str(tmp_path / "snapshot"), str(ROOT / "lessons"), str(folder)])
    done = subprocess.run(
        [sys.executable, "-c", RUN_CHECKS],
        cwd=scratch,
        env={**os.environ, "PYTHONPATH": path, "PYTHONDONTWRITEBYTECODE": "1"},
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stdout + done.stderr
    assert int(done.stdout.split()[-1]) == len(check_names(folder))
