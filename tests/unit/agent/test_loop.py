"""The Agent Loop, driven by pydantic-ai's FunctionModel streaming scripted responses."""

from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaThinkingPart, DeltaToolCall, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.facts import is_facts
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import (
    MessageDelivered,
    TextDelta,
    ThinkingDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.processes.local import LocalExecutor


def shout(ctx: RunContext[AgentDeps], word: str) -> str:
    """Upper-case a word."""
    if not word:
        raise ModelRetry("word must not be empty")
    return word.upper()


def tool_results(messages: list[ModelMessage]) -> list[str]:
    return [
        part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


async def calls_shout_then_answers(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
    """First request: think, talk, call `shout`; second: answer with what the tool returned."""
    results = tool_results(messages)
    if not results:
        yield {0: DeltaThinkingPart(content="I should shout.")}
        yield "Calling the tool. "
        yield {1: DeltaToolCall(name="shout", json_args='{"word": "hi"}', tool_call_id="call-1")}
    else:
        yield "The tool said "
        yield f"{results[-1]}."


def make_loop(stream_function, tmp_path: Path, max_requests: int = 50) -> AgentLoop:
    model = FunctionModel(stream_function=stream_function)
    agent = build_agent(model, tools=[ToolSpec("shout", shout, ToolTraits(ToolKind.READ_ONLY))])
    return AgentLoop(
        agent, AgentDeps(LocalExecutor(tmp_path), Settings(), harness_home=tmp_path), max_requests=max_requests
    )


async def collect(loop: AgentLoop, prompt: str) -> list:
    return [event async for event in loop.run_turn(prompt)]


async def test_a_turn_streams_thinking_text_tool_calls_usage_and_the_answer(tmp_path: Path) -> None:
    loop = make_loop(calls_shout_then_answers, tmp_path)
    events = await collect(loop, "shout hi")

    kinds = [type(event) for event in events]
    assert kinds[0] is ThinkingDelta
    assert TextDelta in kinds
    started = next(e for e in events if isinstance(e, ToolCallStarted))
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert (started.call.name, started.call.args) == ("shout", {"word": "hi"})
    assert (finished.result.call_id, finished.result.content, finished.result.is_error) == ("call-1", "HI", False)
    assert kinds.index(ToolCallStarted) < kinds.index(ToolCallFinished)
    assert sum(isinstance(e, UsageUpdated) for e in events) == 2
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "The tool said HI."
    assert events[-1].usage.requests == 2
    text = "".join(e.text for e in events if isinstance(e, TextDelta))
    assert text == "Calling the tool. The tool said HI."


async def test_history_and_usage_carry_over_to_the_next_turn(tmp_path: Path) -> None:
    seen_history_lengths: list[int] = []

    async def echo(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen_history_lengths.append(len(messages))
        yield "ok"

    loop = make_loop(echo, tmp_path)
    await collect(loop, "one")
    await collect(loop, "two")
    assert seen_history_lengths == [1, 3]  # the second request saw prompt, answer, prompt
    assert loop.usage.requests == 2
    loop.clear()
    await collect(loop, "three")
    assert seen_history_lengths[-1] == 1
    assert loop.usage.requests == 3  # clearing forgets the conversation, not the cost


async def test_a_tool_retry_comes_back_as_an_error_result(tmp_path: Path) -> None:
    async def empty_word_then_answer(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
        if len(messages) == 1:
            yield {0: DeltaToolCall(name="shout", json_args='{"word": ""}', tool_call_id="c")}
        else:
            yield "gave up"

    events = await collect(make_loop(empty_word_then_answer, tmp_path), "go")
    finished = next(e for e in events if isinstance(e, ToolCallFinished))
    assert finished.result.is_error
    assert "word must not be empty" in finished.result.content


async def test_the_request_ceiling_stops_the_run_and_keeps_the_history(tmp_path: Path) -> None:
    async def always_calls(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
        yield {0: DeltaToolCall(name="shout", json_args='{"word": "again"}', tool_call_id=f"c{len(messages)}")}

    loop = make_loop(always_calls, tmp_path, max_requests=3)
    with pytest.raises(UsageLimitExceeded):
        await collect(loop, "loop forever")
    assert loop.history == []  # the failed turn did not leave half a conversation behind


async def test_instructions_name_the_workspace(tmp_path: Path) -> None:
    seen: list[str | None] = []

    async def record(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        seen.append(info.instructions)
        yield "ok"

    await collect(make_loop(record, tmp_path), "where am I?")
    assert seen[0] is not None
    assert f"Working directory: {tmp_path}" in seen[0]
    assert "You are decode" in seen[0]


async def test_a_message_enqueued_into_the_running_turn_is_reported_when_the_model_gets_it(tmp_path: Path) -> None:
    # Lesson 10: while a turn runs, `loop.run` takes messages; the loop says when one is delivered.
    seen: list[list[str]] = []

    async def record(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
        seen.append([p.content for m in messages for p in m.parts if p.part_kind == "user-prompt" and not is_facts(p)])
        if len(seen) == 1:
            yield {0: DeltaToolCall(name="shout", json_args='{"word": "hi"}', tool_call_id="c")}
        else:
            yield "ok"

    loop = make_loop(record, tmp_path)
    assert loop.run is None
    events = []
    async for event in loop.run_turn("go"):
        if isinstance(event, ToolCallStarted):
            assert loop.run is not None
            enqueue_id = loop.run.enqueue("in French, please")
        events.append(event)
    assert loop.run is None

    delivered = [e for e in events if isinstance(e, MessageDelivered)]
    assert [(e.message_id, e.text) for e in delivered] == [(enqueue_id, "in French, please")]
    assert seen == [["go"], ["go", "in French, please"]]
