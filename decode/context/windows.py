"""Context windows: how many tokens a model can hold, and how full a conversation is.

Every model has a context window: the most tokens one request may carry (instructions, tool
definitions, the whole history, and the answer). `context_window()` looks the model up in a
small table; a model it does not know gets a conservative default and one warning, and the
`DECODE_CONTEXT_WINDOW` setting overrides both (a local model served with a small context).

`context_tokens()` says how full a history is. The provider's own count comes first: each
response carries the usage of its request, so the last response's input + output tokens are
the size of the conversation up to that point (instructions and tool definitions included);
messages after it (tool results, a new prompt) are estimated at four characters a token. Right
after a compaction the usage of the messages kept verbatim describes the old, longer history,
so it is not trusted until a new response arrives. And since some servers under-count (a few
report nothing at all when streaming), the estimate of the whole history is a floor.
"""

from __future__ import annotations

import fnmatch
import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass
from typing import TYPE_CHECKING

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    SystemPromptPart,
    TextPart,
    ThinkingPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

if TYPE_CHECKING:
    from decode.config.settings import Settings

logger = logging.getLogger(__name__)

DEFAULT_WINDOW = 32_000
"""Tokens assumed for a model the table does not know: small, so compaction starts early rather than late."""

CHARS_PER_TOKEN = 4
"""The usual rule of thumb for English text and code; only used where the provider has not counted."""

NON_TEXT_TOKENS = 1_000
"""Tokens assumed for an image, a document or audio in a prompt (the providers' counts vary widely)."""

SUMMARY_MARK = "decode.compaction"
"""`ModelRequest.metadata` key on the request that holds a compaction summary. Its value is a dict
whose `carried` entry counts the messages after it that were kept verbatim from before the compaction."""

# (pattern over the model name, tokens). The name is the part after `provider:`, without a
# vendor prefix (`openrouter:qwen/qwen3-coder` → `qwen3-coder`); the first matching pattern wins.
WINDOWS: tuple[tuple[str, int], ...] = (
    ("gemini-*", 1_048_576),
    ("gpt-4.1*", 1_047_576),
    ("gpt-5*", 400_000),
    ("gpt-4o*", 128_000),
    ("gpt-oss*", 131_072),
    ("o3*", 200_000),
    ("o4-mini*", 200_000),
    ("claude-*", 200_000),
    ("qwen3-coder*", 262_144),
    ("qwen*", 131_072),
    ("deepseek*", 128_000),
    ("kimi-k2*", 131_072),
    ("glm-4.6*", 200_000),
    ("glm-4.5*", 131_072),
    ("llama-3.1*", 131_072),
    ("llama-3.3*", 131_072),
    ("llama3.1*", 131_072),
    ("llama3.3*", 131_072),
    ("devstral*", 131_072),
    ("codestral*", 256_000),
    ("mistral-large*", 131_072),
)

# Offline models: not real ones, so no warning; the window only matters when a test or a notebook
# sets a small one on purpose.
OFFLINE_PROVIDERS: dict[str, int] = {"script": 128_000, "test": 128_000}

_warned: set[str] = set()


@dataclass(frozen=True)
class ContextWindow:
    """How many tokens a model can hold; `known` is False when it is the conservative default."""

    tokens: int
    known: bool = True


def context_window(model: str, settings: Settings | None = None) -> ContextWindow:
    """The context window of `model` (a model string such as `google-gla:gemini-flash-latest`).

    A `DECODE_CONTEXT_WINDOW` the user set wins; then the table; then `DEFAULT_WINDOW`, with a
    warning the first time each unknown model is seen in this process.
    """
    if settings is not None and "context_window" in settings.model_fields_set:
        return ContextWindow(settings.context_window)
    provider, _, name = model.strip().partition(":")
    if provider in OFFLINE_PROVIDERS:
        return ContextWindow(OFFLINE_PROVIDERS[provider])
    bare = name.rsplit("/", 1)[-1].lower()
    for pattern, tokens in WINDOWS:
        if fnmatch.fnmatchcase(bare, pattern):
            return ContextWindow(tokens)
    if model not in _warned:
        _warned.add(model)
        logger.warning(
            "no context window known for %s; assuming %s tokens (set DECODE_CONTEXT_WINDOW to change it)",
            model,
            f"{DEFAULT_WINDOW:,}",
        )
    return ContextWindow(DEFAULT_WINDOW, known=False)


def estimate_tokens(messages: Sequence[ModelMessage]) -> int:
    """A character-count estimate of the tokens these messages take (instructions excluded)."""
    chars = 0
    for message in messages:
        for part in message.parts:
            chars += _part_chars(part)
    return chars // CHARS_PER_TOKEN


def _part_chars(part: object) -> int:
    if isinstance(part, UserPromptPart):
        if isinstance(part.content, str):
            return len(part.content)
        return sum(len(item) if isinstance(item, str) else NON_TEXT_TOKENS * CHARS_PER_TOKEN for item in part.content)
    if isinstance(part, ToolReturnPart):
        return len(part.model_response_str())
    if isinstance(part, RetryPromptPart):
        return len(part.model_response())
    if isinstance(part, SystemPromptPart | TextPart | ThinkingPart):
        return len(part.content)
    if isinstance(part, ToolCallPart):
        args = part.args if isinstance(part.args, str) else json.dumps(part.args or {})
        return len(part.tool_name) + len(args)
    return 0


def fresh_start(messages: Sequence[ModelMessage]) -> int:
    """Index of the first message whose usage describes the current history.

    Everything before the latest compaction summary, and the messages it carried over verbatim,
    were counted as part of a longer history: their usage is stale.
    """
    start = 0
    for index, message in enumerate(messages):
        if isinstance(message, ModelRequest) and message.metadata and SUMMARY_MARK in message.metadata:
            start = index + 1 + int(message.metadata[SUMMARY_MARK].get("carried", 0))
    return start


def context_tokens(messages: Sequence[ModelMessage]) -> int:
    """How many tokens the history takes now: the provider's count, and never less than the estimate."""
    estimate = estimate_tokens(messages)
    for index in range(len(messages) - 1, fresh_start(messages) - 1, -1):
        message = messages[index]
        if isinstance(message, ModelResponse) and message.usage.input_tokens:
            counted = message.usage.input_tokens + message.usage.output_tokens
            return max(counted + estimate_tokens(messages[index + 1 :]), estimate)
    return estimate


def fill_fraction(messages: Sequence[ModelMessage], window: ContextWindow | int) -> float:
    """How full the context window is (0.0 empty, 1.0 full; more when already over), for the gauge."""
    tokens = window.tokens if isinstance(window, ContextWindow) else window
    return context_tokens(messages) / tokens
