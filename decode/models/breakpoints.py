"""Cache breakpoints: where a provider takes them, mark the end of what the next request repeats.

OpenAI, DeepSeek and Gemini cache a request's prefix by themselves. Anthropic caches only up to the
breakpoints a request marks (`cache_control` on a content block, at most 4 a request), and decode
reaches Anthropic models through OpenRouter. A request is: the instructions and tool definitions
(fixed for a session), the history, then the Turn Facts (`decode/agent/facts.py`), which change
from one request to the next and are never repeated. So for a model that takes breakpoints decode
marks (a) the tool definitions (pydantic-ai's own OpenRouter setting) and the one system message,
and (b) the end of the history just before the Turn Facts, so that the next request reads the whole
history from the cache and the facts are never written to it, plus where the previous request's
history ended, the entry this request reads (ADR-0101). Four marks: Anthropic's limit.

pydantic-ai cannot say (b): its `CachePoint` marks the content before it in the same user message,
but the facts are a message of their own and the one before them is most often a tool result; its
`openrouter_cache_messages` marks the last message, which is the facts. Its
`openrouter_cache_instructions` counts one system message per instruction part, but decode merges
them into one (`ONE_SYSTEM_MESSAGE`), so the count misses. `CachingOpenRouter` therefore applies
pydantic-ai's own marking to the system message and to the ends of the history. A model whose
profile gives no breakpoint limit (all but Anthropic's: OpenAI, Gemini, Qwen… cache by themselves)
gets nothing new.
"""

from collections.abc import Sequence
from typing import Any

from pydantic_ai.messages import ModelMessage
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.openrouter import OpenRouterModel, OpenRouterModelSettings
from pydantic_ai.settings import ModelSettings

from decode.entities.turn_facts import HEADER

CACHE_THE_TOOLS = OpenRouterModelSettings(openrouter_cache_tool_definitions=True)
"""(a), the tools: pydantic-ai marks the last tool definition (for Anthropic models only)."""


def facts_index(mapped: Sequence[Any]) -> int | None:
    """Where the Turn Facts sit among the chat messages about to be sent (the last such message), if any."""
    for index in range(len(mapped) - 1, -1, -1):
        message = mapped[index]
        if message.get("role") == "user" and str(message.get("content")).startswith(HEADER):
            return index
    return None


def history_ends(mapped: Sequence[Any]) -> list[int]:
    """The messages to mark: the one just before the facts, and where the previous request's history ended.

    The second is the message before the newest model response: the previous request marked it, so
    this one reads that cache entry where it was written, however many blocks the newest turn added
    (Anthropic looks back only 20 blocks from a mark for an earlier entry).
    """
    facts = facts_index(mapped)
    if facts is None:
        return []
    last_response = max((i for i in range(facts) if mapped[i].get("role") == "assistant"), default=None)
    ends = [facts - 1] if last_response is None else [last_response - 1, facts - 1]
    return [i for i in ends if i > 0 and mapped[i].get("role") in ("user", "tool")]


class CachingOpenRouter(OpenRouterModel):
    """OpenRouter, with a cache breakpoint at the end of the history for the models that take them."""

    async def _map_messages(
        self,
        messages: Sequence[ModelMessage],
        model_request_parameters: ModelRequestParameters,
        *,
        model_settings: ModelSettings | None = None,
    ) -> list[Any]:
        mapped = await super()._map_messages(messages, model_request_parameters, model_settings=model_settings)
        if self._resolved_profile.get("openrouter_max_cache_points") is None:
            return mapped  # nothing new for a model with implicit caching: the request stays as it was
        if mapped and mapped[0].get("role") == "system":  # (a) the instructions, fixed for the session
            self._add_cache_control_to_message(mapped[0])
        for index in history_ends(mapped):  # (b) the history, not the facts
            self._add_cache_control_to_message(mapped[index])
        # Within the provider's limit (Anthropic: 4), keeping the tool and instruction marks first.
        has_tool_mark = bool(
            self._resolved_profile.get("openrouter_supports_tool_cache", False)
            and model_request_parameters.declared_tool_defs
            and (model_settings or {}).get("openrouter_cache_tool_definitions")
        )
        self._limit_cache_points(mapped, has_tool_cache_point=has_tool_mark)
        return mapped
