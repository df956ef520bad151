"""Compaction, tier 1: old tool outputs reach the model as a one-line placeholder.

Past `PRUNE_AT` (about 60 % full), tool outputs older than the recent part of the conversation
are replaced in what the model is sent. Only the request changes: the history in memory and the
Session Log keep every output, so nothing is lost, and a resumed session prunes again as it needs.
Outputs once pruned stay pruned, so the request does not flip back and forth around the threshold.
Tier 2, the summary, is `compaction.py`.
"""

from collections.abc import AsyncGenerator, Sequence
from contextlib import asynccontextmanager
from dataclasses import dataclass, field, replace
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, WrapModelRequestHandler
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart
from pydantic_ai.models import Model, ModelRequestContext, ModelRequestParameters, StreamedResponse, infer_model
from pydantic_ai.models.wrapper import WrapperModel
from pydantic_ai.settings import ModelSettings

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
        if (view := self.view(request_context.messages)) is not None:
            request_context = replace(request_context, messages=view)
        return await handler(request_context)

    def view(self, messages: Sequence[ModelMessage]) -> list[ModelMessage] | None:
        """What the model is sent instead of `messages` (None: `messages` as they are)."""
        view = with_placeholders(messages, self.pruned)
        if context_tokens(view) >= PRUNE_AT * self.window:
            self.pruned |= prunable_outputs(messages, int(RECENT_SHARE * self.window))
            view = with_placeholders(messages, self.pruned)
        return view if self.pruned else None


class PrunedModel(WrapperModel):
    """`wrapped` with tier 1 applied to each request it is sent: the capability's pruning, one layer
    further in. The Agent Loop uses this one (issue 27): pydantic-ai calls every hook of every
    capability of a run (each node, each tool call, each request), and pruning needs just one."""

    def __init__(self, wrapped: Model | str, pruning: ToolOutputPruning) -> None:
        super().__init__(infer_model(wrapped))  # a name (`test`) becomes its model, as `Agent.iter` would
        self.pruning = pruning

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        messages = self.pruning.view(messages) or messages
        return await self.wrapped.request(messages, model_settings, model_request_parameters)

    @asynccontextmanager
    async def request_stream(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
        run_context: RunContext[Any] | None = None,
    ) -> AsyncGenerator[StreamedResponse]:
        messages = self.pruning.view(messages) or messages
        async with self.wrapped.request_stream(messages, model_settings, model_request_parameters, run_context) as s:
            yield s
