"""The composition root and agents: `LoopOptions.agent`, the agent's mode and model, `switch_agent()`."""

import json
from pathlib import Path

import pytest

from decode.agent.compose import LoopOptions, build_loop
from decode.agent.compose_agents import switch_agent
from decode.agents.catalog import UnknownAgentError
from decode.config.settings import Settings
from decode.models.errors import ModelConfigError
from decode.permissions.types import Mode


def agent_file(home: Path, name: str, extra: str = "") -> None:
    folder = home / ".decode" / "agents"
    folder.mkdir(parents=True, exist_ok=True)
    (folder / f"{name}.md").write_text(f"---\nname: {name}\ndescription: d\n{extra}---\nBe {name}.\n")


def test_the_default_agent_is_build(home: Path, settings: Settings) -> None:
    conversation = build_loop(LoopOptions(home, model="test"), settings)
    assert conversation.agent is not None
    assert conversation.agent.definition.name == "build"
    assert conversation.gate.mode is Mode.DEFAULT
    assert not conversation.gate.read_only
    assert conversation.subagents is not None  # the primary agent can always spawn


def test_an_agents_mode_and_read_only_promise_reach_the_gate(home: Path, settings: Settings) -> None:
    plan = build_loop(LoopOptions(home, model="test", agent="plan"), settings)
    explore = build_loop(LoopOptions(home, model="test", agent="explore"), settings)
    chosen = build_loop(LoopOptions(home, model="test", agent="plan", permission_mode=Mode.ACCEPT_EDITS), settings)

    assert plan.gate.mode is Mode.PLAN
    assert plan.session.mode == "plan"
    assert explore.gate.read_only
    assert chosen.gate.mode is Mode.ACCEPT_EDITS  # --permission-mode wins over the agent's


def test_an_agent_naming_a_model_runs_it_unless_model_is_given(home: Path, settings: Settings) -> None:
    script = home.parent / "s.json"
    script.write_text(json.dumps([{"text": "hi"}]))
    agent_file(home, "scripted", f"model: script:{script}\n")

    assert build_loop(LoopOptions(home, agent="scripted"), settings).session.model == f"script:{script}"
    assert build_loop(LoopOptions(home, model="test", agent="scripted"), settings).session.model == "test"


def test_an_unknown_agent_is_a_config_error_listing_the_agents(home: Path, settings: Settings) -> None:
    with pytest.raises(UnknownAgentError, match="no agent named 'nope'"):
        build_loop(LoopOptions(home, model="test", agent="nope"), settings)


def test_switch_agent_changes_tools_mode_and_goes_back_keeping_the_history(home: Path, settings: Settings) -> None:
    conversation = build_loop(LoopOptions(home, model="test", permission_mode=Mode.ACCEPT_EDITS), settings)
    conversation.loop.history = ["kept"]  # type: ignore[list-item]

    switch_agent(conversation, "plan")
    assert conversation.gate.mode is Mode.PLAN
    assert conversation.session.mode == "plan"
    switch_agent(conversation, "explore")  # names no mode: the conversation's own, not plan's
    assert conversation.gate.mode is Mode.ACCEPT_EDITS
    assert conversation.gate.read_only
    switch_agent(conversation, "build")
    assert conversation.gate.mode is Mode.ACCEPT_EDITS  # the conversation's own mode again
    assert not conversation.gate.read_only
    assert conversation.loop.history == ["kept"]


def test_leaving_the_agent_a_conversation_started_as_returns_to_default(home: Path, settings: Settings) -> None:
    conversation = build_loop(LoopOptions(home, model="test", agent="plan"), settings)
    switch_agent(conversation, "build")
    assert conversation.gate.mode is Mode.DEFAULT


def test_switch_agent_to_an_unknown_or_broken_agent_changes_nothing(home: Path, settings: Settings) -> None:
    agent_file(home, "odd", "model: nowhere:model\n")
    conversation = build_loop(LoopOptions(home, model="test"), settings)

    with pytest.raises(UnknownAgentError):
        switch_agent(conversation, "nope")
    with pytest.raises(ModelConfigError):
        switch_agent(conversation, "odd")
    assert conversation.agent is not None
    assert conversation.agent.definition.name == "build"
    assert conversation.session.model == "test"


def test_switching_back_to_an_agent_without_a_model_returns_to_the_model_before(home: Path, settings: Settings) -> None:
    script = home.parent / "s.json"
    script.write_text(json.dumps([{"text": "hi"}]))
    agent_file(home, "scripted", f"model: script:{script}\n")
    agent_file(home, "other", f"model: script:{script}\npermissionMode: plan\n")
    conversation = build_loop(LoopOptions(home, model="test"), settings)

    switch_agent(conversation, "scripted")
    assert conversation.session.model == f"script:{script}"
    switch_agent(conversation, "other")  # one agent's model to another's: the model before both is kept
    switch_agent(conversation, "explore")  # names no model: the conversation's own again
    assert conversation.session.model == "test"
    assert type(conversation.loop.model).__name__ == "TestModel"
    switch_agent(conversation, "build")
    assert conversation.session.model == "test"


def test_an_agent_started_with_its_own_model_returns_to_the_settings_model(home: Path, settings: Settings) -> None:
    script = home.parent / "s.json"
    script.write_text(json.dumps([{"text": "hi"}]))
    agent_file(home, "scripted", f"model: script:{script}\n")
    conversation = build_loop(LoopOptions(home, agent="scripted"), settings.model_copy(update={"model": "test"}))
    assert conversation.session.model == f"script:{script}"

    switch_agent(conversation, "build")

    assert conversation.session.model == "test"


def test_the_primary_agent_is_recorded_and_restored_on_resume(home: Path, settings: Settings) -> None:
    from decode.context.replay import load_session
    from decode.entities.usage import Usage

    first = build_loop(LoopOptions(home, model="test", agent="explore"), settings)
    first.session.record_turn([], Usage())
    assert load_session(first.session.log.path).agent == "explore"
    switch_agent(first, "plan")
    first.session.record_turn([], Usage())

    resumed = build_loop(LoopOptions(home, resume=""), settings)
    assert resumed.agent is not None
    assert resumed.agent.definition.name == "plan"
    assert resumed.gate.mode is Mode.PLAN
    chosen = build_loop(LoopOptions(home, resume="", agent="explore"), settings)  # --agent wins
    assert chosen.agent is not None
    assert chosen.agent.definition.name == "explore"


def test_a_resumed_agent_keeps_the_mode_the_session_was_in(home: Path, settings: Settings) -> None:
    from decode.entities.usage import Usage

    first = build_loop(LoopOptions(home, model="test", agent="plan"), settings)
    first.gate.mode = Mode.DEFAULT  # Shift+Tab out of plan mode while being `plan`
    first.session.switch_mode("default")
    first.session.record_turn([], Usage())

    resumed = build_loop(LoopOptions(home, resume=""), settings)

    assert resumed.agent is not None
    assert resumed.agent.definition.name == "plan"
    assert resumed.gate.mode is Mode.DEFAULT


def test_a_resumed_session_whose_agent_is_gone_is_build_with_a_warning(
    home: Path, settings: Settings, caplog: pytest.LogCaptureFixture
) -> None:
    from decode.entities.usage import Usage

    agent_file(home, "temporary")
    first = build_loop(LoopOptions(home, model="test", agent="temporary"), settings)
    first.session.record_turn([], Usage())
    (home / ".decode" / "agents" / "temporary.md").unlink()

    resumed = build_loop(LoopOptions(home, resume=""), settings)

    assert resumed.agent is not None
    assert resumed.agent.definition.name == "build"
    assert "temporary" in caplog.text
