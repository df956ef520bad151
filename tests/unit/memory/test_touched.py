"""Subfolder memory: a folder's CLAUDE.md / AGENTS.md joins once the agent has worked in that folder."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from decode.agent.facts import facts_of
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.memory.files import load_memory
from decode.memory.touched import leading_cd, touched_folders
from decode.processes.local import LocalExecutor
from tests.conftest import WriteText


def _calls(*calls: tuple[str, dict[str, object]]) -> list[ModelMessage]:
    return [ModelResponse(parts=[ToolCallPart(name, args) for name, args in calls])]


@pytest.fixture
def project(tmp_path: Path, write: WriteText) -> Path:
    write(tmp_path / "AGENTS.md", "root rules")
    write(tmp_path / "web" / "CLAUDE.md", "web rules")
    write(tmp_path / "web" / "ui" / "AGENTS.md", "ui rules")
    write(tmp_path / "web" / "ui" / "button.tsx", "export {}")
    write(tmp_path / "api" / "CLAUDE.md", "api rules")
    return tmp_path


def test_folders_come_from_paths_commands_and_the_ledger_in_first_touch_order(project: Path) -> None:
    deps = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)
    deps.read_ledger.stamps[project / "docs" / "x.md"] = None  # type: ignore[assignment]  # only the key counts
    messages = _calls(
        ("read", {"path": "web/ui/button.tsx"}),
        ("grep", {"pattern": "x", "path": "api"}),
        ("bash", {"command": "cd web && npm test"}),
        ("read", {"path": "/etc/hosts"}),  # outside the Workspace
        ("read", {"path": "harness:skills/commit/SKILL.md"}),  # decode's own files
        ("read", {"path": "README.md"}),  # the Workspace itself
    )

    assert touched_folders(messages, deps) == (Path("web/ui"), Path("api"), Path("web"), Path("docs"))


def test_leading_cd() -> None:
    assert leading_cd("cd 'my dir' && make") == "my dir"
    assert leading_cd("cd pkg; pytest") == "pkg"
    assert leading_cd("make -C pkg") is None
    assert leading_cd("cd a b && x") is None


def test_a_subfolder_brings_the_files_between_in_order(project: Path) -> None:
    texts = [f.text for f in load_memory(project, subfolders=[Path("web/ui")])]

    assert texts == ["root rules", "web rules", "ui rules"]
    assert "api rules" not in texts


def test_a_subfolder_linking_out_of_the_project_brings_nothing(tmp_path: Path, write: WriteText) -> None:
    write(tmp_path / "elsewhere" / "CLAUDE.md", "foreign rules")
    project = tmp_path / "project"
    project.mkdir()
    (project / "vendor").symlink_to(tmp_path / "elsewhere")

    assert load_memory(project, subfolders=[Path("vendor")]) == []


async def test_the_agent_sees_a_subfolders_memory_after_reading_a_file_there(project: Path) -> None:
    from decode.agent.factory import build_agent
    from decode.agent.loop import AgentLoop
    from decode.tools.read import READ

    seen: list[str] = []

    async def answer(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        seen.append(facts_of(messages[-1]))
        if len(seen) == 1:
            yield {0: DeltaToolCall(name="read", json_args='{"path": "web/ui/button.tsx"}')}
        else:
            yield "done"

    loop = AgentLoop(
        build_agent(FunctionModel(stream_function=answer), tools=[READ]),
        AgentDeps(LocalExecutor(project), Settings(), harness_home=project),
    )
    async for _ in loop.run_turn("look at the button"):
        pass

    before, after = seen
    assert "root rules" in before
    assert "web rules" not in before
    assert tuple(rule for rule in ("web rules", "ui rules") if rule in after) == ("web rules", "ui rules")
    assert "api rules" not in after
