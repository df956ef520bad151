"""Model strings of other tools (`openai:`, `anthropic:`…) are refused with the string to use instead."""

import pytest

from decode.models.errors import ModelConfigError
from decode.models.gateway import split_model_string


@pytest.mark.parametrize(
    ("spec", "instead"),
    [
        ("openai:gpt-4.1", "openrouter:openai/gpt-4.1"),
        ("openai:gpt-4.1", "openai-compatible:gpt-4.1 with OPENAI_BASE_URL=https://api.openai.com/v1"),
        ("anthropic:claude-sonnet-4-5", "openrouter:anthropic/claude-sonnet-4-5"),
        ("google:gemini-2.5-pro", "google-gla:gemini-2.5-pro"),
        ("ollama:qwen3-coder", "openai-compatible:qwen3-coder with OPENAI_BASE_URL=http://localhost:11434/v1"),
    ],
)
def test_another_tools_provider_name_says_what_to_write(spec: str, instead: str) -> None:
    with pytest.raises(ModelConfigError, match=f"decode has no {spec.split(':')[0]}: provider") as error:
        split_model_string(spec)

    assert instead in str(error.value)


def test_an_unknown_provider_still_lists_the_known_ones() -> None:
    with pytest.raises(ModelConfigError, match="use one of google-gla:, openrouter:"):
        split_model_string("nonsense:model")
