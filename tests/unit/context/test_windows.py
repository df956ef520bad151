"""Context windows per model, and how full a history is."""

import logging

import pytest
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.usage import RequestUsage

from decode.config.settings import Settings
from decode.context import windows
from decode.context.windows import (
    DEFAULT_WINDOW,
    SUMMARY_MARK,
    ContextWindow,
    context_tokens,
    context_window,
    estimate_tokens,
    fill_fraction,
)


@pytest.mark.parametrize(
    ("model", "tokens"),
    [
        ("google-gla:gemini-flash-latest", 1_048_576),
        ("google-gla:gemini-2.5-pro", 1_048_576),
        ("openrouter:qwen/qwen3-coder", 262_144),
        ("openrouter:anthropic/claude-sonnet-4", 200_000),
        ("openrouter:openai/gpt-4o-mini", 128_000),
        ("modal:Qwen3-32B", 131_072),
    ],
)
def test_known_models_come_from_the_table(model: str, tokens: int) -> None:
    assert context_window(model) == ContextWindow(tokens, known=True)


def test_an_unknown_model_gets_the_conservative_default_and_one_warning(caplog: pytest.LogCaptureFixture) -> None:
    windows._warned.discard("openai-compatible:my-local-model")
    with caplog.at_level(logging.WARNING, logger="decode.context.windows"):
        first = context_window("openai-compatible:my-local-model")
        second = context_window("openai-compatible:my-local-model")
    assert first == second == ContextWindow(DEFAULT_WINDOW, known=False)
    warnings = [record.getMessage() for record in caplog.records]
    assert len(warnings) == 1
    assert "my-local-model" in warnings[0]
    assert "DECODE_CONTEXT_WINDOW" in warnings[0]


def test_a_window_the_user_set_wins_over_the_table(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("DECODE_CONTEXT_WINDOW", "8192")
    assert context_window("google-gla:gemini-flash-latest", Settings()) == ContextWindow(8192)
    # The setting's default (not chosen by the user) does not hide the table.
    monkeypatch.delenv("DECODE_CONTEXT_WINDOW")
    assert context_window("google-gla:gemini-flash-latest", Settings()).tokens == 1_048_576


def test_offline_models_have_a_window_without_a_warning(caplog: pytest.LogCaptureFixture) -> None:
    with caplog.at_level(logging.WARNING):
        assert context_window("script:/tmp/turns.json").known
        assert context_window("test").known
    assert not caplog.records


def test_the_estimate_counts_four_characters_a_token() -> None:
    messages = [ModelRequest(parts=[UserPromptPart("x" * 400)]), ModelResponse(parts=[TextPart("y" * 40)])]
    assert estimate_tokens(messages) == 110


def test_the_providers_count_is_used_and_only_what_follows_is_estimated() -> None:
    messages = [
        ModelRequest(parts=[UserPromptPart("x" * 4000)]),
        ModelResponse(parts=[TextPart("ok")], usage=RequestUsage(input_tokens=1500, output_tokens=20)),
        ModelRequest(parts=[UserPromptPart("z" * 400)]),
    ]
    assert context_tokens(messages) == 1500 + 20 + 100


def test_usage_from_before_a_compaction_is_not_trusted() -> None:
    stale = ModelResponse(parts=[TextPart("kept")], usage=RequestUsage(input_tokens=90_000, output_tokens=10))
    summary = ModelRequest(parts=[UserPromptPart("s" * 400)], metadata={SUMMARY_MARK: {"carried": 1}})
    assert context_tokens([summary, stale]) == estimate_tokens([summary, stale])
    fresh = ModelResponse(parts=[TextPart("new")], usage=RequestUsage(input_tokens=300, output_tokens=5))
    assert context_tokens([summary, stale, ModelRequest(parts=[UserPromptPart("next")]), fresh]) == 305


def test_fill_fraction_is_tokens_over_the_window() -> None:
    messages = [ModelResponse(parts=[TextPart("a")], usage=RequestUsage(input_tokens=750, output_tokens=250))]
    assert fill_fraction(messages, ContextWindow(4000)) == 0.25
    assert fill_fraction(messages, 1000) == 1.0


def _counted_anew(messages: list) -> int:
    """What `context_tokens` says of a history it has not seen: a copy of every message."""
    return windows.context_tokens(
        [
            ModelRequest(parts=list(m.parts), metadata=m.metadata)
            if isinstance(m, ModelRequest)
            else ModelResponse(parts=list(m.parts), usage=m.usage)
            for m in messages
        ]
    )


def test_a_growing_history_is_counted_as_if_read_anew_before_each_request() -> None:
    history: list = [ModelRequest(parts=[UserPromptPart("read the notes")])]
    counts = []
    for step in range(30):
        usage = RequestUsage(input_tokens=0 if step % 3 else 100 + step, output_tokens=2)
        history.append(ModelResponse(parts=[TextPart("x" * (10 + step))], usage=usage))
        if step == 12:  # a compaction's summary: the usage before it and of what it carried is stale
            history.append(ModelRequest(parts=[UserPromptPart("summary")], metadata={SUMMARY_MARK: {"carried": 4}}))
        history.append(ModelRequest(parts=[UserPromptPart("y" * (40 * step))]))
        counts.append((windows.context_tokens(list(history)), _counted_anew(history)))
        history[-1].parts.append(UserPromptPart("z" * 400))  # the newest request may still grow
        counts.append((windows.context_tokens(list(history)), _counted_anew(history)))

    assert all(seen == anew for seen, anew in counts), counts
