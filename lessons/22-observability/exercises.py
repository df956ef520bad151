"""Lesson 22's exercise: what each model cost, read from a trace's spans."""

from collections.abc import Callable
from typing import Any

from course import Verdict, check

Costs = dict[str, tuple[int, int, float | None]]

SPANS: list[dict[str, Any]] = [
    {
        "type": "llm",
        "model": "gemini-flash",
        "usage": {"prompt_tokens": 1000, "completion_tokens": 200},
        "total_estimated_cost": 0.0011,
    },
    {"type": "tool", "name": "read", "input": {"path": "a.py"}},
    {
        "type": "llm",
        "model": "gemini-flash",
        "usage": {"prompt_tokens": 1500, "completion_tokens": 100},
        "total_estimated_cost": 0.0007,
    },
    {"type": "llm", "model": "local-qwen", "usage": {"prompt_tokens": 800, "completion_tokens": 50}},
    {"type": "general", "name": "subagent explore"},
]


def check_cost_by_model(cost_by_model: Callable[[list[dict[str, Any]]], Costs]) -> Verdict:
    """`cost_by_model(spans)`: per model, (input tokens, output tokens, dollars) summed over its llm spans;
    dollars None when no request of that model had a price (unknown is not free)."""

    def test() -> None:
        got = cost_by_model(SPANS)
        assert isinstance(got, dict), f"return a dict keyed by model, not {type(got).__name__}"
        assert set(got) == {"gemini-flash", "local-qwen"}, f"one entry per model of an llm span: got {sorted(got)}"
        tokens_in, tokens_out, dollars = got["gemini-flash"]
        assert (tokens_in, tokens_out) == (2500, 300), (
            f"gemini-flash's tokens: expected (2500, 300), got {got['gemini-flash'][:2]}"
        )
        assert dollars is not None, "gemini-flash had prices: its cost is their sum"
        assert abs(dollars - 0.0018) < 1e-9, f"gemini-flash cost 0.0011 + 0.0007 = 0.0018, not {dollars}"
        assert got["local-qwen"] == (800, 50, None), (
            f"local-qwen had no price: (800, 50, None), not {got['local-qwen']} (unknown is not 0.0)"
        )
        assert cost_by_model([]) == {}, "no spans, no models"

    return check("tokens and dollars per model from a trace's llm spans, an unknown price kept unknown", test)
