"""What only the native providers do, over real HTTP: Anthropic's cache marks, thinking and errors,
OpenAI's Responses API for reasoning models and chat completions for the others, aliases, prices.

The behaviours every provider shares (streaming, tool round trips, retries, timeouts, dropped
streams) run for `anthropic:` and `openai:` too: they are in the `provider` fixture's list.
"""

import json
from collections.abc import Iterator

import pytest
from pydantic_ai.exceptions import ModelHTTPError

from decode.entities.events import TextDelta, ThinkingDelta, TurnFinished
from tests.integration.providers.conftest import SECRET, Provider, _settings
from tests.integration.providers.fake_servers import Call, Fail, OpenAIServer, Turn
from tests.integration.providers.test_conversation import SHOUT
from tests.integration.providers.wire_servers import AnthropicServer, ResponsesServer

pytestmark = pytest.mark.integration


@pytest.fixture
def anthropic() -> Iterator[AnthropicServer]:
    server = AnthropicServer()
    yield server
    server.close()


def claude(server: AnthropicServer, spec: str = "anthropic:claude-sonnet-5", **values: object) -> Provider:
    settings = _settings(anthropic_base_url=server.url, anthropic_api_key=SECRET, **values)
    return Provider(spec, server, settings, "x-api-key", SECRET)


def test_the_system_prompt_and_the_tools_are_marked_for_anthropics_cache(anthropic: AnthropicServer) -> None:
    anthropic.plan(Turn(text="ok"))

    claude(anthropic).run_turn("hi", tools=[SHOUT])

    body = anthropic.requests[0].json()
    assert body["system"][0]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}  # the fixed instructions
    assert body["tools"][-1]["cache_control"] == {"type": "ephemeral", "ttl": "5m"}
    assert sum("cache_control" in tool for tool in body["tools"]) == 1
    assert "cache_control" not in body  # no automatic mark: it would land on the Turn Facts (ADR-0101)


def test_extended_thinking_streams_as_thinking_before_the_answer(anthropic: AnthropicServer) -> None:
    anthropic.plan(Turn(thinking="Two and two make four.", text="Four."))

    events = claude(anthropic, thinking="high").run_turn("2+2?")

    thinking = [event.text for event in events if isinstance(event, ThinkingDelta)]
    assert "".join(thinking) == "Two and two make four."
    first_text = next(i for i, event in enumerate(events) if isinstance(event, TextDelta))
    assert max(i for i, event in enumerate(events) if isinstance(event, ThinkingDelta)) < first_text
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "Four."
    assert "thinking" in anthropic.requests[0].json()  # DECODE_THINKING=high asked for it


def test_overloaded_529_is_retried_and_a_400_names_anthropics_reason(anthropic: AnthropicServer) -> None:
    anthropic.plan(Fail(529, message="Overloaded"), Turn(text="made it"), Fail(400, message="prompt is too long"))
    provider = claude(anthropic)

    events = provider.run_turn("hi")
    with pytest.raises(ModelHTTPError) as caught:
        provider.run_turn("again")

    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "made it"
    assert caught.value.status_code == 400
    assert "prompt is too long" in str(caught.value.body)
    assert len(anthropic.requests) == 3  # the 400 was not retried


def test_an_alias_names_the_full_model_and_genai_prices_knows_its_price(anthropic: AnthropicServer) -> None:
    anthropic.plan(Turn(text="hi", input_tokens=1_000_000, output_tokens=0))

    events = claude(anthropic, spec="sonnet").run_turn("hi")

    assert anthropic.requests[0].json()["model"] == "claude-sonnet-5"
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].usage.cost_usd == pytest.approx(2.0)  # claude-sonnet-5: $2 per million input tokens


def openai(server: OpenAIServer | ResponsesServer, spec: str, **values: object) -> Provider:
    settings = _settings(openai_base_url=f"{server.url}/v1", openai_api_key=SECRET, **values)
    return Provider(spec, server, settings, "authorization", f"Bearer {SECRET}")


def test_a_reasoning_model_talks_the_responses_api_and_its_summary_is_thinking() -> None:
    server = ResponsesServer()
    server.plan(Turn(thinking="Checking the sum.", text="Four."))
    try:
        events = openai(server, "o3", thinking="low").run_turn("2+2?")
    finally:
        server.close()

    [request] = server.requests
    assert request.path == "/v1/responses"
    assert request.json()["model"] == "o3"
    assert request.json()["reasoning"]["effort"] == "low"  # DECODE_THINKING is OpenAI's reasoning effort
    assert "".join(event.text for event in events if isinstance(event, ThinkingDelta)) == "Checking the sum."
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "Four."
    assert events[-1].usage.cost_usd is not None


def test_a_model_that_does_not_reason_talks_chat_completions(openai_server: OpenAIServer) -> None:
    openai_server.plan(Turn(calls=(Call("shout", {"word": "hi"}),)), Turn(text="HI!"))

    events = openai(openai_server, "openai:gpt-4.1").run_turn("shout hi", tools=[SHOUT])

    assert [request.path for request in openai_server.requests] == ["/v1/chat/completions"] * 2
    assert openai_server.tool_results(openai_server.requests[1]) == [("shout", "HI!")]
    assert isinstance(events[-1], TurnFinished)
    assert events[-1].output == "HI!"


def test_the_history_is_marked_up_to_the_turn_facts_never_the_facts(anthropic: AnthropicServer) -> None:
    anthropic.plan(Turn(calls=(Call("shout", {"word": "hi"}),)), Turn(text="HI!"))

    claude(anthropic).run_turn("shout hi", tools=[SHOUT])

    first, second = (request.json() for request in anthropic.requests)
    prompt, facts = first["messages"][-1]["content"]
    assert "cache_control" in prompt  # the end of the history: the user's prompt
    assert "cache_control" not in facts  # the Turn Facts change every request: never written to the cache
    asked, answer, results = second["messages"]
    assert asked["content"][0] == prompt  # the previous request's mark, where it was: read from the cache
    assert answer["role"] == "assistant"
    tool_result, facts = results["content"]
    assert tool_result["type"] == "tool_result"
    assert "cache_control" in tool_result
    assert "cache_control" not in facts
    marks = json.dumps(second).count('"cache_control"')
    assert marks == 4  # the system prompt, the tools, two history ends: Anthropic's limit
