"""The composition root as steps: `run_steps` over one `Build`; a step added to a list reaches the agent."""

from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.agent.build import Build
from decode.agent.compose import STEPS, build_loop, run_steps
from decode.agent.compose_agents import build_subagent
from decode.agent.options import LoopOptions
from decode.agent.steps.agents import SUBAGENT_STEPS
from decode.agent.steps.core import choose_model, make_agent
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits


def test_a_step_that_reads_what_no_step_made_fails_at_once(tmp_path: Path, settings: Settings) -> None:
    build = Build(LoopOptions(tmp_path, model="test"), settings)
    with pytest.raises(AttributeError, match="session"):  # the model comes from the session (lesson 11)
        choose_model(build)


def test_a_step_added_before_the_agent_gives_it_a_tool(tmp_path: Path, settings: Settings) -> None:
    def shout(ctx: RunContext[AgentDeps], text: str) -> str:
        """Say it louder."""
        return text.upper()

    def add_shout(build: Build) -> None:  # what a later lesson's step looks like
        build.tools.append(ToolSpec("shout", shout, ToolTraits(ToolKind.SIDE_EFFECT_FREE)))

    steps = list(STEPS)
    steps.insert(steps.index(make_agent), add_shout)
    conversation = run_steps(steps, Build(LoopOptions(tmp_path, model="test", mcp=False), settings))

    assert "shout" in conversation.loop.agent._function_toolset.tools  # the agent has it
    assert conversation.settings is settings
    assert "shout" not in {spec.name for spec in conversation.options.tools or ()}  # not a tool the options gave


def test_the_options_keep_the_tools_they_were_built_with(tmp_path: Path, settings: Settings) -> None:
    conversation = build_loop(LoopOptions(tmp_path, model="test", mcp=False), settings)
    names = {spec.name for spec in conversation.options.tools or ()}
    assert {"read", "bash"} <= names  # None asked for decode's own tools
    assert "agent" not in names  # the `agent` tool is the conversation's own, not handed to a subagent


def test_a_subagent_takes_its_own_steps_in_place_of_four(tmp_path: Path) -> None:
    replaced = {step.__name__: SUBAGENT_STEPS[step].__name__ for step in STEPS if step in SUBAGENT_STEPS}
    assert replaced == {
        "open_session": "child_session",
        "choose_model": "inherit_model",
        "build_gate": "fence_gate",
        "load_mcp": "parent_mcp",
    }
    with pytest.raises(ValueError, match="parent"):  # a subagent's steps need what its parent gives
        build_subagent(LoopOptions(tmp_path, model="test"), Settings(_env_file=None))  # type: ignore[call-arg]


def test_a_front_end_that_gives_no_tools_gets_none_of_decode_s(tmp_path: Path, settings: Settings) -> None:
    conversation = build_loop(LoopOptions(tmp_path, model="test", mcp=False, tools=()), settings)
    assert conversation.options.tools == ()  # `decode_tools` fills in only None


def test_the_conversation_is_the_parts_the_steps_made(tmp_path: Path, settings: Settings) -> None:
    build = Build(LoopOptions(tmp_path, model="test", mcp=False), settings)
    conversation = run_steps(STEPS, build)
    assert (conversation.loop, conversation.gate, conversation.session) == (build.loop, build.gate, build.session)
    assert conversation.agent is build.active  # the Active Agent, not the pydantic-ai Agent of the same name
