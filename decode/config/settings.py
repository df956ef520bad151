"""Every setting decode reads, in one place.

Values come from, highest priority first: arguments passed to `Settings(...)`, environment
variables, the `.env` file in the launch directory, and the defaults below. Secrets are
`SecretStr`: printing the settings, logging them or putting them in a prompt shows `**********`,
and code that truly needs the key calls `.get_secret_value()` at the one place it is used.

`Settings` declares the settings every part of decode reads (the model and its providers); each
later lesson's settings are a group of their own in `decode/config/groups/`, which `Settings`
inherits: one class, one set of sources, one `.env.example`.

Import the ready-made object: `from decode.config.settings import settings`.
"""

from pathlib import Path
from typing import Literal

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings, SettingsConfigDict

from decode.config import project_env
from decode.config.groups.agents import AgentSettings
from decode.config.groups.commands import CommandSettings
from decode.config.groups.evals import EvalSettings
from decode.config.groups.headless import HeadlessSettings
from decode.config.groups.lsp import LspSettings
from decode.config.groups.mcp import McpSettings
from decode.config.groups.memory import MemorySettings
from decode.config.groups.permissions import PermissionSettings
from decode.config.groups.recording import RecordingSettings
from decode.config.groups.remote import DEPLOYS, RemoteSettings
from decode.config.groups.repl import ReplSettings
from decode.config.groups.sandbox import SandboxSettings
from decode.config.groups.sessions import SessionSettings
from decode.config.groups.tools import ToolSettings
from decode.config.groups.tracing import TracingSettings

DEFAULT_MODEL = "google-gla:gemini-flash-latest"

MODEL_ALIASES: dict[str, str] = {
    # The names users of Claude Code, Codex and Gemini CLI type, to full model strings.
    "sonnet": "anthropic:claude-sonnet-5",
    "opus": "anthropic:claude-opus-5-5",
    "haiku": "anthropic:claude-haiku-4-5",
    "gpt-5": "openai:gpt-5",
    "gpt-5-mini": "openai:gpt-5-mini",
    "gpt-5-codex": "openai:gpt-5-codex",
    "gpt-5.5": "openai:gpt-5.5",
    "gpt-4.1": "openai:gpt-4.1",
    "o3": "openai:o3",
    "o4-mini": "openai:o4-mini",
    "gemini": "google-gla:gemini-flash-latest",
    "flash": "google-gla:gemini-flash-latest",
    "gemini-pro": "google-gla:gemini-2.5-pro",
}
"""decode's model aliases: a name without `provider:` is looked up here (and in `DECODE_MODEL_ALIASES`)."""
ENV_FILE = ".env"


def _env(*names: str) -> AliasChoices:
    """Accept a setting under each of these environment variable names (first wins)."""
    return AliasChoices(*names)


