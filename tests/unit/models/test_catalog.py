"""What `decode models` reads: each provider's key (set or not, never its value) and the aliases."""

from decode.config.settings import MODEL_ALIASES, Settings
from decode.models.catalog import aliases, is_ready, provider_keys
from decode.models.gateway import PROVIDERS


def settings(**values: object) -> Settings:
    return Settings(_env_file=None, **values)  # type: ignore[call-arg]


def test_every_network_provider_is_listed_once_with_its_key() -> None:
    keys = provider_keys(settings(anthropic_api_key="sk-ant-secret"))

    assert [key.provider for key in keys] == [p for p in PROVIDERS if p not in ("test", "script")]
    ready = {key.provider: key.ready for key in keys}
    assert ready["anthropic"] is True
    assert not any(value for provider, value in ready.items() if provider != "anthropic")
    assert "sk-ant-secret" not in repr(keys)


def test_bedrock_is_ready_with_a_key_pair_and_a_region_only() -> None:
    def bedrock(**values: object) -> bool:
        return {key.provider: key.ready for key in provider_keys(settings(**values))}["bedrock"]

    assert not bedrock(aws_access_key_id="AKIA", aws_region="eu-west-1")
    assert bedrock(aws_access_key_id="AKIA", aws_secret_access_key="s", aws_region="eu-west-1")
    assert not bedrock(aws_bearer_token_bedrock="k")


def test_aliases_are_decodes_then_the_users_own() -> None:
    table = aliases(settings(model_aliases={"fast": "openai:gpt-5-mini", "opus": "anthropic:claude-opus-5"}))

    names = [alias.name for alias in table]
    assert names == [*MODEL_ALIASES, "fast"]  # a replaced alias keeps its place
    mine = {alias.name: alias.model for alias in table if alias.yours}
    assert mine == {"opus": "anthropic:claude-opus-5", "fast": "openai:gpt-5-mini"}


def test_a_model_is_ready_when_its_providers_key_is_set() -> None:
    configured = settings(openai_api_key="sk-x")

    assert is_ready("gpt-5", configured)
    assert is_ready("openai:o3", configured)
    assert not is_ready("sonnet", configured)
    assert is_ready("test", configured)
    assert is_ready("script:turns.json", configured)
