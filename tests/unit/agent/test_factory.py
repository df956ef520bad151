"""build_agent(): the instructions the model reads, the facts the newest request carries, the tools."""

from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.agent.factory import BASE_INSTRUCTIONS, build_agent
from decode.agent.facts import facts_of
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools
from tests.unit.agent.test_git_state import git, held_git


async def first_request(project: Path, **kwargs: Any) -> tuple[AgentInfo, str]:
    """What the model was told on the first request: its info (instructions, tools), and the facts."""
    seen: list[tuple[AgentInfo, str]] = []

    async def record(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen.append((info, facts_of(messages[-1])))
        yield "ok"

    agent = build_agent(FunctionModel(stream_function=record), **kwargs)
    async with agent.run_stream(
        "hi", deps=AgentDeps(LocalExecutor(project), Settings(), harness_home=project)
    ) as result:
        await result.get_output()
    return seen[0]


async def test_the_model_sees_the_default_tools_and_the_skill_tool(project: Path) -> None:
    info, _ = await first_request(project, tools=default_tools())
    names = {tool.name for tool in info.function_tools}
    assert names == {spec.name for spec in default_tools()} | {"skill"}
    assert {"read", "write", "edit", "glob", "grep", "bash"} <= names


async def test_instructions_hold_the_base_and_the_environment_and_the_facts_memory_and_skills(
    project: Path,
) -> None:
    (project / "AGENTS.md").write_text("Always run the tests with `make test`.\n")
    info, facts = await first_request(project)
    assert info.instructions is not None
    assert BASE_INSTRUCTIONS in info.instructions
    assert f"Working directory: {project}" in info.instructions
    assert "Always run the tests with `make test`." in facts
    assert "- commit:" in facts  # the built-in skill's catalogue line
    assert "Today (UTC): " in facts
    assert "Git: " in facts


async def test_memory_edits_apply_at_the_next_request_and_leave_the_instructions_as_they_were(project: Path) -> None:
    (project / "AGENTS.md").write_text("Use tabs.\n")
    before, facts = await first_request(project)
    assert "Use tabs." in facts
    (project / "AGENTS.md").write_text("Use spaces.\n")
    after, facts = await first_request(project)
    assert "Use spaces." in facts
    assert "Use tabs." not in facts
    assert after.instructions == before.instructions


async def test_a_turns_first_request_does_not_wait_for_a_slow_git_status(project: Path, tmp_path: Path) -> None:
    git(project, "init", "-q")
    env, release, _ = held_git(tmp_path)  # its `git status` waits for `release`, which never comes here
    seen: list[str] = []

    async def record(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen.append(facts_of(messages[-1]))
        yield "ok"

    agent = build_agent(FunctionModel(stream_function=record))
    deps = AgentDeps(LocalExecutor(project, env=env), Settings(), harness_home=project)
    async with agent.run_stream("hi", deps=deps) as result:
        await result.get_output()

    assert not release.exists()  # the model was asked while git was still held
    assert "Git: the status is being taken (a later request will carry it)." in seen[0]
    release.touch()  # the status goes on in the background: let it end
