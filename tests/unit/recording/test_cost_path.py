"""kitaru-pydantic-ai's cost path works with the genai-prices this project installs (ADR-0069).

kitaru-pydantic-ai 0.3.1 asks for genai-prices < 0.2; the lock overrides it to 0.2.x. Its only
use is `calc_price(usage, model, provider_id=, genai_request_timestamp=)` inside a try/except
that turns any error into "cost unavailable", so a breaking upgrade would pass silently: here
a real price is computed through kitaru's own function and must match genai-prices'.
"""

from datetime import UTC, datetime
from decimal import Decimal

from genai_prices import Usage, calc_price
from kitaru_pydantic_ai.capability import _calculate_cost
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.usage import RequestUsage


def test_kitaru_prices_a_request_with_the_installed_genai_prices() -> None:
    started = datetime(2026, 1, 5, tzinfo=UTC)
    usage = RequestUsage(input_tokens=1_000_000, output_tokens=1_000_000)
    response = ModelResponse(parts=[TextPart("hi")], usage=usage, model_name="gpt-4o", provider_name="openai")

    cost, attributes = _calculate_cost(response, "gpt-4o", started, None, True)

    assert attributes == {"cost": {"status": "estimated", "source": "genai-prices"}}
    expected = calc_price(Usage(input_tokens=1_000_000, output_tokens=1_000_000), "gpt-4o", provider_id="openai")
    assert cost == Decimal(str(expected.total_price))
    assert cost == Decimal("12.5")  # gpt-4o: $2.50 in + $10 out per million tokens
