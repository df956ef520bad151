"""What the user can run: each provider with the key it needs and whether that key is set, and each alias.

`decode models` prints it. A key's value is never read here, only whether the setting holds one.
"""

from dataclasses import dataclass

from decode.config.settings import Settings


@dataclass(frozen=True)
class ProviderKey:
    """A provider (`anthropic`), what it needs (`ANTHROPIC_API_KEY`) and whether that is set."""

    provider: str
    needs: str
    ready: bool


def provider_keys(settings: Settings) -> list[ProviderKey]:
    """Every network provider of the gateway, in its order, with its key's presence."""
    s = settings
    aws_key = s.aws_bearer_token_bedrock is not None or (
        s.aws_access_key_id is not None and s.aws_secret_access_key is not None
    )
    return [
        ProviderKey("anthropic", "ANTHROPIC_API_KEY", s.anthropic_api_key is not None),
        ProviderKey("openai", "OPENAI_API_KEY", s.openai_api_key is not None),
        ProviderKey("google-gla", "GEMINI_API_KEY", s.gemini_api_key is not None),
        ProviderKey("google-vertex", "GOOGLE_CLOUD_PROJECT", bool(s.google_cloud_project)),
        ProviderKey("bedrock", "AWS_BEARER_TOKEN_BEDROCK, AWS_REGION", aws_key and bool(s.aws_region)),
        ProviderKey("openrouter", "OPENROUTER_API_KEY", s.openrouter_api_key is not None),
        ProviderKey("modal", "DECODE_MODAL_LLM_URL", bool(s.modal_llm_url)),
        ProviderKey("openai-compatible", "OPENAI_BASE_URL", bool(s.openai_base_url)),
    ]


@dataclass(frozen=True)
class Alias:
    """A model alias, the model string it stands for, and where it comes from."""

    name: str
    model: str
    yours: bool
    """Set in `DECODE_MODEL_ALIASES` (added, or replacing decode's)."""


def aliases(settings: Settings) -> list[Alias]:
    """decode's aliases, then the user's own (each replacing decode's of the same name in place)."""
    table = settings.aliases()
    return [Alias(name, model, name in settings.model_aliases) for name, model in table.items()]


def is_ready(model: str, settings: Settings) -> bool:
    """Is the provider of `model` (a model string or an alias) configured? The offline ones always are."""
    provider = settings.expand_alias(model).partition(":")[0].strip()
    keys = {key.provider: key.ready for key in provider_keys(settings)}
    return keys.get(provider, provider in ("test", "script"))
