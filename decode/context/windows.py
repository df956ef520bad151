"""Context windows: how many tokens a model can hold, and how full a conversation is.

Every model has a context window: the most tokens one request may carry (instructions, tool
definitions, the whole history, and the answer). `context_window()` asks, first to answer wins:

1. `DECODE_CONTEXT_WINDOWS`, a window per model string the user set (`{"openai-compatible:qwen3": 32768}`);
2. `DECODE_CONTEXT_WINDOW`, one window for any model;
3. the server, for a local model (`openai-compatible:`, `modal:`): its `/v1/models` list says how
   many tokens it serves (vLLM's `max_model_len`, LM Studio's `max_context_length`, a
   `context_length`), or llama.cpp's `/props` (`n_ctx`). One request of at most `SERVER_TIMEOUT_S`,
   once per server and model in a process (the REPL asks while it warms up, off the prompt's way);
4. a small table of known models;
5. a conservative default, with one warning.

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
import operator
import urllib.parse
import urllib.request
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

SERVER_TIMEOUT_S = 1.0
"""How long to wait for a server's model list: a local server answers in milliseconds."""

SERVER_PROVIDERS = ("openai-compatible", "modal")
"""Providers whose server is asked for the window (OpenRouter's models are in the table)."""

# Keys of a `/v1/models` entry that say the served window, by server.
SERVER_KEYS = ("max_model_len", "max_context_length", "context_length", "context_window")

_warned: set[str] = set()
_asked: dict[tuple[str, str], int | None] = {}


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
    if settings is not None:
        model = settings.expand_alias(model)  # `sonnet` is the window of the model it names
    provider, _, name = model.strip().partition(":")
    if settings is not None:
        for pattern, tokens in settings.context_windows.items():
            if fnmatch.fnmatchcase(model.strip(), pattern):
                return ContextWindow(tokens)
        if "context_window" in settings.model_fields_set:
            return ContextWindow(settings.context_window)
    if provider in OFFLINE_PROVIDERS:
        return ContextWindow(OFFLINE_PROVIDERS[provider])
    if settings is not None and provider in SERVER_PROVIDERS and (served := _served_window(provider, name, settings)):
        return ContextWindow(served)
    bare = name.rsplit("/", 1)[-1].lower()
    for pattern, tokens in WINDOWS:
        if fnmatch.fnmatchcase(bare, pattern):
            return ContextWindow(tokens)
    if model not in _warned:
        _warned.add(model)
        logger.warning(
            "no context window known for %s; assuming %s tokens (set DECODE_CONTEXT_WINDOWS or DECODE_CONTEXT_WINDOW)",
            model,
            f"{DEFAULT_WINDOW:,}",
        )
    return ContextWindow(DEFAULT_WINDOW, known=False)


def no_guess_warning() -> None:
    """Keep the warning about an unknown model's window to oneself (`decode run -q`): the window is a
    guess worth a line when a person watches, not a problem of the run."""
    logger.setLevel(logging.ERROR)


def _served_window(provider: str, name: str, settings: Settings) -> int | None:
    """What the server behind `provider` says it serves for model `name`, or None (asked once a process)."""
    if provider == "modal":
        base, key = settings.modal_llm_url, settings.modal_llm_token
    else:
        base, key = settings.openai_base_url, settings.openai_api_key
    if not base:
        return None
    if (base, name) not in _asked:
        _asked[base, name] = server_window(base, name, key.get_secret_value() if key is not None else None)
    return _asked[base, name]


def server_window(base_url: str, name: str, api_key: str | None = None) -> int | None:
    """The window an OpenAI-compatible server at `base_url` (…/v1) serves `name` with, if it says.

    `GET /models`: the entry whose `id` is `name` (or the only one), read for `SERVER_KEYS` or a
    `meta.n_ctx`; a llama.cpp entry without one: `GET /props`, `default_generation_settings.n_ctx`.
    Any failure (no answer in `SERVER_TIMEOUT_S`, an error status, a body of another shape) is None.
    """
    base = base_url.rstrip("/")
    listing = _get_json(f"{base}/models", api_key)
    entries = listing.get("data") if isinstance(listing, dict) else None
    if not isinstance(entries, list):
        return None
    entries = [entry for entry in entries if isinstance(entry, dict)]
    entry = next((e for e in entries if e.get("id") == name), entries[0] if len(entries) == 1 else None)
    if entry is None:
        return None
    meta = entry.get("meta") if isinstance(entry.get("meta"), dict) else {}
    for value in [*(entry.get(key) for key in SERVER_KEYS), meta.get("n_ctx")]:
        if isinstance(value, int) and not isinstance(value, bool) and value > 0:
            return value
    if entry.get("owned_by") == "llamacpp":  # the served n_ctx is in /props (n_ctx_train is the model's most)
        root = base.removesuffix("/v1")
        props = _get_json(f"{root}/props", api_key)
        settings = props.get("default_generation_settings") if isinstance(props, dict) else None
        n_ctx = settings.get("n_ctx") if isinstance(settings, dict) else None
        if isinstance(n_ctx, int) and not isinstance(n_ctx, bool) and n_ctx > 0:
            return n_ctx
    return None


