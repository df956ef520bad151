"""Usage and cost accounting: pydantic-ai's token counts into decode's `Usage`.

Prices come from `genai-prices` (through `ModelResponse.cost()`), which knows the public price
lists of the big providers. Local, scripted and unknown models have no price: cost stays None.
"""

import logging

from pydantic_ai.messages import ModelResponse

from decode.entities.usage import Usage

logger = logging.getLogger(__name__)


def response_usage(response: ModelResponse) -> Usage:
    """The tokens (and, where the price is known, the dollars) of one model response."""
    cost: float | None = None
    # A response with no provider comes from a local function (the scripted model): nothing to price,
    # and skipping the look-up spares loading the price tables.
    if response.provider_name is not None:
        try:
            cost = float(response.cost().total_price)
        except Exception:  # genai-prices raises LookupError and friends for unknown models
            cost = None
    return Usage(
        requests=1,
        input_tokens=response.usage.input_tokens,
        output_tokens=response.usage.output_tokens,
        cost_usd=cost,
        cache_read_tokens=response.usage.cache_read_tokens,  # [lesson 20]
        cache_write_tokens=response.usage.cache_write_tokens,  # [lesson 20]
    )
