"""Lesson 02's build-along track: what the model gateway and the Agent Loop must do.

`make lesson-check N=02` runs these against your copy (`make lesson-start N=02`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

import pytest
from pydantic_ai import RunContext
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.models.errors import ModelConfigError
from decode.models.gateway import split_model_string


def count_words(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the words in a file of the workspace."""
    return len((ctx.deps.workspace / path).read_text().split())


WORD_COUNT = ToolSpec("word_count", count_words, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))


async def two_requests(messages: list[ModelMessage], info: AgentInfo):
    """A model that asks for the tool first, then answers."""
    if len(messages) == 1:
        yield "Let me count."
        yield {0: DeltaToolCall(name="word_count", json_args='{"path": "notes.txt"}', tool_call_id="call_1")}
    else:
        yield "notes.txt has "
        yield "6 words."


@pytest.fixture
def loop(tmp_path: Path) -> AgentLoop:
    (tmp_path / "notes.txt").write_text("The agent reads, acts and checks.\n")
    deps = AgentDeps(settings=Settings(gemini_api_key=None), harness_home=tmp_path)
    return AgentLoop(build_agent(FunctionModel(stream_function=two_requests), tools=[WORD_COUNT]), deps)


def test_a_model_string_splits_into_provider_and_name() -> None:
    """A model string splits into its provider and its name ('test' has no name)."""
    assert split_model_string("openrouter:qwen/qwen3-coder") == ("openrouter", "qwen/qwen3-coder")
    assert split_model_string("test") == ("test", "")


def test_a_bad_model_string_is_refused_before_any_request() -> None:
    """An unknown provider or a missing model name is a ModelConfigError."""
    with pytest.raises(ModelConfigError):
        split_model_string("nosuch:model")
    with pytest.raises(ModelConfigError):
        split_model_string("openrouter:")


async def test_a_turn_streams_text_and_ends_with_the_answer(loop: AgentLoop) -> None:
    """A turn streams the model's text as TextDeltas and ends with TurnFinished holding the answer."""
    events = [event async for event in loop.run_turn("How many words are in notes.txt?")]
    text = "".join(event.text for event in events if isinstance(event, TextDelta))
    assert text == "Let me count.notes.txt has 6 words."
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "notes.txt has 6 words."


async def test_a_tool_call_is_reported_started_then_finished(loop: AgentLoop) -> None:
    """A tool call is reported as ToolCallStarted, then ToolCallFinished with its result."""
    events = [event async for event in loop.run_turn("How many words are in notes.txt?")]
    started = [event for event in events if isinstance(event, ToolCallStarted)]
    finished = [event for event in events if isinstance(event, ToolCallFinished)]
    assert [event.call.name for event in started] == ["word_count"]
    assert [(event.result.name, event.result.content, event.result.is_error) for event in finished] == [
        ("word_count", "6", False)
    ]
    assert events.index(started[0]) < events.index(finished[0])


async def test_each_model_request_adds_its_usage(loop: AgentLoop) -> None:
    """Each model request yields a UsageUpdated, and the loop keeps the running total."""
    events = [event async for event in loop.run_turn("How many words are in notes.txt?")]
    updates = [event for event in events if isinstance(event, UsageUpdated)]
    assert len(updates) == 2
    assert updates[-1].total.requests == 2
    assert loop.usage.requests == 2


async def test_the_loop_keeps_the_conversation_for_the_next_turn(loop: AgentLoop) -> None:
    """After a turn the loop keeps the whole conversation: prompt, tool call, result and answer."""
    assert loop.history == []
    _ = [event async for event in loop.run_turn("How many words are in notes.txt?")]
    kinds = [message.kind for message in loop.history]
    assert kinds == ["request", "response", "request", "response"]
