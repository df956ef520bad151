"""Lesson 24's build-along track: pass@k, the verifier's reward, and grading a task.

`make lesson-check N=24` runs these against your copy (`make lesson-start N=24`); each test's first
docstring line is the behaviour it reports.
"""

import shutil
from pathlib import Path

import pytest

import evals
from evals.benchmark.grade import grade, read_reward
from evals.benchmark.tasks import load_task
from evals.metrics import pass_at_k


def test_pass_at_k_is_the_chance_that_k_draws_hold_a_pass() -> None:
    """pass@k is the chance that k of n trials hold a pass: 1 of 4 passing gives pass@1 = 0.25, pass@4 = 1."""
    assert pass_at_k(4, 1, 1) == pytest.approx(0.25)
    assert pass_at_k(4, 1, 4) == 1.0
    assert pass_at_k(5, 2, 2) == pytest.approx(0.7)
    assert pass_at_k(3, 0, 2) == 0.0
    with pytest.raises(ValueError, match="k=4"):
        pass_at_k(3, 1, 4)


def test_a_reward_is_a_number_from_0_to_1(tmp_path: Path) -> None:
    """The verifier's reward.txt is a number from 0 to 1; anything else scores 0 and says why."""
    path = tmp_path / "reward.txt"
    path.write_text("0.5\n")
    assert read_reward(path) == (0.5, None)
    path.write_text("pass\n")
    reward, why = read_reward(path)
    assert reward == 0.0
    assert why is not None
    assert "not a number" in why
    assert read_reward(tmp_path / "missing.txt")[0] == 0.0


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="this task's verifier runs in bubblewrap (bwrap)")
def test_a_task_is_graded_by_its_own_verifier(tmp_path: Path) -> None:
    """A task's verifier scores its untouched workspace 0 and a correct fix 1."""
    task = load_task(Path(evals.__file__).parent / "tasks" / "fix-fahrenheit-converter")
    workspace = tmp_path / "app"
    shutil.copytree(task.path / "environment" / "src", workspace)
    untouched = grade(task, workspace)
    assert (untouched.reward, untouched.passed) == (0.0, False)
    (workspace / "convert.py").write_text("import sys\nprint(float(sys.argv[1]) * 9 / 5 + 32)\n")
    fixed = grade(task, workspace)
    assert (fixed.reward, fixed.passed) == (1.0, True)
