"""A conversation with each provider, over real HTTP: streamed text, a tool round trip, usage, keys.

The model comes from `resolve_model()` exactly as `decode run` builds it; only the server is fake.
"""

import asyncio
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.agent.factory import build_agent
from decode.entities.deps import AgentDeps
from decode.entities.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated
from decode.entities.tools import ToolKind, ToolSpec
from decode.entities.usage import Usage
from decode.processes.local import LocalExecutor
from tests.integration.providers.conftest import SECRET, Provider
from tests.integration.providers.fake_servers import Call, Turn

pytestmark = pytest.mark.integration


def shout(ctx: RunContext[AgentDeps], word: str) -> str:
    """Say the word loudly."""
    return word.upper() + "!"


SHOUT = ToolSpec("shout", shout, ToolKind.OTHER)


def tokens(usage: Usage) -> Usage:
    """The counts alone: a model genai-prices knows (`claude-sonnet-5`, `gpt-5`) is priced too."""
    return usage.model_copy(update={"cost_usd": None})


def test_text_streams_in_pieces_and_ends_the_turn(provider: Provider) -> None:
    provider.server.plan(Turn(text="The answer is forty two"))

    events = provider.run_turn("What is the answer?")

    pieces = [event.text for event in events if isinstance(event, TextDelta)]
    assert len(pieces) > 1
    assert "".join(pieces) == "The answer is forty two"
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "The answer is forty two"
    [request] = provider.server.requests
    assert provider.server.is_stream(request)
    assert "What is the answer?" in request.body.decode()


def test_usage_of_the_request_reaches_usage_updated(provider: Provider) -> None:
    provider.server.plan(Turn(text="ok", input_tokens=123, output_tokens=45))

    events = provider.run_turn("hi")

    [usage] = [event for event in events if isinstance(event, UsageUpdated)]
    assert tokens(usage.request) == Usage(requests=1, input_tokens=123, output_tokens=45)
    assert usage.total == usage.request
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].usage == usage.request


def test_tool_call_round_trip_sends_the_result_back(provider: Provider) -> None:
    provider.server.plan(
        Turn(calls=(Call("shout", {"word": "hello"}),), input_tokens=10, output_tokens=3),
        Turn(text="It said HELLO!", input_tokens=20, output_tokens=4),
    )

    events = provider.run_turn("Shout hello", tools=[SHOUT])

    [started] = [event.call for event in events if isinstance(event, ToolCallStarted)]
    assert (started.name, started.args) == ("shout", {"word": "hello"})
    [finished] = [event.result for event in events if isinstance(event, ToolCallFinished)]
    assert (finished.name, finished.content, finished.is_error) == ("shout", "HELLO!", False)
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "It said HELLO!"
    assert tokens(events[-1].usage) == Usage(requests=2, input_tokens=30, output_tokens=7)
    first, second = provider.server.requests
    assert provider.server.tool_results(first) == []
    [(name, result)] = provider.server.tool_results(second)
    assert name == "shout"
    assert "HELLO!" in str(result)


def test_tool_calls_and_text_in_one_answer(provider: Provider) -> None:
    provider.server.plan(
        Turn(text="Let me shout twice.", calls=(Call("shout", {"word": "a"}), Call("shout", {"word": "b"}))),
        Turn(text="Done."),
    )

    events = provider.run_turn("Shout a and b", tools=[SHOUT])

    results = [event.result.content for event in events if isinstance(event, ToolCallFinished)]
    assert sorted(results) == ["A!", "B!"]
    assert [name for name, _ in provider.server.tool_results(provider.server.requests[1])] == ["shout", "shout"]
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "Done."


def test_a_request_without_streaming(provider: Provider) -> None:
    provider.server.plan(Turn(text="Not streamed", input_tokens=5, output_tokens=2))
    agent = build_agent(provider.model())

    result = asyncio.run(
        agent.run("hi", deps=AgentDeps(LocalExecutor(Path.cwd()), provider.settings, harness_home=Path.cwd()))
    )

    assert result.output == "Not streamed"
    assert (result.usage.input_tokens, result.usage.output_tokens) == (5, 2)
    [request] = provider.server.requests
    assert not provider.server.is_stream(request)


def test_the_key_travels_only_in_its_header(provider: Provider) -> None:
    provider.server.plan(Turn(calls=(Call("shout", {"word": "x"}),)), Turn(text="done"))

    provider.run_turn("Shout x", tools=[SHOUT])

    assert len(provider.server.requests) == 2
    for request in provider.server.requests:
        assert request.headers[provider.auth_header] == provider.auth_value
        others = {name: value for name, value in request.headers.items() if name != provider.auth_header}
        assert SECRET not in str(others)
        assert SECRET not in request.path
        assert SECRET.encode() not in request.body
