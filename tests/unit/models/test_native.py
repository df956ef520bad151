"""The native providers and the aliases: each string builds its provider's model, or names the key it lacks."""

from pathlib import Path

import pytest
from pydantic_ai.models.anthropic import AnthropicModel
from pydantic_ai.models.bedrock import BedrockConverseModel
from pydantic_ai.models.openai import OpenAIChatModel, OpenAIResponsesModel
from pydantic_ai.settings import ModelSettings

from decode.config.settings import MODEL_ALIASES, Settings
from decode.models.errors import MissingKeyError, ModelConfigError
from decode.models.gateway import resolve_model, split_model_string
from decode.models.native import thinking_settings
from decode.models.retry import RetryingModel

KEYS = {"anthropic_api_key": "sk-ant-test", "openai_api_key": "sk-test"}


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


@pytest.mark.parametrize(
    ("spec", "kind", "name"),
    [
        ("anthropic:claude-sonnet-5", AnthropicModel, "claude-sonnet-5"),
        ("openai:gpt-5", OpenAIResponsesModel, "gpt-5"),  # reasoning: the Responses API
        ("openai:o3", OpenAIResponsesModel, "o3"),
        ("openai:gpt-4.1", OpenAIChatModel, "gpt-4.1"),  # no reasoning: chat completions
        ("sonnet", AnthropicModel, "claude-sonnet-5"),
        ("gpt-5", OpenAIResponsesModel, "gpt-5"),
    ],
)
def test_a_native_string_or_an_alias_builds_its_providers_model(spec: str, kind: type, name: str) -> None:
    model = resolve_model(spec, settings(**KEYS))

    assert isinstance(model, RetryingModel)  # one retry policy for every provider
    assert isinstance(model.wrapped, kind)
    assert model.model_name == name


def test_bedrock_builds_with_an_api_key_and_a_region() -> None:
    model = resolve_model(
        "bedrock:us.anthropic.claude-sonnet-4-5-20250929-v1:0",
        settings(aws_bearer_token_bedrock="bedrock-key", aws_region="us-east-1"),
    )

    assert isinstance(model, RetryingModel)
    assert isinstance(model.wrapped, BedrockConverseModel)


@pytest.mark.parametrize(
    ("spec", "variable", "values"),
    [
        ("anthropic:claude-sonnet-5", "ANTHROPIC_API_KEY", {}),
        ("opus", "ANTHROPIC_API_KEY", {}),
        ("openai:gpt-5", "OPENAI_API_KEY", {"openai_base_url": "http://127.0.0.1:9/v1"}),
        ("google-vertex:gemini-2.5-pro", "GOOGLE_CLOUD_PROJECT", {}),
        ("bedrock:amazon.nova-pro-v1:0", "AWS_BEARER_TOKEN_BEDROCK (or AWS_ACCESS_KEY_ID)", {}),
        ("bedrock:amazon.nova-pro-v1:0", "AWS_REGION", {"aws_bearer_token_bedrock": "k"}),
    ],
)
def test_a_missing_key_is_named_before_any_request(
    project: Path, spec: str, variable: str, values: dict[str, object]
) -> None:
    with pytest.raises(MissingKeyError) as caught:
        resolve_model(spec, settings(**values))

    assert caught.value.variable == variable
    assert str(caught.value).startswith(f"{variable} is not set: ")
    assert str(project.resolve() / ".env") in str(caught.value)


def test_the_users_aliases_add_to_and_override_decodes() -> None:
    mine = settings(model_aliases={"fast": "openai:gpt-5-mini", "sonnet": "anthropic:claude-sonnet-4-6"})

    assert mine.expand_alias("fast") == "openai:gpt-5-mini"
    assert mine.expand_alias("sonnet") == "anthropic:claude-sonnet-4-6"
    assert mine.expand_alias("opus") == MODEL_ALIASES["opus"]
    assert mine.expand_alias("openai:fast") == "openai:fast"  # a full model string is never looked up
    assert mine.expand_alias("no-such-alias") == "no-such-alias"


def test_every_alias_names_a_provider_decode_has() -> None:
    for alias, model in MODEL_ALIASES.items():
        _, name = split_model_string(model)
        assert ":" not in alias
        assert name, alias


def test_a_name_that_is_no_alias_says_where_the_aliases_are() -> None:
    with pytest.raises(ModelConfigError, match=r"no alias and no provider in 'gpt-9'.*`decode models` lists"):
        resolve_model("gpt-9", settings())


@pytest.mark.parametrize(
    ("spec", "instead"),
    [
        ("google:gemini-2.5-pro", "google-gla:gemini-2.5-pro"),
        ("google-cloud:gemini-2.5-pro", "google-vertex:gemini-2.5-pro"),
        ("openai-chat:gpt-4.1", "openai:gpt-4.1"),
        ("ollama:qwen3-coder", "openai-compatible:qwen3-coder with OPENAI_BASE_URL=http://localhost:11434/v1"),
    ],
)
def test_another_tools_provider_name_says_what_to_write(spec: str, instead: str) -> None:
    with pytest.raises(ModelConfigError, match=f"decode has no {spec.split(':')[0]}: provider") as error:
        split_model_string(spec)

    assert instead in str(error.value)


@pytest.mark.parametrize(
    ("level", "expected"), [(None, {}), ("off", {"thinking": False}), ("high", {"thinking": "high"})]
)
def test_decode_thinking_is_pydantic_ais_unified_thinking_setting(level: str | None, expected: dict) -> None:
    assert thinking_settings(settings(thinking=level), ModelSettings()) == expected


def test_an_unknown_thinking_level_is_a_settings_error() -> None:
    with pytest.raises(ValueError, match="thinking"):
        settings(thinking="max")
