"""Reference solution of lesson 22's exercise, and a plausible mistake its check rejects."""

from typing import Any


def cost_by_model(spans: list[dict[str, Any]]) -> dict[str, tuple[int, int, float | None]]:
    """Sum each model's llm spans; a price counts once it is known, and unknown stays None."""
    costs: dict[str, tuple[int, int, float | None]] = {}
    for span in spans:
        if span.get("type") != "llm":
            continue
        usage = span.get("usage") or {}
        tokens_in, tokens_out, dollars = costs.get(span["model"], (0, 0, None))
        price = span.get("total_estimated_cost")
        if price is not None:
            dollars = (dollars or 0.0) + price
        costs[span["model"]] = (
            tokens_in + usage.get("prompt_tokens", 0),
            tokens_out + usage.get("completion_tokens", 0),
            dollars,
        )
    return costs


def wrong_cost_by_model(spans: list[dict[str, Any]]) -> dict[str, tuple[int, int, float | None]]:
    """Counts a request with no price as free: the local model looks like it cost $0.00."""
    costs: dict[str, tuple[int, int, float | None]] = {}
    for span in spans:
        if span.get("type") != "llm":
            continue
        usage = span.get("usage") or {}
        tokens_in, tokens_out, dollars = costs.get(span["model"], (0, 0, 0.0))
        costs[span["model"]] = (
            tokens_in + usage.get("prompt_tokens", 0),
            tokens_out + usage.get("completion_tokens", 0),
            (dollars or 0.0) + (span.get("total_estimated_cost") or 0.0),
        )
    return costs
