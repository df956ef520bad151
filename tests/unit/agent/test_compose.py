"""The composition root: `build_loop()` wires session, model, executor, gate and tools; `switch_model()`."""

import json
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai.models.test import TestModel

from decode.agent.compose import Conversation, LoopOptions, build_loop, switch_model
from decode.config.settings import Settings
from decode.context.catalog import SessionNotFoundError
from decode.entities.events import ToolCallFinished
from decode.models.errors import ModelConfigError
from decode.permissions.types import Mode
from decode.processes.local import LocalExecutor


@pytest.fixture
def script(tmp_path: Path):
    """`script(responses)`: write a scripted-model file; returns its model string."""
    counter = iter(range(1000))

    def write(responses: list[dict[str, Any]]) -> str:
        path = tmp_path / f"script-{next(counter)}.json"
        path.write_text(json.dumps(responses), encoding="utf-8")
        return f"script:{path}"

    return write


async def finished(conversation: Conversation, prompt: str) -> list[ToolCallFinished]:
    """Run one turn to its end; returns the tool results it produced."""
    return [event async for event in conversation.loop.run_turn(prompt) if isinstance(event, ToolCallFinished)]


def test_a_new_session_runs_the_given_model_in_the_default_mode(home: Path, settings: Settings, script) -> None:
    model = script([{"text": "hi"}])

    conversation = build_loop(LoopOptions(home, model=model), settings)

    assert conversation.session.model == model
    assert not conversation.session.log.path.exists()  # a new session: no file before its first turn
    assert conversation.loop.session is conversation.session
    assert conversation.loop.history == []
    assert conversation.gate.mode is Mode.DEFAULT
    assert conversation.session.mode == "default"
    assert conversation.resumed_mode is False
    assert conversation.loop.max_requests == settings.max_requests
    assert (conversation.loop.deps.workspace, conversation.loop.deps.harness_home) == (home, home)


def test_the_settings_files_default_mode_is_the_gates_mode(
    home: Path, settings: Settings, script, trust_settings: Callable[[Path], Path]
) -> None:
    (home / ".decode").mkdir()
    (home / ".decode" / "settings.json").write_text('{"permissions": {"defaultMode": "accept-edits"}}')
    trust_settings(home)

    conversation = build_loop(LoopOptions(home, model=script([{"text": "hi"}])), settings)

    assert conversation.gate.mode is Mode.ACCEPT_EDITS
    assert conversation.session.mode == "accept-edits"
    assert conversation.resumed_mode is False


def test_without_a_model_the_settings_model_is_used(home: Path, script) -> None:
    model = script([{"text": "hi"}])
    conversation = build_loop(LoopOptions(home), Settings(_env_file=None, model=model))  # type: ignore[call-arg]
    assert conversation.session.model == model


async def test_a_resumed_session_keeps_its_mode_model_and_history(home: Path, settings: Settings, script) -> None:
    model = script([{"text": "first answer"}])
    first = build_loop(LoopOptions(home, model=model, permission_mode=Mode.PLAN), settings)
    await finished(first, "remember 42")

    resumed = build_loop(LoopOptions(home, resume=""), settings)

    assert resumed.session.session_id == first.session.session_id
    assert resumed.session.model == model
    assert resumed.gate.mode is Mode.PLAN
    assert resumed.session.mode == "plan"
    assert resumed.resumed_mode is True
    assert resumed.loop.history == first.loop.history


async def test_an_explicit_mode_wins_over_the_resumed_one(home: Path, settings: Settings, script) -> None:
    first = build_loop(LoopOptions(home, model=script([{"text": "ok"}]), permission_mode=Mode.PLAN), settings)
    await finished(first, "hi")

    resumed = build_loop(LoopOptions(home, resume="", permission_mode=Mode.ACCEPT_EDITS), settings)

    assert resumed.gate.mode is Mode.ACCEPT_EDITS
    assert resumed.session.mode == "accept-edits"
    assert resumed.resumed_mode is False


def test_resuming_a_session_that_does_not_exist_says_so(home: Path, settings: Settings) -> None:
    with pytest.raises(SessionNotFoundError):
        build_loop(LoopOptions(home, model="test", resume="nope"), settings)


def test_a_missing_key_is_a_model_config_error_and_leaves_no_session(home: Path, settings: Settings) -> None:
    with pytest.raises(ModelConfigError, match="GEMINI_API_KEY is not set"):
        build_loop(LoopOptions(home, model="google-gla:x"), settings)
    assert not (home / ".decode" / "sessions").exists()


def test_the_given_executor_is_the_tools_workspace(home: Path, settings: Settings, tmp_path: Path) -> None:
    sandbox = tmp_path / "sandbox"
    sandbox.mkdir()
    executor = LocalExecutor(sandbox)

    conversation = build_loop(LoopOptions(home, model="test", executor=executor, max_requests=3), settings)

    assert conversation.loop.deps.executor is executor
    assert (conversation.loop.deps.workspace, conversation.loop.deps.harness_home) == (sandbox, home)
    assert conversation.loop.max_requests == 3


async def test_headless_a_call_that_needs_approval_is_refused(home: Path, settings: Settings, script) -> None:
    model = script([{"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]}, {"text": "Okay."}])
    conversation = build_loop(LoopOptions(home, model=model), settings)  # no `approve`: headless

    (result,) = await finished(conversation, "make a file")

    assert result.result.is_error
    assert "this run is headless" in result.result.content
    assert not (home / "made.txt").exists()


async def test_switching_the_model_keeps_the_conversation_the_read_ledger_and_the_gate(
    home: Path, settings: Settings, script
) -> None:
    (home / "notes.txt").write_text("buy milk\n")
    model = script([{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}, {"text": "Milk."}])
    conversation = build_loop(LoopOptions(home, model=model, permission_mode=Mode.ACCEPT_EDITS), settings)
    (read,) = await finished(conversation, "what is in my notes?")
    assert not read.result.is_error
    loop = conversation.loop
    history, usage, ledger, gate, deps = loop.history, loop.usage, loop.deps.read_ledger, conversation.gate, loop.deps
    notes = await loop.deps.executor.realpath(home / "notes.txt")  # the ledger keys files by resolved path
    assert notes in ledger.stamps

    switch_model(conversation, "test")

    assert isinstance(loop.model, TestModel)
    assert conversation.session.model == "test"
    assert conversation.loop is loop
    assert loop.history is history
    assert loop.usage is usage
    assert usage.requests == 2
    assert loop.deps is deps
    assert loop.deps.read_ledger is ledger
    assert notes in ledger.stamps
    assert conversation.gate is gate
    assert gate.mode is Mode.ACCEPT_EDITS


def test_a_model_that_cannot_work_changes_nothing(home: Path, settings: Settings, script) -> None:
    model = script([{"text": "hi"}])
    conversation = build_loop(LoopOptions(home, model=model), settings)
    before = conversation.loop.model

    with pytest.raises(ModelConfigError, match="GEMINI_API_KEY is not set"):
        switch_model(conversation, "google-gla:x")

    assert conversation.loop.model is before
    assert conversation.session.model == model
