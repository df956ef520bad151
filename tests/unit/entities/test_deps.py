"""AgentDeps: what every tool call receives; the Workspace is wherever its executor acts."""

from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.ledger import ReadLedger
from decode.processes.local import LocalExecutor


def test_the_workspace_is_the_executor_s(tmp_path: Path) -> None:
    deps = AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path)
    assert deps.workspace == tmp_path.resolve()
    assert (deps.harness_home, deps.on_tool_output) == (tmp_path, None)
    assert isinstance(deps.read_ledger, ReadLedger)


def test_the_workspace_follows_the_executor_and_cannot_be_set_apart(tmp_path: Path) -> None:
    first, second = tmp_path / "first", tmp_path / "second"
    first.mkdir()
    second.mkdir()
    deps = AgentDeps(LocalExecutor(first), Settings(), harness_home=tmp_path)
    deps.executor = LocalExecutor(second)
    assert deps.workspace == second.resolve()
    with pytest.raises(AttributeError):
        deps.workspace = first  # type: ignore[misc]


def test_a_sandboxed_workspace_keeps_the_launch_directory_as_harness_home(tmp_path: Path) -> None:
    launch, sandbox = tmp_path / "launch", tmp_path / "sandbox"
    sandbox.mkdir()
    deps = AgentDeps(LocalExecutor(sandbox), Settings(), harness_home=launch)
    assert (deps.workspace, deps.harness_home) == (sandbox.resolve(), launch)


def test_each_agent_deps_has_its_own_read_ledger(tmp_path: Path) -> None:
    executor = LocalExecutor(tmp_path)
    first, second = AgentDeps(executor, Settings(), tmp_path), AgentDeps(executor, Settings(), tmp_path)
    assert first.read_ledger is not second.read_ledger
    shared = ReadLedger()
    assert AgentDeps(executor, Settings(), tmp_path, read_ledger=shared).read_ledger is shared
