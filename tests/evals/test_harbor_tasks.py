"""decode's benchmark tasks through Harbor's own task loader: both read every task the same way.

Skipped in the project's environment (harbor is not a dependency); `make eval-harbor-check`, a CI
step, runs this file with harbor 0.26.0 added (`uv run --with`), so in CI it runs.
"""

from pathlib import Path

import pytest

pytest.importorskip("harbor", reason="no harbor here: `make eval-harbor-check` runs this file with it")

from harbor.models.task.task import Task as HarborTask
from harbor.models.trial.paths import EnvironmentPaths

from evals.benchmark.grade import CONTAINER_REWARDS, CONTAINER_TESTS
from evals.benchmark.tasks import TASKS_ROOT, load_task
from evals.benchmark.verify import CONTAINER_SOLUTION

TASKS = sorted(path for path in TASKS_ROOT.iterdir() if (path / "task.toml").is_file())
HARBOR_LAYOUT = [path for path in TASKS if not (path / "environment" / "seed").exists()]


def test_the_tasks_include_some_in_harbors_own_layout() -> None:
    assert len(TASKS) >= 20
    assert [path.name for path in HARBOR_LAYOUT] == [
        "fix-fahrenheit-converter",
        "word-frequency-top5",
        "write-greeting-script",
    ]


@pytest.mark.parametrize("folder", TASKS, ids=lambda path: path.name)
def test_harbors_loader_reads_every_task_as_decodes_does(folder: Path) -> None:
    assert HarborTask.is_valid_dir(folder)
    theirs, ours = HarborTask(folder), load_task(folder)
    assert theirs.name == ours.name
    assert theirs.instruction.strip() == ours.instruction
    assert theirs.config.verifier.timeout_sec == ours.verifier_timeout_s
    assert (theirs.config.agent.timeout_sec or 600.0) == ours.agent_timeout_s
    assert theirs.config.metadata.get("difficulty", "unknown") == ours.difficulty
    assert theirs.config.metadata.get("category", "unknown") == ours.category
    assert (theirs.config.environment.workdir or "/app") == ours.workdir
    assert theirs.paths.discovered_test_path == ours.tests_dir / "test.sh"
    assert theirs.paths.discovered_solve_path == ours.solution_script
    assert (theirs.paths.environment_dir / "Dockerfile").is_file()


def test_decodes_verifier_paths_are_harbors() -> None:
    paths = EnvironmentPaths()
    assert (paths.tests_dir, paths.verifier_dir) == (CONTAINER_TESTS, CONTAINER_REWARDS)
    assert str(paths.solution_dir) == CONTAINER_SOLUTION
    assert paths.reward_text_path.name == "reward.txt"
    assert paths.reward_json_path.name == "reward.json"
