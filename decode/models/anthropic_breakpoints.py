"""Cache breakpoints for Claude through Anthropic's own API: the history's end, not the Turn Facts.

`native.anthropic_model` marks the system prompt and the tool definitions with pydantic-ai's own
settings. As for OpenRouter (`breakpoints.py`, ADR-0101), the history needs two more marks that
pydantic-ai cannot place: the block just before the Turn Facts (the newest tool result or the
user's prompt), so the next request reads the whole history from the cache and the facts are never
written to it, and the end of the previous request's history (the block before the newest model
response), where that request's mark was. Four marks, Anthropic's limit; pydantic-ai's
`_limit_cache_points` still enforces it.
"""

from typing import Any, cast

from anthropic.types.beta import BetaMessageParam, BetaTextBlockParam
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.models.anthropic import AnthropicModel, AnthropicModelSettings

from decode.entities.turn_facts import HEADER


def _is_facts(block: dict[str, Any]) -> bool:
    return block.get("type") == "text" and str(block.get("text", "")).startswith(HEADER)


def history_ends(messages: list[BetaMessageParam]) -> list[dict[str, Any]]:
    """The blocks to mark: the one before the facts, and the last one before the newest model response."""
    # Request params are plain dicts (TypedDicts), whatever the SDK's union of block types says.
    blocks: list[tuple[int, int, dict[str, Any]]] = [
        (i, j, cast(dict[str, Any], block))
        for i, m in enumerate(messages)
        if isinstance(m["content"], list)
        for j, block in enumerate(m["content"])
    ]
    facts = next((k for k in range(len(blocks) - 1, -1, -1) if _is_facts(blocks[k][2])), None)
    if facts is None or facts == 0:
        return []
    ends = [blocks[facts - 1][2]]
    answer = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=None)
    before = [block for i, _, block in blocks[:facts] if answer is not None and i < answer]
    if before and before[-1] is not ends[0]:
        ends.insert(0, before[-1])
    return [block for block in ends if block.get("type") in ("text", "tool_result")]


class CachingAnthropic(AnthropicModel):
    """Anthropic's Messages API, with cache breakpoints at the end of the history (ADR-0101)."""

    async def _map_message(
        self,
        messages: list[ModelMessage],
        model_request_parameters: ModelRequestParameters,
        model_settings: AnthropicModelSettings,
    ) -> tuple[str | list[BetaTextBlockParam], list[BetaMessageParam]]:
        system, mapped = await super()._map_message(messages, model_request_parameters, model_settings)
        for block in history_ends(mapped):
            block["cache_control"] = self._build_cache_control()
        return system, mapped
