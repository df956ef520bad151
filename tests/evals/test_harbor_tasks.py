"""decode's benchmark tasks through Harbor's own task loader: both read every task the same way.

Skipped in the project's environment (harbor is not a dependency); `make eval-harbor-check`, a CI
step, runs this file with harbor 0.26.0 added (`uv run --with`), so in CI it runs.
"""

import asyncio
import json
import shutil
import sys
from pathlib import Path

import pytest

pytest.importorskip("harbor", reason="no harbor here: `make eval-harbor-check` runs this file with it")

from harbor.agents.oracle import OracleAgent
from harbor.models.agent.context import AgentContext
from harbor.models.task.task import Task as HarborTask
from harbor.models.trial.paths import EnvironmentPaths, TrialPaths
from harbor.verifier.verifier import Verifier

from evals.benchmark.grade import CONTAINER_REWARDS, CONTAINER_TESTS
from evals.benchmark.tasks import TASKS_ROOT, load_task
from evals.benchmark.verify import CONTAINER_SOLUTION
from evals.harbor_agent import RESULT_FILE, DecodeAgent
from tests.evals.harbor_local import LocalEnvironment

REPO = Path(__file__).parents[2]
DECODE = REPO / ".venv" / "bin" / "decode"

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


needs_bwrap = pytest.mark.skipif(shutil.which("bwrap") is None, reason="the local environment maps /app with bwrap")


def local_environment(tmp_path: Path, folder: Path) -> tuple[LocalEnvironment, TrialPaths]:
    trial_paths = TrialPaths(trial_dir=tmp_path / "trial")
    trial_paths.mkdir()
    environment = LocalEnvironment(
        environment_dir=folder / "environment",
        environment_name=folder.name,
        session_id="test",
        trial_paths=trial_paths,
        task_env_config=HarborTask(folder).config.environment,
    )
    return environment, trial_paths


async def harbors_verdict(folder: Path, environment: LocalEnvironment, trial_paths: TrialPaths) -> dict:
    result = await Verifier(task=HarborTask(folder), trial_paths=trial_paths, environment=environment).verify()
    return result.rewards


@needs_bwrap
@pytest.mark.parametrize("folder", HARBOR_LAYOUT, ids=lambda path: path.name)
def test_harbors_own_oracle_and_verifier_grade_the_harbor_tasks_1_and_an_untouched_one_0(
    tmp_path: Path, folder: Path
) -> None:
    async def trial(solve: bool) -> dict:
        environment, trial_paths = local_environment(tmp_path / ("solved" if solve else "untouched"), folder)
        await environment.start(force_build=False)
        if solve:
            oracle = OracleAgent(logs_dir=trial_paths.agent_dir, task_dir=folder, trial_paths=trial_paths)
            await oracle.run(HarborTask(folder).instruction, environment, AgentContext())
        return await harbors_verdict(folder, environment, trial_paths)

    assert asyncio.run(trial(solve=True)) == {"reward": 1}
    assert asyncio.run(trial(solve=False)) == {"reward": 0}


@needs_bwrap
@pytest.mark.skipif(not DECODE.exists(), reason=f"no decode at {DECODE} (make install)")
def test_decode_as_harbors_agent_solves_a_harbor_task_through_harbors_environment_api(tmp_path: Path) -> None:
    folder = TASKS_ROOT / "write-greeting-script"
    script = tmp_path / "script.json"
    solve = "printf '#!/usr/bin/env bash\\necho \"Hello, ${1:-world}!\"\\n' > /app/greet.sh && chmod +x /app/greet.sh"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": solve}}]}, {"text": "Done."}]))
    environment, trial_paths = local_environment(tmp_path, folder)
    environment.read_only = (REPO, Path(sys.base_prefix).resolve(), tmp_path)  # decode's venv, its Python, the script
    environment.path_first = (str(DECODE.parent),)
    agent = DecodeAgent(logs_dir=trial_paths.agent_dir, model_name=f"script:{script}", source="x")

    async def trial() -> tuple[AgentContext, dict]:
        await environment.start(force_build=False)
        context = AgentContext()
        await agent.run(HarborTask(folder).instruction, environment, context)
        await environment.download_dir("/logs/agent", trial_paths.agent_dir)  # what Harbor's trial syncs back
        agent.populate_context_post_run(context)
        return context, await harbors_verdict(folder, environment, trial_paths)

    context, rewards = asyncio.run(trial())
    assert rewards == {"reward": 1}, (trial_paths.agent_dir / RESULT_FILE).read_text()
    assert context.metadata is not None
    assert context.metadata["num_requests"] == 2
    assert context.metadata["exit_code"] == 0
