"""Tokens and money."""

from pydantic import BaseModel


class Usage(BaseModel):
    """Token counts of one request or a running total; `cost_usd` is None when no price is known."""

    requests: int = 0
    input_tokens: int = 0
    output_tokens: int = 0
    cost_usd: float | None = None
    # [lesson 20]
    cache_read_tokens: int = 0
    """Input tokens the provider read from its prompt cache (part of `input_tokens`)."""
    cache_write_tokens: int = 0
    """Input tokens the provider wrote to its prompt cache (Anthropic's `cache_creation_input_tokens`)."""
    # [/lesson 20]

    @property
    def total_tokens(self) -> int:
        return self.input_tokens + self.output_tokens

    def __add__(self, other: "Usage") -> "Usage":
        # An unknown price on either side makes the total unknown only if both are unknown.
        if self.cost_usd is None and other.cost_usd is None:
            cost = None
        else:
            cost = (self.cost_usd or 0.0) + (other.cost_usd or 0.0)
        return Usage(
            requests=self.requests + other.requests,
            input_tokens=self.input_tokens + other.input_tokens,
            output_tokens=self.output_tokens + other.output_tokens,
            cost_usd=cost,
            cache_read_tokens=self.cache_read_tokens + other.cache_read_tokens,  # [lesson 20]
            cache_write_tokens=self.cache_write_tokens + other.cache_write_tokens,  # [lesson 20]
        )