def _get_json(url: str, api_key: str | None) -> object:
    if urllib.parse.urlsplit(url).scheme not in {"http", "https"}:
        return None
    headers = {"Accept": "application/json", **({"Authorization": f"Bearer {api_key}"} if api_key else {})}
    try:
        with urllib.request.urlopen(urllib.request.Request(url, headers=headers), timeout=SERVER_TIMEOUT_S) as answer:
            return json.loads(answer.read(4_000_000))
    except (OSError, ValueError) as exc:  # URLError, a timeout, a refused connection; not JSON
        logger.debug("no context window from %s: %s", url, exc)
        return None


_COUNTED: dict[int, tuple[object, int]] = {}
"""Characters of parts already counted, by `id` (the part is kept with its count, so the id is not
reused): the estimate runs before every request of a turn, over the whole history, and a part
(a tool's output serialised) is counted once, not once per request after it."""
_COUNTED_MAX = 50_000


def estimate_tokens(messages: Sequence[ModelMessage]) -> int:
    """A character-count estimate of the tokens these messages take (instructions excluded)."""
    return _chars(messages) // CHARS_PER_TOKEN


def _chars(messages: Sequence[ModelMessage]) -> int:
    if len(_COUNTED) > _COUNTED_MAX:
        _COUNTED.clear()
    chars = 0
    for message in messages:
        for part in message.parts:
            counted = _COUNTED.get(id(part))
            if counted is None or counted[0] is not part:
                counted = _COUNTED[id(part)] = (part, _part_chars(part))
            chars += counted[1]
    return chars


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
    return _fresh_start(messages, 0, 0)


def _fresh_start(messages: Sequence[ModelMessage], first: int, start: int) -> int:
    """`fresh_start`, knowing `start` for the messages before `first`."""
    for index in range(first, len(messages)):
        message = messages[index]
        if isinstance(message, ModelRequest) and message.metadata and SUMMARY_MARK in message.metadata:
            start = index + 1 + int(message.metadata[SUMMARY_MARK].get("carried", 0))
    return start


_last_history: tuple[list[ModelMessage], int, int, int] = ([], 0, 0, -1)
"""The history `context_tokens` last read but its newest two messages (a request may still grow), with
its characters, its `fresh_start` and the index of its last counted response (-1: none): before every
request of a turn it is that history and a little more, so only the little more is read again."""


def _last_counted(messages: Sequence[ModelMessage], first: int, stop: int, last: int) -> int:
    """The index of the last response of `messages[first:stop]` the provider counted, else `last`."""
    for index in range(stop - 1, first - 1, -1):
        message = messages[index]
        if isinstance(message, ModelResponse) and message.usage.input_tokens:
            return index
    return last


def _history(messages: Sequence[ModelMessage]) -> tuple[int, int, int]:
    """`estimate_tokens(messages)` in characters, `fresh_start(messages)`, and the last counted response."""
    global _last_history
    known, chars, start, last = _last_history
    if not (known and len(known) <= len(messages) and all(map(operator.is_, known, messages))):
        known, chars, start, last = [], 0, 0, -1  # another history (a compaction, a pruned copy): read it all
    stable = max(len(messages) - 2, len(known))
    chars += _chars(messages[len(known) : stable])
    start = _fresh_start(messages[:stable], len(known), start)
    last = _last_counted(messages, len(known), stable, last)
    if stable > len(known):
        _last_history = (list(messages[:stable]), chars, start, last)
    return (
        chars + _chars(messages[stable:]),
        _fresh_start(messages, stable, start),
        _last_counted(messages, stable, len(messages), last),
    )


def context_tokens(messages: Sequence[ModelMessage]) -> int:
    """How many tokens the history takes now: the provider's count, and never less than the estimate."""
    chars, start, last = _history(messages)
    estimate = chars // CHARS_PER_TOKEN
    counted_by = messages[last] if last >= start else None  # a response after the last summary: not stale
    if isinstance(counted_by, ModelResponse):
        counted = counted_by.usage.input_tokens + counted_by.usage.output_tokens
        return max(counted + estimate_tokens(messages[last + 1 :]), estimate)
    return estimate


def fill_fraction(messages: Sequence[ModelMessage], window: ContextWindow | int) -> float:
    """How full the context window is (0.0 empty, 1.0 full; more when already over), for the gauge."""
    tokens = window.tokens if isinstance(window, ContextWindow) else window
    return context_tokens(messages) / tokens
