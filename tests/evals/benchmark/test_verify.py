"""The verifier proof: every benchmark task's solution scores 1 and its seed 0, solutions run in bubblewrap."""

import os
import shutil
import subprocess
import sys
from pathlib import Path

import pytest
from click.testing import CliRunner

from evals.benchmark.commands import verify as verify_command
from evals.benchmark.tasks import TASKS_ROOT, TaskError, load_task, load_tasks
from evals.benchmark.verify import verify
from tests.evals.benchmark.conftest import FIXTURE_TASKS, copy_task

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]


TASK_NAMES = sorted(path.name for path in TASKS_ROOT.iterdir() if (path / "task.toml").exists())


def test_the_benchmark_has_tasks_of_every_difficulty() -> None:
    assert len(TASK_NAMES) >= 19, f"tasks under {TASKS_ROOT}: {TASK_NAMES}"
    assert {task.difficulty for task in load_tasks()} >= {"easy", "medium", "hard"}


def test_every_copy_of_the_judge_is_the_same() -> None:
    # Harbor copies only a task's own tests/, so each task carries its copy: a fix must reach all.
    copies = sorted(TASKS_ROOT.glob("*/tests/judge.py"))
    assert len(copies) >= 10
    assert len({path.read_bytes() for path in copies}) == 1, [str(path) for path in copies]


def test_a_verifier_hands_its_nonce_only_to_the_judge() -> None:
    # The process that holds the proof never imports the workspace's code (ADR-0088).
    holders = [path for path in TASKS_ROOT.glob("*/tests/test.sh") if "nonce" in path.read_text()]
    assert len(holders) >= 10
    for path in holders:
        text = path.read_text()
        assert 'python3 -I -B "$TESTS/judge.py"' in text, path
        assert "nonce_run" not in text, path
    assert not list(TASKS_ROOT.glob("*/tests/nonce_run.py"))


# One test per task (seconds each, spread over the workers); `make eval-verify` checks them all at once.
@pytest.mark.parametrize("name", TASK_NAMES)
def test_every_benchmark_task_scores_its_solution_1_and_its_seed_0(name: str) -> None:
    result = verify(load_tasks(names=[name]), sandbox="bwrap")

    report = "\n".join(result.lines())
    assert result.ok, report
    assert report.startswith("solutions: 1/1 score 1\nseeds: 1/1 score 0")


@pytest.mark.parametrize("sandbox", ["bwrap", "none"])
def test_fixture_tasks_verify_in_either_sandbox(sandbox: str) -> None:
    result = verify(load_tasks(FIXTURE_TASKS), sandbox=sandbox)

    assert result.ok, "\n".join(result.lines())
    assert [check.task for check in result.solutions] == ["fix-add", "write-greeting"]


def test_a_solution_that_fails_and_a_seed_that_passes_are_reported_by_name(tmp_path: Path) -> None:
    copy_task(tmp_path, "fix-add")
    (copy_task(tmp_path, "fix-add", "lazy-solution") / "solution" / "solve.sh").write_text("echo 'nothing to do'\n")
    lenient = copy_task(tmp_path, "fix-add", "lenient-verifier")
    tests = lenient / "tests" / "test.sh"
    tests.write_text('mkdir -p "$REWARD_DIR" && echo 1 > "$REWARD_DIR/reward.txt"\n')

    result = verify(load_tasks(tmp_path))

    lines = result.lines()
    assert not result.ok
    assert lines[:2] == ["solutions: 2/3 score 1", "seeds: 2/3 score 0"]
    assert "FAIL lazy-solution (solution scored 0, not 1)" in lines
    assert "    nothing to do" not in lines  # the tail shown is the grader's, not the solution's
    assert "    FAIL: calc.add does not add" in lines
    assert "FAIL lenient-verifier (seed scored 1, not 0)" in lines
    assert {check.task for check in result.failures} == {"lazy-solution", "lenient-verifier"}


def test_the_solution_runs_inside_the_sandbox(tmp_path: Path) -> None:
    task = copy_task(tmp_path / "tasks", "fix-add")
    outside = tmp_path / "outside.txt"
    solve = task / "solution" / "solve.sh"
    solve.write_text(f"echo escaped > {outside} || true\n" + solve.read_text())

    result = verify([load_task(task)], sandbox="bwrap")

    assert result.ok, "\n".join(result.lines())
    assert not outside.exists()  # the host outside the workspace is read-only in bubblewrap


def test_a_malformed_task_toml_is_a_clear_error(tmp_path: Path) -> None:
    broken = copy_task(tmp_path, "fix-add", "broken")
    (broken / "task.toml").write_text("[metadata\ndifficulty = 'easy'\n")
    with pytest.raises(TaskError, match=r"broken/task.toml: not valid TOML"):
        load_task(broken)

    (broken / "task.toml").write_text("[metadata]\ndifficulty = 'trivial'\ncategory = 'x'\n")
    with pytest.raises(TaskError, match=r"difficulty must be one of easy, medium, hard, not 'trivial'"):
        load_tasks(tmp_path)

    toml = (FIXTURE_TASKS / "fix-add" / "task.toml").read_text()
    (broken / "task.toml").write_text(toml.replace("timeout_sec = 60.0", "timeout_sec = 'soon'"))
    with pytest.raises(TaskError, match=r"\[agent\] timeout_sec must be a positive number"):
        load_task(broken)


def test_tasks_are_chosen_by_name_and_difficulty() -> None:
    assert [task.name for task in load_tasks(FIXTURE_TASKS, difficulties=["medium"])] == ["write-greeting"]
    task = load_tasks(FIXTURE_TASKS, names=["fix-add"])[0]
    assert (task.difficulty, task.category, task.tags) == ("easy", "debugging", ("python",))
    assert (task.agent_timeout_s, task.verifier_timeout_s) == (60.0, 30.0)
    assert task.instruction.startswith("The function `add` in calc.py")
    with pytest.raises(TaskError, match=r"unknown task.*no-such-task"):
        load_tasks(FIXTURE_TASKS, names=["fix-add", "no-such-task"])


def test_verify_command_rejects_an_unknown_task() -> None:
    result = CliRunner().invoke(verify_command, ["--tasks", "no-such-task"])

    assert result.exit_code == 2
    assert "no-such-task" in result.output


def test_a_seed_its_verifier_writes_no_reward_for_is_a_broken_task(tmp_path: Path) -> None:
    silent = copy_task(tmp_path, "fix-add", "silent-verifier")
    (silent / "tests" / "test.sh").write_text("echo 'checking nothing'\n")  # and no reward.txt

    result = verify(load_tasks(tmp_path), sandbox="none")

    lines = result.lines()
    assert lines[1] == "seeds: 0/1 score 0"  # not "1/1": writing no reward is not scoring 0
    assert "BROKEN silent-verifier (the verifier failed on the seed: the verifier wrote no reward.txt)" in lines
    assert "    checking nothing" in lines


def test_verify_in_bwrap_without_bwrap_is_one_line_and_exit_2(tmp_path: Path) -> None:
    empty = tmp_path / "bin"
    empty.mkdir()  # a PATH where bwrap cannot be found
    done = subprocess.run(
        [sys.executable, "-m", "evals", "verify", "--sandbox", "bwrap", "--tasks", TASK_NAMES[0]],
        cwd=Path(__file__).resolve().parents[3],
        env={**os.environ, "PATH": str(empty)},
        capture_output=True,
        text=True,
        timeout=120,
    )
    assert done.returncode == 2, done.stderr
    assert "Traceback" not in done.stderr
    assert len(done.stderr.splitlines()) == 1
    assert "bwrap" in done.stderr
