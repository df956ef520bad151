"""The model makers' own APIs: Anthropic's Messages, OpenAI's Responses, Vertex AI, Amazon Bedrock.

Each function builds one pydantic-ai model from decode's settings, its SDK imported only here (each
is slow to import: only the SDK of the provider in use is loaded). The SDKs' own retries are off:
`RetryingModel` (wrapped around it by the gateway) owns the policy for every provider.

- Anthropic caches a prompt only up to the breakpoints a request marks: decode marks the system
  prompt and the tool definitions, fixed for a session, and the end of the history before the Turn
  Facts (`anthropic_breakpoints.py`, ADR-0101), so every request reads what it repeats from the
  cache. Extended thinking streams as thinking (`DECODE_THINKING`).
- OpenAI's reasoning models (o-series, GPT-5…) keep their reasoning between requests only through
  the Responses API; the others take chat completions, the API every OpenAI-compatible server speaks.
"""

from typing import TYPE_CHECKING

from pydantic_ai.models import Model
from pydantic_ai.settings import ModelSettings

from decode.config.settings import Settings
from decode.models.errors import MissingKeyError, ModelConfigError

if TYPE_CHECKING:
    from pydantic_ai.settings import ThinkingLevel

OPENAI_URL = "https://api.openai.com/v1"


def thinking_settings[S: ModelSettings](settings: Settings, model_settings: S) -> S:
    """`model_settings` with pydantic-ai's unified `thinking` setting, when the user chose one (`DECODE_THINKING`)."""
    if settings.thinking is not None:
        level: ThinkingLevel = False if settings.thinking == "off" else settings.thinking
        model_settings["thinking"] = level
    return model_settings


def anthropic_model(name: str, settings: Settings) -> Model:
    """A Claude model through Anthropic's Messages API, with the fixed prefix marked for its cache."""
    if settings.anthropic_api_key is None:
        raise MissingKeyError("ANTHROPIC_API_KEY", "anthropic:", str(settings.env_file))
    from anthropic import AsyncAnthropic
    from pydantic_ai.models.anthropic import AnthropicModelSettings
    from pydantic_ai.providers.anthropic import AnthropicProvider

    from decode.models.anthropic_breakpoints import CachingAnthropic

    client = AsyncAnthropic(
        api_key=settings.anthropic_api_key.get_secret_value(),
        base_url=settings.anthropic_base_url,
        max_retries=0,
        timeout=settings.request_timeout,
    )
    caching = AnthropicModelSettings(anthropic_cache_instructions=True, anthropic_cache_tool_definitions=True)
    provider = AnthropicProvider(anthropic_client=client)
    return CachingAnthropic(name, provider=provider, settings=thinking_settings(settings, caching))


def uses_responses(name: str) -> bool:
    """Does OpenAI's model `name` reason (o3, GPT-5…)? Its reasoning carries over only in the Responses API."""
    from pydantic_ai.profiles.openai import openai_model_profile

    return bool(openai_model_profile(name).get("openai_supports_reasoning"))


def openai_model(name: str, settings: Settings) -> Model:
    """An OpenAI model: the Responses API for a reasoning model, chat completions for the others."""
    if settings.openai_api_key is None:
        raise MissingKeyError("OPENAI_API_KEY", "openai:", str(settings.env_file))
    from openai import AsyncOpenAI
    from pydantic_ai.providers.openai import OpenAIProvider

    client = AsyncOpenAI(
        base_url=settings.openai_base_url or OPENAI_URL,
        api_key=settings.openai_api_key.get_secret_value(),
        max_retries=0,
        timeout=settings.request_timeout,
    )
    provider = OpenAIProvider(openai_client=client)
    if uses_responses(name):
        from pydantic_ai.models.openai import OpenAIResponsesModel

        return OpenAIResponsesModel(name, provider=provider, settings=thinking_settings(settings, ModelSettings()))
    from pydantic_ai.models.openai import OpenAIChatModel

    return OpenAIChatModel(name, provider=provider, settings=thinking_settings(settings, ModelSettings()))


def vertex_model(name: str, settings: Settings) -> Model:
    """A Gemini model on Google Cloud's Vertex AI, with Application Default Credentials."""
    if not settings.google_cloud_project:
        raise MissingKeyError("GOOGLE_CLOUD_PROJECT", "google-vertex:", str(settings.env_file))
    import httpx2
    from google.auth.exceptions import DefaultCredentialsError
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google_cloud import GoogleCloudProvider

    http = httpx2.AsyncClient(timeout=httpx2.Timeout(settings.request_timeout, connect=10))
    try:
        provider = GoogleCloudProvider(
            project=settings.google_cloud_project, location=settings.google_cloud_location, http_client=http
        )
    except DefaultCredentialsError:
        raise ModelConfigError(
            "google-vertex: models need Google Cloud credentials: run `gcloud auth application-default login`"
            " or set GOOGLE_APPLICATION_CREDENTIALS to a service account's key file"
        ) from None
    return GoogleModel(name, provider=provider, settings=thinking_settings(settings, ModelSettings()))


def bedrock_model(name: str, settings: Settings) -> Model:
    """A model on Amazon Bedrock (Converse API), with a Bedrock API key or an AWS access key."""
    token, key_id, secret = (
        settings.aws_bearer_token_bedrock,
        settings.aws_access_key_id,
        settings.aws_secret_access_key,
    )
    if token is None and (key_id is None or secret is None):
        missing = "AWS_ACCESS_KEY_ID" if key_id is None else "AWS_SECRET_ACCESS_KEY"
        raise MissingKeyError(f"AWS_BEARER_TOKEN_BEDROCK (or {missing})", "bedrock:", str(settings.env_file))
    if not settings.aws_region:
        raise MissingKeyError("AWS_REGION", "bedrock:", str(settings.env_file))
    from pydantic_ai.models.bedrock import BedrockConverseModel
    from pydantic_ai.providers.bedrock import BedrockProvider

    region, timeout = settings.aws_region, settings.request_timeout
    if token is not None:
        provider = BedrockProvider(
            api_key=token.get_secret_value(), region_name=region, aws_read_timeout=timeout, aws_connect_timeout=10
        )
    else:
        provider = BedrockProvider(
            aws_access_key_id=key_id.get_secret_value() if key_id else None,
            aws_secret_access_key=secret.get_secret_value() if secret else None,
            region_name=region,
            aws_read_timeout=timeout,
            aws_connect_timeout=10,
        )
    return BedrockConverseModel(name, provider=provider, settings=thinking_settings(settings, ModelSettings()))
