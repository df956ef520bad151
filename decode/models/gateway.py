"""Resolve a model string (`provider:name`) into a ready pydantic-ai model.

| string                       | what                                          | needs                          |
|------------------------------|-----------------------------------------------|--------------------------------|
| `anthropic:claude-…`         | Claude through Anthropic's Messages API       | ANTHROPIC_API_KEY              |
| `openai:gpt-…`, `openai:o3`  | OpenAI: Responses API (reasoning models) or   | OPENAI_API_KEY                 |
|                              | chat completions                              |                                |
| `google-gla:gemini-…`        | Gemini through google-genai                   | GEMINI_API_KEY                 |
| `google-vertex:gemini-…`     | Gemini on Google Cloud's Vertex AI            | GOOGLE_CLOUD_PROJECT (+ ADC)   |
| `bedrock:MODEL-ID`           | a model on Amazon Bedrock                     | AWS_BEARER_TOKEN_BEDROCK (or   |
|                              |                                               | an AWS access key), AWS_REGION |
| `openrouter:vendor/model`    | OpenRouter (OpenAI-compatible)                | OPENROUTER_API_KEY             |
| `modal:NAME`                 | an open model served on Modal                 | DECODE_MODAL_LLM_URL (+ token) |
| `openai-compatible:NAME`     | Ollama, llama.cpp, vLLM… at OPENAI_BASE_URL   | OPENAI_BASE_URL (+ key)        |
| `test`                       | pydantic-ai's TestModel, calling no tool      | nothing                        |
| `script:PATH`                | the scripted model (`script.py`)              | nothing                        |

A name without `provider:` is an alias (`sonnet`, `gpt-5`, `o3`…): one table in the settings
(`MODEL_ALIASES`, and the user's own `DECODE_MODEL_ALIASES`) turns it into a full model string.
The native providers' models are built in `native.py`.
Provider SDKs are imported only for the provider in use: each is slow to import. Every network
model is wrapped in `RetryingModel`, with the SDK's own retries off, so one policy applies.

Every request carries one system message: pydantic-ai sends each instruction part (the fixed
instructions, each dynamic one) as a system message of its own, and the chat templates of many
local models accept only one, at the start. The OpenAI-compatible models are told to merge them.
Other tools' provider names (`google:`, `ollama:`…) are refused with the string to use instead.
"""

from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import SecretStr
from pydantic_ai.models import Model

from decode.config.settings import Settings
from decode.models.errors import MissingKeyError, ModelConfigError
from decode.models.retry import OnRetry, RetryingModel

if TYPE_CHECKING:
    from openai import AsyncOpenAI
    from pydantic_ai.profiles.openai import OpenAIModelProfile

PROVIDERS = (
    "anthropic",
    "openai",
    "google-gla",
    "google-vertex",
    "bedrock",
    "openrouter",
    "modal",
    "openai-compatible",
    "test",
    "script",
)

# Provider names other tools use (pydantic-ai, Claude Code, Codex, OpenCode): what to write here instead.
INSTEAD: dict[str, str] = {
    "google": "google-gla:{name} (GEMINI_API_KEY)",
    "gemini": "google-gla:{name} (GEMINI_API_KEY)",
    "google-cloud": "google-vertex:{name} (GOOGLE_CLOUD_PROJECT)",
    "openai-chat": "openai:{name} (chat completions unless it is a reasoning model)",
    "openai-responses": "openai:{name} (the Responses API for reasoning models)",
    "ollama": "openai-compatible:{name} with OPENAI_BASE_URL=http://localhost:11434/v1",
    "vllm": "openai-compatible:{name} with OPENAI_BASE_URL set to the server's /v1 address",
    "lmstudio": "openai-compatible:{name} with OPENAI_BASE_URL=http://localhost:1234/v1",
}


def split_model_string(spec: str) -> tuple[str, str]:
    """`"openrouter:qwen/qwen3-coder"` → `("openrouter", "qwen/qwen3-coder")`; `"test"` → `("test", "")`."""
    provider, _, name = spec.strip().partition(":")
    name = name.strip()
    if provider not in PROVIDERS and provider.lower() in INSTEAD:
        instead = INSTEAD[provider.lower()].format(name=name or "NAME")
        raise ModelConfigError(f"decode has no {provider}: provider; for {spec.strip()!r} use {instead}")
    if provider not in PROVIDERS:
        known = ", ".join(p if p == "test" else f"{p}:" for p in PROVIDERS)
        what = "no alias and no provider" if not name else "unknown model provider"
        raise ModelConfigError(f"{what} in {spec!r}: use one of {known} (`decode models` lists the aliases)")
    if provider != "test" and not name:
        raise ModelConfigError(f"model string {spec!r} has no model name after '{provider}:'")
    return provider, name


