from pathlib import Path

from decode.entities.deps import AgentDeps
from decode.config.settings import Settings
from decode.tools.local import LocalExecutor


def test_defaults_put_the_harness_home_and_the_executor_at_the_workspace(tmp_path: Path) -> None:
    deps = AgentDeps(workspace=tmp_path, settings=Settings())
    assert deps.harness_home == tmp_path
    assert isinstance(deps.executor, LocalExecutor)
    assert deps.permissions is None  # no gate unless a front end installs one
    assert deps.approve is None  # headless: nobody to ask


def test_a_sandboxed_workspace_keeps_the_launch_directory_as_harness_home(tmp_path: Path) -> None:
    launch, sandbox = tmp_path / "launch", tmp_path / "sandbox"
    deps = AgentDeps(workspace=sandbox, settings=Settings(), harness_home=launch)
    assert (deps.workspace, deps.harness_home) == (sandbox, launch)


def test_each_conversation_has_its_own_read_ledger(tmp_path: Path) -> None:
    first, second = AgentDeps(tmp_path, Settings()), AgentDeps(tmp_path, Settings())
    assert first.read_ledger is not second.read_ledger
