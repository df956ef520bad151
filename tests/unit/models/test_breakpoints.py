"""Where `CachingOpenRouter` puts its cache breakpoints in the chat messages it maps (no request is made)."""

from typing import Any

import pytest
from openai import AsyncOpenAI
from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.openrouter import OpenRouterModel
from pydantic_ai.providers.openrouter import OpenRouterProvider

from decode.agent.facts import FOOTER, HEADER
from decode.models.breakpoints import CachingOpenRouter, facts_index, history_ends
from decode.models.gateway import ONE_SYSTEM_MESSAGE

FACTS = f"{HEADER}\nThe git status: clean\n{FOOTER}"
MARK = {"type": "ephemeral", "ttl": "5m"}


def provider() -> OpenRouterProvider:
    return OpenRouterProvider(openai_client=AsyncOpenAI(base_url="http://127.0.0.1:9", api_key="sk-or-test"))


def history(*, facts: bool = True) -> list[Any]:
    """A prompt, a tool call and its result, then (in the copy sent to the model) the facts."""
    newest = [ToolReturnPart("read", "1: def add(a, b):", tool_call_id="c1")]
    return [
        ModelRequest(parts=[UserPromptPart("what does add do?")], instructions="You are decode."),
        ModelResponse(parts=[ToolCallPart("read", {"path": "calc.py"}, tool_call_id="c1")]),
        ModelRequest(parts=[*newest, *([UserPromptPart(FACTS)] if facts else [])], instructions="You are decode."),
    ]


async def mapped(model: OpenRouterModel, messages: list[Any]) -> list[Any]:
    return await model._map_messages(messages, ModelRequestParameters(), model_settings={})


def marks(messages: list[Any]) -> list[int]:
    return [i for i, m in enumerate(messages) if isinstance(m["content"], list) and "cache_control" in m["content"][-1]]


def test_the_facts_message_is_found_from_the_end() -> None:
    facts = {"role": "user", "content": FACTS}
    assert facts_index([{"role": "system", "content": "x"}, {"role": "user", "content": "hi"}, facts]) == 2
    assert facts_index([{"role": "user", "content": "hi"}]) is None
    assert facts_index([{"role": "user", "content": [{"type": "text", "text": "hi"}]}]) is None


def test_the_history_ends_before_the_facts_and_before_the_newest_response() -> None:
    system, prompt, facts = ({"role": "system"}, {"role": "user", "content": "hi"}, {"role": "user", "content": FACTS})
    call, result = {"role": "assistant"}, {"role": "tool"}
    assert history_ends([system, prompt, facts]) == [1]
    assert history_ends([system, prompt, call, result, facts]) == [1, 3]
    assert history_ends([system, prompt, call, result, call, result, result, facts]) == [3, 6]
    assert history_ends([system, prompt, call, result]) == []  # no facts: nothing to mark before them
    assert history_ends([facts]) == []


async def test_an_anthropic_model_marks_the_system_message_and_the_ends_of_the_history() -> None:
    model = CachingOpenRouter("anthropic/claude-sonnet-4.5", provider=provider(), profile=ONE_SYSTEM_MESSAGE)
    messages = await mapped(model, history())
    assert [m["role"] for m in messages] == ["system", "user", "assistant", "tool", "user"]
    assert marks(messages) == [0, 1, 3]
    assert messages[3]["content"] == [{"type": "text", "text": "1: def add(a, b):", "cache_control": MARK}]
    assert messages[4] == {"role": "user", "content": FACTS}


async def test_without_facts_only_the_system_message_is_marked() -> None:
    model = CachingOpenRouter("anthropic/claude-sonnet-4.5", provider=provider(), profile=ONE_SYSTEM_MESSAGE)
    assert marks(await mapped(model, history(facts=False))) == [0]


@pytest.mark.parametrize("name", ["qwen/qwen3-coder", "openai/gpt-4.1", "google/gemini-2.5-flash"])
async def test_a_model_without_a_breakpoint_limit_is_mapped_as_pydantic_ai_maps_it(name: str) -> None:
    plain = OpenRouterModel(name, provider=provider(), profile=ONE_SYSTEM_MESSAGE)
    caching = CachingOpenRouter(name, provider=provider(), profile=ONE_SYSTEM_MESSAGE)
    assert await mapped(caching, history()) == await mapped(plain, history())
