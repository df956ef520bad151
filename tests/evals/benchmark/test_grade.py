"""The grader does not take the workspace's word: a verifier cut short, or a `.git` redirected, scores 0."""

import subprocess
from pathlib import Path

import pytest

from evals.benchmark.grade import grade
from evals.benchmark.tasks import load_task
from evals.benchmark.workspace import prepare
from tests.evals.benchmark.conftest import copy_task

pytestmark = pytest.mark.integration


def solved(tmp_path: Path, name: str) -> tuple[Path, Path]:
    """A copy of fixture task `name` and a workspace its solution solved."""
    task_dir = copy_task(tmp_path / "tasks", name)
    workspace = prepare(load_task(task_dir), tmp_path / "work")
    subprocess.run(["bash", str(task_dir / "solution" / "solve.sh")], cwd=workspace, check=True)
    return task_dir, workspace


def test_a_verifier_that_writes_1_and_is_then_killed_scores_0(tmp_path: Path) -> None:
    task_dir, workspace = solved(tmp_path, "fix-add")
    assert grade(load_task(task_dir), workspace).reward == 1.0  # the solved workspace, graded honestly
    # Code the verifier runs writes the reward, then kills the verifier before it can check anything.
    cheat = 'mkdir -p "$REWARD_DIR"; echo 1 > "$REWARD_DIR/reward.txt"; kill -9 $$\n'
    (task_dir / "tests" / "test.sh").write_text(cheat)
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "exited" in (result.error or "")


def test_a_git_dir_pointed_at_another_config_is_not_graded(tmp_path: Path) -> None:
    task_dir, workspace = solved(tmp_path, "write-greeting")
    assert grade(load_task(task_dir), workspace).reward == 1.0
    evil = workspace / ".evilgit"
    evil.mkdir()
    (evil / "config").write_text(f"[core]\n\tfsmonitor = touch {tmp_path / 'ran-on-host'}\n")
    (workspace / ".git" / "commondir").write_text("../.evilgit\n")
    result = grade(load_task(task_dir), workspace)
    assert (result.reward, result.passed) == (0.0, False)
    assert "commondir" in (result.error or "")
    assert not (tmp_path / "ran-on-host").exists()
