from decode.entities.usage import Usage


def test_usage_adds_up() -> None:
    total = Usage(requests=1, input_tokens=10, output_tokens=2) + Usage(requests=1, input_tokens=5, output_tokens=1)
    assert (total.requests, total.input_tokens, total.output_tokens, total.total_tokens) == (2, 15, 3, 18)


def test_cost_stays_unknown_only_when_every_part_is_unknown() -> None:
    assert (Usage() + Usage()).cost_usd is None
    assert (Usage(cost_usd=0.5) + Usage()).cost_usd == 0.5
    assert (Usage(cost_usd=0.25) + Usage(cost_usd=0.5)).cost_usd == 0.75
