from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.usage import RequestUsage

from decode.models.cost import response_usage


def test_known_model_gets_a_price() -> None:
    response = ModelResponse(
        parts=[TextPart("hi")],
        usage=RequestUsage(input_tokens=1_000_000, output_tokens=0),
        model_name="gpt-4o",
        provider_name="openai",
    )
    usage = response_usage(response)
    assert (usage.requests, usage.input_tokens, usage.output_tokens) == (1, 1_000_000, 0)
    assert usage.cost_usd is not None
    assert usage.cost_usd > 0


def test_unknown_model_has_tokens_but_no_price() -> None:
    response = ModelResponse(
        parts=[TextPart("hi")],
        usage=RequestUsage(input_tokens=10, output_tokens=5),
        model_name="script:turns.json",
    )
    usage = response_usage(response)
    assert (usage.input_tokens, usage.output_tokens, usage.cost_usd) == (10, 5, None)