def resolve_model(spec: str, settings: Settings, *, on_retry: OnRetry | None = None) -> Model:
    """Build the model that `spec` (a model string or an alias) names, or raise `ModelConfigError`
    before any request is made."""
    provider, name = split_model_string(settings.expand_alias(spec))
    if provider == "test":
        from pydantic_ai.models.test import TestModel

        # No tool calls: by default TestModel calls every tool with made-up arguments ("a"), again on
        # each retry, so a tool that refuses them (`skill`) fails the run and one that takes them
        # (`write`) writes a file `a`. `test` answers "success (no tool calls)" at every lesson.
        return TestModel(call_tools=[])
    if provider == "script":
        from decode.models.script import ScriptedModel

        return ScriptedModel.from_file(Path(name).expanduser())
    model = _network_model(provider, name, settings)
    return RetryingModel(
        model,
        max_retries=settings.max_retries,
        base_delay=settings.retry_base_delay,
        on_retry=on_retry,
    )


def _network_model(provider: str, name: str, settings: Settings) -> Model:
    """The provider's model, its key checked first."""
    if provider in ("anthropic", "openai", "google-vertex", "bedrock"):
        from decode.models import native  # the model makers' own APIs

        makers = {
            "anthropic": native.anthropic_model,
            "openai": native.openai_model,
            "google-vertex": native.vertex_model,
            "bedrock": native.bedrock_model,
        }
        return makers[provider](name, settings)
    if provider == "google-gla":
        return _gemini(name, settings)
    if provider == "openrouter":
        return _openrouter(name, settings)
    if provider == "modal":
        if not settings.modal_llm_url:
            raise MissingKeyError("DECODE_MODAL_LLM_URL", "modal:", str(settings.env_file))
        return _openai_chat(name, settings.modal_llm_url, settings.modal_llm_token, settings)
    # openai-compatible
    if not settings.openai_base_url:
        raise MissingKeyError("OPENAI_BASE_URL", "openai-compatible:", str(settings.env_file))
    return _openai_chat(name, settings.openai_base_url, settings.openai_api_key, settings)


# Merged on top of the provider's own profile for the model (pydantic-ai's switch for the templates that
# reject a second system message; its vLLM provider sets it too). Gemini takes one system instruction anyway.
ONE_SYSTEM_MESSAGE: "OpenAIModelProfile" = {"openai_chat_supports_multiple_system_messages": False}


def _gemini(name: str, settings: Settings) -> Model:
    if settings.gemini_api_key is None:
        raise MissingKeyError("GEMINI_API_KEY", "google-gla:", str(settings.env_file))
    import httpx2
    from pydantic_ai.models.google import GoogleModel
    from pydantic_ai.providers.google import GoogleProvider

    provider = GoogleProvider(
        api_key=settings.gemini_api_key.get_secret_value(),
        base_url=settings.gemini_base_url,
        http_client=httpx2.AsyncClient(timeout=httpx2.Timeout(settings.request_timeout, connect=10)),
    )
    return GoogleModel(name, provider=provider)


def _openai_client(base_url: str, api_key: str, settings: Settings) -> "AsyncOpenAI":
    from openai import AsyncOpenAI

    # max_retries=0: RetryingModel owns the retry policy for every provider.
    return AsyncOpenAI(base_url=base_url, api_key=api_key, max_retries=0, timeout=settings.request_timeout)


def _openrouter(name: str, settings: Settings) -> Model:
    if settings.openrouter_api_key is None:
        raise MissingKeyError("OPENROUTER_API_KEY", "openrouter:", str(settings.env_file))
    from pydantic_ai.providers.openrouter import OpenRouterProvider

    from decode.models.breakpoints import CACHE_THE_TOOLS, CachingOpenRouter

    client = _openai_client(settings.openrouter_base_url, settings.openrouter_api_key.get_secret_value(), settings)
    provider = OpenRouterProvider(openai_client=client)
    # Cache breakpoints for the models that take them (Anthropic's), nothing new for the others.
    return CachingOpenRouter(name, provider=provider, profile=ONE_SYSTEM_MESSAGE, settings=CACHE_THE_TOOLS)


def _openai_chat(name: str, base_url: str, api_key: SecretStr | None, settings: Settings) -> Model:
    from pydantic_ai.models.openai import OpenAIChatModel
    from pydantic_ai.providers.openai import OpenAIProvider

    # Local servers (Ollama, llama.cpp) accept any key; the SDK insists on one being set.
    key = api_key.get_secret_value() if api_key is not None else "not-needed"
    client = _openai_client(base_url, key, settings)
    return OpenAIChatModel(name, provider=OpenAIProvider(openai_client=client), profile=ONE_SYSTEM_MESSAGE)
