"""Compaction, tier 1: old tool outputs reach the model as a one-line placeholder.

Past `PRUNE_AT` (about 60 % full), tool outputs older than the recent part of the conversation
are replaced in what the model is sent. Only the request changes: the history in memory and the
Session Log keep every output, so nothing is lost, and a resumed session prunes again as it needs.
Outputs once pruned stay pruned, so the request does not flip back and forth around the threshold.
Tier 2, the summary, is `compaction.py`.
"""

from collections.abc import Sequence
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, WrapModelRequestHandler
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart
from pydantic_ai.models import ModelRequestContext

from decode.context.windows import context_tokens, estimate_tokens

PRUNE_AT = 0.6
"""Fill fraction past which old tool outputs are replaced by placeholders in requests."""

RECENT_SHARE = 0.3
"""Share of the window, at the end of the history, that both tiers keep verbatim."""


def placeholder(part: ToolReturnPart) -> str:
    """The line a pruned tool output is replaced by."""
    size = len(part.model_response_str())
    return f"[{part.tool_name} output pruned to save context ({size:,} characters); call the tool again if you need it]"


def prunable_outputs(messages: Sequence[ModelMessage], keep_recent_tokens: int) -> set[str]:
    """Tool-call ids of the outputs before the most recent `keep_recent_tokens` that a placeholder would shorten."""
    ids: set[str] = set()
    seen = 0
    for message in reversed(messages):
        seen += estimate_tokens([message])
        if seen <= keep_recent_tokens or not isinstance(message, ModelRequest):
            continue
        for part in message.parts:
            if isinstance(part, ToolReturnPart) and len(part.model_response_str()) > len(placeholder(part)):
                ids.add(part.tool_call_id)
    return ids


def with_placeholders(messages: Sequence[ModelMessage], pruned: set[str]) -> list[ModelMessage]:
    """A copy of `messages` with the outputs of the `pruned` tool calls replaced by placeholders."""
    if not pruned:
        return list(messages)

    def prune(message: ModelMessage) -> ModelMessage:
        if not isinstance(message, ModelRequest):
            return message
        parts = [
            replace(part, content=placeholder(part))
            if isinstance(part, ToolReturnPart) and part.tool_call_id in pruned
            else part
            for part in message.parts
        ]
        return replace(message, parts=parts)

    return [prune(message) for message in messages]


@dataclass
class ToolOutputPruning(AbstractCapability[Any]):
    """Tier 1 as a pydantic-ai capability: it rewrites each model request just before it is sent.

    Hooked on `wrap_model_request`, so it runs before every request of a turn (a long turn of
    tool calls is where the context grows) and changes only what is sent, not the run's history.
    """

    window: int
    pruned: set[str] = field(default_factory=set)
    """Ids already pruned: kept, so a request never shows an output that an earlier one hid."""

    async def wrap_model_request(
        self,
        ctx: RunContext[Any],
        *,
        request_context: ModelRequestContext,
        handler: WrapModelRequestHandler,
    ) -> ModelResponse:
        messages = request_context.messages
        view = with_placeholders(messages, self.pruned)
        if context_tokens(view) >= PRUNE_AT * self.window:
            self.pruned |= prunable_outputs(messages, int(RECENT_SHARE * self.window))
            view = with_placeholders(messages, self.pruned)
        if self.pruned:
            request_context = replace(request_context, messages=view)
        return await handler(request_context)