class Settings(
    project_env.ProjectEnvFence,  # a project's `.env` sets no user-only field  # [lesson 16]
    EvalSettings,  # [lesson 24]
    RecordingSettings,  # [lesson 23]
    TracingSettings,  # [lesson 22]
    RemoteSettings,  # [lesson 21]
    HeadlessSettings,  # [lesson 20]
    SandboxSettings,  # [lesson 17]
    LspSettings,  # [lesson 16]
    AgentSettings,  # [lesson 15]
    McpSettings,  # [lesson 14]
    MemorySettings,  # [lesson 12]
    SessionSettings,  # [lesson 11]
    PermissionSettings,  # [lesson 06]
    CommandSettings,  # [lesson 05]
    ToolSettings,  # [lesson 04]
    ReplSettings,  # [lesson 03]
    BaseSettings,
):
    """decode's settings. Field docs double as the comments of `.env.example`.

    Later lessons add their settings as groups, each a base here, the latest lesson first: pydantic
    collects a class's fields from its last base to its first, so they come in the lessons' order.
    """

    model_config = SettingsConfigDict(
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    env: Literal["dev", "test", "prod"] = Field(
        "dev",
        validation_alias=_env("DECODE_ENV"),
        json_schema_extra=DEPLOYS,  # [lesson 21]
    )
    """Deployment name: it names what decode deploys (lesson 21's Modal app), never changes behaviour."""

    model: str = Field(DEFAULT_MODEL, validation_alias=_env("DECODE_MODEL"))
    """The model string `provider:name` (or an alias: `sonnet`, `gpt-5`…) used when `--model` is not given."""

    model_aliases: dict[str, str] = Field(default_factory=dict, validation_alias=_env("DECODE_MODEL_ALIASES"))
    """Your own model aliases, as JSON: `{"fast": "openai:gpt-5-mini"}`; they add to and win over
    decode's (`MODEL_ALIASES`; `decode models` lists them all)."""

    thinking: Literal["off", "minimal", "low", "medium", "high", "xhigh"] | None = Field(
        None, validation_alias=_env("DECODE_THINKING")
    )
    """How hard a reasoning model thinks before it answers (Anthropic's extended thinking, OpenAI's
    reasoning effort, Gemini's thinking budget); unset: the model's own default."""

    log_level: str = Field("WARNING", validation_alias=_env("DECODE_LOG_LEVEL"))
    """Level of decode's log lines on stderr: DEBUG, INFO, WARNING or ERROR."""

    max_requests: int = Field(50, ge=1, validation_alias=_env("DECODE_MAX_REQUESTS"))
    """Ceiling on model requests in one run; `decode run` stops with exit code 3 past it."""

    request_timeout: float = Field(120.0, gt=0, validation_alias=_env("DECODE_REQUEST_TIMEOUT"))
    """Seconds to wait for a model's HTTP response before giving up on that attempt."""

    max_retries: int = Field(3, ge=0, validation_alias=_env("DECODE_MAX_RETRIES"))
    """How often a transient model error (429, 5xx, timeout) is retried before the run fails."""

    retry_base_delay: float = Field(1.0, ge=0, validation_alias=_env("DECODE_RETRY_BASE_DELAY"))
    """First back-off delay in seconds; each retry doubles it (a server's Retry-After wins)."""

    gemini_api_key: SecretStr | None = Field(None, validation_alias=_env("GEMINI_API_KEY", "GOOGLE_API_KEY"))
    """Key for `google-gla:` models (Google AI Studio)."""

    gemini_base_url: str | None = Field(
        None,
        validation_alias=_env("GEMINI_BASE_URL"),
        json_schema_extra=project_env.SENDS,  # [lesson 16]
    )
    """Override the Gemini API address (a proxy, or a local test server)."""

    anthropic_api_key: SecretStr | None = Field(None, validation_alias=_env("ANTHROPIC_API_KEY"))
    """Key for `anthropic:` models (the Claude API)."""

    anthropic_base_url: str | None = Field(
        None,
        validation_alias=_env("ANTHROPIC_BASE_URL"),
        json_schema_extra=project_env.SENDS,  # [lesson 16]
    )
    """Override the Anthropic API address (a proxy, or a local test server)."""

    openrouter_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENROUTER_API_KEY"))
    """Key for `openrouter:` models."""

    openrouter_base_url: str = Field(
        "https://openrouter.ai/api/v1",
        validation_alias=_env("OPENROUTER_BASE_URL"),
        json_schema_extra=project_env.SENDS,  # [lesson 16]
    )
    """OpenRouter's OpenAI-compatible address."""

    openai_base_url: str | None = Field(
        None,
        validation_alias=_env("OPENAI_BASE_URL"),
        json_schema_extra=project_env.SENDS,  # [lesson 16]
    )
    """Address of the OpenAI-compatible server used by `openai-compatible:NAME` (Ollama, vLLM…); when
    set, `openai:` models are sent there too (a proxy, or a local test server)."""

    openai_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENAI_API_KEY"))
    """Key for `openai:` models, and for the `openai-compatible:` server when it wants one."""

    google_cloud_project: str | None = Field(None, validation_alias=_env("GOOGLE_CLOUD_PROJECT"))
    """Google Cloud project of `google-vertex:` models (Vertex AI; credentials: `gcloud auth
    application-default login` or GOOGLE_APPLICATION_CREDENTIALS)."""

    google_cloud_location: str = Field("global", validation_alias=_env("GOOGLE_CLOUD_LOCATION"))
    """Vertex AI region of `google-vertex:` models: `global`, `us-central1`, `europe-west4`…"""

    aws_bearer_token_bedrock: SecretStr | None = Field(None, validation_alias=_env("AWS_BEARER_TOKEN_BEDROCK"))
    """Amazon Bedrock API key for `bedrock:` models (else AWS_ACCESS_KEY_ID and AWS_SECRET_ACCESS_KEY)."""

    aws_access_key_id: SecretStr | None = Field(None, validation_alias=_env("AWS_ACCESS_KEY_ID"))
    """AWS access key id for `bedrock:` models, with AWS_SECRET_ACCESS_KEY."""

    aws_secret_access_key: SecretStr | None = Field(None, validation_alias=_env("AWS_SECRET_ACCESS_KEY"))
    """AWS secret access key for `bedrock:` models."""

    aws_region: str | None = Field(None, validation_alias=_env("AWS_REGION", "AWS_DEFAULT_REGION"))
    """AWS region of `bedrock:` models (`us-east-1`…)."""

    modal_llm_url: str | None = Field(
        None,
        validation_alias=_env("DECODE_MODAL_LLM_URL"),
        json_schema_extra=project_env.SENDS,  # [lesson 16]
    )
    """OpenAI-compatible address of a model served on Modal, for `modal:NAME`."""

    modal_llm_token: SecretStr | None = Field(None, validation_alias=_env("DECODE_MODAL_LLM_TOKEN"))
    """Bearer token of that Modal endpoint."""

    def aliases(self) -> dict[str, str]:
        """Every model alias: decode's table with the user's own on top."""
        return {**MODEL_ALIASES, **self.model_aliases}

    def expand_alias(self, spec: str) -> str:
        """`"sonnet"` → `"anthropic:claude-sonnet-5"`; a full model string or an unknown name comes back as it is."""
        name = spec.strip()
        return self.aliases().get(name, spec) if ":" not in name else spec

    @property
    def env_file(self) -> Path:
        """The `.env` file these settings read (it need not exist)."""
        return Path(ENV_FILE).resolve()


def __getattr__(name: str) -> Settings:
    """`settings`, the ready-made object, is built on first use, not when the module is imported:
    a bad value then fails where the caller can report it (`decode.config.loading`), and importing
    `Settings` never fails."""
    if name != "settings":
        raise AttributeError(f"module {__name__!r} has no attribute {name!r}")
    value = Settings()
    globals()["settings"] = value  # later look-ups find the object itself
    return value
