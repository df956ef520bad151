"""Every setting decode reads, in one place.

Values come from, highest priority first: arguments passed to `Settings(...)`, environment
variables, the `.env` file in the launch directory, and the defaults below. Secrets are
`SecretStr`: printing the settings, logging them or putting them in a prompt shows `**********`,
and code that truly needs the key calls `.get_secret_value()` at the one place it is used.

Import the ready-made object: `from decode.config.settings import settings`.
"""

import json  # [lesson 05]
import os  # [lesson 14]
import re  # [lesson 05]
from pathlib import Path
from typing import (
    Annotated,  # [lesson 05]
    Literal,
    get_args,  # [lesson 05]
)
from uuid import UUID  # [lesson 17]

from pydantic import (
    AliasChoices,
    BeforeValidator,  # [lesson 14]
    Field,
    SecretStr,
    field_validator,  # [lesson 05]
)
from pydantic_settings import (
    BaseSettings,
    DotEnvSettingsSource,  # [lesson 13]
    NoDecode,  # [lesson 05]
    PydanticBaseSettingsSource,  # [lesson 13]
    SettingsConfigDict,
)

from decode.config.project_env import project_values, user_only  # [lesson 13]

DEFAULT_MODEL = "google-gla:gemini-flash-latest"
ENV_FILE = ".env"
SENDS = user_only("sends your prompts and code to that address")  # [lesson 13]


def _env(*names: str) -> AliasChoices:
    """Accept a setting under each of these environment variable names (first wins)."""
    return AliasChoices(*names)


# [lesson 14]
def _split_paths(value: object) -> object:
    """`/a:/b` or `["/a", "/b"]` from the environment, a list as it is; `~` is expanded."""
    if isinstance(value, str):
        if value.lstrip().startswith("["):
            try:
                value = json.loads(value)
            except json.JSONDecodeError:
                raise ValueError("expected paths separated by ':', or a JSON list of paths") from None
        else:
            value = [part for part in value.split(os.pathsep) if part.strip()]
    if isinstance(value, list):
        return [Path(str(part)).expanduser() for part in value]
    return value


PathList = Annotated[list[Path], NoDecode, BeforeValidator(_split_paths)]
"""Paths from one setting: `:`-separated as in PATH, or a JSON list."""


# [/lesson 14]
class Settings(BaseSettings):
    """decode's settings. Field docs double as the comments of `.env.example`."""

    model_config = SettingsConfigDict(
        env_file=ENV_FILE,
        env_file_encoding="utf-8",
        extra="ignore",
        populate_by_name=True,
    )

    # [lesson 15]
    env: Literal["dev", "test", "prod"] = Field(
        "dev",
        validation_alias=_env("DECODE_ENV"),
        json_schema_extra=user_only("chooses which Modal app `decode remote deploy` replaces"),
    )
    # [before lesson 15]
    # env: Literal["dev", "test", "prod"] = Field("dev", validation_alias=_env("DECODE_ENV"))
    # [/lesson 15]
    """Deployment name: it names what decode deploys (lesson 15's Modal app), never changes behaviour."""

    model: str = Field(DEFAULT_MODEL, validation_alias=_env("DECODE_MODEL"))
    """The model string `provider:name` used when `--model` is not given."""

    log_level: str = Field("WARNING", validation_alias=_env("DECODE_LOG_LEVEL"))
    """Level of decode's log lines on stderr: DEBUG, INFO, WARNING or ERROR."""

    max_requests: int = Field(50, ge=1, validation_alias=_env("DECODE_MAX_REQUESTS"))
    """Ceiling on model requests in one run; `decode run` stops with exit code 3 past it."""
    # [lesson 03]

    context_window: int = Field(128_000, gt=0, validation_alias=_env("DECODE_CONTEXT_WINDOW"))
    """Tokens the model can hold, for a model whose own window is not known; the REPL's context gauge
    shows how full it is."""
    # [/lesson 03]
    # [lesson 08]

    context_windows: dict[str, int] = Field(default_factory=dict, validation_alias=_env("DECODE_CONTEXT_WINDOWS"))
    """Tokens per model, as JSON: `{"openai-compatible:qwen3-coder": 32768}`; a key may end in `*`. Wins over
    DECODE_CONTEXT_WINDOW, what an OpenAI-compatible server says (`/v1/models`) and decode's table."""
    # [/lesson 08]

    request_timeout: float = Field(120.0, gt=0, validation_alias=_env("DECODE_REQUEST_TIMEOUT"))
    """Seconds to wait for a model's HTTP response before giving up on that attempt."""

    max_retries: int = Field(3, ge=0, validation_alias=_env("DECODE_MAX_RETRIES"))
    """How often a transient model error (429, 5xx, timeout) is retried before the run fails."""

    retry_base_delay: float = Field(1.0, ge=0, validation_alias=_env("DECODE_RETRY_BASE_DELAY"))
    """First back-off delay in seconds; each retry doubles it (a server's Retry-After wins)."""

    gemini_api_key: SecretStr | None = Field(None, validation_alias=_env("GEMINI_API_KEY", "GOOGLE_API_KEY"))
    """Key for `google-gla:` models (Google AI Studio)."""

    # [lesson 13]
    gemini_base_url: str | None = Field(None, validation_alias=_env("GEMINI_BASE_URL"), json_schema_extra=SENDS)
    # [before lesson 13]
    # gemini_base_url: str | None = Field(None, validation_alias=_env("GEMINI_BASE_URL"))
    # [/lesson 13]
    """Override the Gemini API address (a proxy, or a local test server)."""

    openrouter_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENROUTER_API_KEY"))
    """Key for `openrouter:` models."""

    # [lesson 13]
    openrouter_base_url: str = Field(
        "https://openrouter.ai/api/v1", validation_alias=_env("OPENROUTER_BASE_URL"), json_schema_extra=SENDS
    )
    # [before lesson 13]
    # openrouter_base_url: str = Field("https://openrouter.ai/api/v1", validation_alias=_env("OPENROUTER_BASE_URL"))
    # [/lesson 13]
    """OpenRouter's OpenAI-compatible address."""

    # [lesson 13]
    openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL"), json_schema_extra=SENDS)
    # [before lesson 13]
    # openai_base_url: str | None = Field(None, validation_alias=_env("OPENAI_BASE_URL"))
    # [/lesson 13]
    """Address of the OpenAI-compatible server used by `openai-compatible:NAME` (Ollama, vLLM…)."""

    openai_api_key: SecretStr | None = Field(None, validation_alias=_env("OPENAI_API_KEY"))
    """Key for that server, when it wants one."""

    # [lesson 13]
    modal_llm_url: str | None = Field(None, validation_alias=_env("DECODE_MODAL_LLM_URL"), json_schema_extra=SENDS)
    # [before lesson 13]
    # modal_llm_url: str | None = Field(None, validation_alias=_env("DECODE_MODAL_LLM_URL"))
    # [/lesson 13]
    """OpenAI-compatible address of a model served on Modal, for `modal:NAME`."""

    modal_llm_token: SecretStr | None = Field(None, validation_alias=_env("DECODE_MODAL_LLM_TOKEN"))
    """Bearer token of that Modal endpoint."""
    # [lesson 05]

    bash_timeout: float = Field(120.0, gt=0, validation_alias=_env("DECODE_BASH_TIMEOUT"))
    """Seconds a `bash` command may run when the model names no timeout; then its process group is killed."""

    bash_max_timeout: float = Field(600.0, gt=0, validation_alias=_env("DECODE_BASH_MAX_TIMEOUT"))
    """The longest timeout the model may ask `bash` for, in seconds."""
    # [/lesson 05]
    # [lesson 04]

    tool_output_limit: int = Field(30_000, ge=1_000, validation_alias=_env("DECODE_TOOL_OUTPUT_LIMIT"))
    """Characters of one tool output the model sees; past it, the head and the tail, and the full
    text is saved under `.decode/tool-output/`."""
    # [/lesson 04]
    # [lesson 05]

    # [lesson 13]
    pass_env: Annotated[list[str], NoDecode] = Field(
        default_factory=list,
        validation_alias=_env("DECODE_PASS_ENV"),
        json_schema_extra=user_only("hands your credentials to the agent's commands"),
    )
    # [before lesson 13]
    # pass_env: Annotated[list[str], NoDecode] = Field(default_factory=list, validation_alias=_env("DECODE_PASS_ENV"))
    # [/lesson 13]
    """Variables the agent's commands get although they look like credentials (`GITHUB_TOKEN`…), which
    are otherwise left out: names or patterns like `AWS_*`, comma-separated (or a JSON list).
    decode's own keys are never passed."""
    # [/lesson 05]
    # [lesson 06]

    secret_files: Annotated[list[str], NoDecode] = Field(
        default_factory=list, validation_alias=_env("DECODE_SECRET_FILES")
    )
    """Files that hold secrets besides `.env` and `.env.*`: no tool reads them (nor a command naming
    them) without asking, unless an allow rule names them. Names or patterns like `*.pem`
    (gitignore syntax), comma-separated (or a JSON list)."""
    # [/lesson 06]
    # [lesson 09]

    session_notes: bool = Field(
        False,
        validation_alias=_env("DECODE_SESSION_NOTES"),
        json_schema_extra=user_only("spends your model on a summary of each session"),  # [lesson 13]
    )
    """Write one line about each REPL session to `.decode/MEMORY.md` when you leave or `/clear` (one
    extra model request, in the background; leaving never waits on its retries). Off: leaving is instant."""
    # [/lesson 09]
    # [lesson 11]

    mcp_sampling: Literal["ask", "allow", "deny"] = Field(
        "ask",
        validation_alias=_env("DECODE_MCP_SAMPLING"),
        json_schema_extra=user_only("spends your model on an MCP server's prompts"),  # [lesson 13]
    )
    """When an MCP server asks decode's model a question (sampling): `ask` asks you each time in the
    REPL and refuses in `decode run`; `allow` lets it, in both; `deny` refuses. Each request is shown."""
    # [/lesson 11]
    # [lesson 12]

    max_subagents: int = Field(4, ge=1, le=32, validation_alias=_env("DECODE_MAX_SUBAGENTS"))
    """Subagents one conversation runs at the same time; more `agent` calls wait for a free place."""

    subagent_max_requests: int = Field(25, ge=1, validation_alias=_env("DECODE_SUBAGENT_MAX_REQUESTS"))
    """Ceiling on one subagent's model requests; past it, the parent is told what it had found so far."""

    subagent_timeout: float = Field(600.0, gt=0, validation_alias=_env("DECODE_SUBAGENT_TIMEOUT"))
    """Seconds one subagent may run; then it is stopped (its commands too) and the parent told."""

    subagent_report_chars: int = Field(20_000, ge=1_000, validation_alias=_env("DECODE_SUBAGENT_REPORT_CHARS"))
    """Characters of a subagent's final answer its parent receives; past it, the start and a note."""

    subagent_model: str | None = Field(None, validation_alias=_env("DECODE_SUBAGENT_MODEL"))
    """The model of subagents whose agent says `model: inherit`; unset: the parent's own model."""
    # [/lesson 12]
    # [lesson 13]

    lsp: bool = Field(True, validation_alias=_env("DECODE_LSP"))
    """Code intelligence: the `lsp` tool, and the new errors an edit caused appended to its result.
    Off: no language server is started."""

    lsp_servers: dict[str, list[str]] = Field(
        default_factory=dict,
        validation_alias=_env("DECODE_LSP_SERVERS"),
        json_schema_extra=user_only("starts those programs on this machine"),
    )
    """Language servers by file suffix, as JSON, over the default `{".py": ["ty", "server"]}`:
    `{".py": ["pylsp"]}` uses pylsp for Python, `{".rs": ["rust-analyzer"]}` adds Rust, `[]` turns one off."""

    lsp_timeout: float = Field(10.0, gt=0, validation_alias=_env("DECODE_LSP_TIMEOUT"))
    """Seconds one `lsp` request (a server's start included) may take; then the server counts as hung."""

    lsp_edit_timeout: float = Field(2.0, gt=0, validation_alias=_env("DECODE_LSP_EDIT_TIMEOUT"))
    """Seconds the diagnostics after a `write` or `edit` may take; past it the edit's result comes without them."""
    # [/lesson 13]
    # [lesson 14]

    sandbox_mode: Literal["none", "bwrap", "docker", "modal"] = Field(
        "none",
        validation_alias=_env("SANDBOX_MODE", "DECODE_SANDBOX_MODE"),
        json_schema_extra=user_only("decides where your code runs and what it can reach"),
    )
    """Where the agent's commands run when `--sandbox` is not given: `none` (here, as you would),
    `bwrap` (bubblewrap: host read-only, Workspace writable, no network), `docker` or `modal`."""

    sandbox_repo: str | None = Field(
        None,
        validation_alias=_env("SANDBOX_REPO", "DECODE_SANDBOX_REPO"),
        json_schema_extra=user_only("names where your work is pushed, with your git credentials"),
    )
    """A repository (path or URL) to clone into a Workspace under `.decode/` when `--repo` is not
    given; unset: the sandbox works on the launch directory itself."""

    sandbox_git_token: SecretStr | None = Field(
        None, validation_alias=_env("SANDBOX_GIT_TOKEN", "DECODE_SANDBOX_GIT_TOKEN")
    )
    """A token the sandbox's commands get as `GITHUB_TOKEN` (only when set; no other host variable
    that looks like a credential enters a sandbox). Give it the least rights you can."""

    sandbox_image: str = Field(
        "decode-sandbox:latest",
        validation_alias=_env("DECODE_SANDBOX_IMAGE"),
        json_schema_extra=user_only("chooses the programs your commands run in"),
    )
    """The Docker image `--sandbox docker` runs commands in."""

    sandbox_network: bool = Field(
        False,
        validation_alias=_env("DECODE_SANDBOX_NETWORK"),
        json_schema_extra=user_only("lets every sandboxed command reach the network"),
    )
    """Let every sandboxed command reach the network, without asking per command (bwrap, docker)."""

    sandbox_home_paths: PathList = Field(
        default_factory=list,
        validation_alias=_env("DECODE_SANDBOX_HOME_PATHS"),
        json_schema_extra=user_only("shows your files to the agent's commands"),
    )
    """Paths a sandboxed command may read (bwrap, docker), read-only, besides the toolchains of your
    home: inside, the home is otherwise empty. Relative ones are under your home; `:`-separated (or
    a JSON list). The credential files decode knows (`~/.ssh`, `~/.config/gh`…) stay hidden even there."""
    # [lesson 18]

    sandbox_hide: PathList = Field(default_factory=list, validation_alias=_env("DECODE_SANDBOX_HIDE"))
    """Host paths a command in `--sandbox bwrap` cannot read, besides `.env` files and home
    credentials: a folder looks empty, a file is empty. Separated by `:` as in PATH (or a JSON
    list). A benchmark hides its tests with it. Docker and Modal never see the host's files."""

    # [/lesson 18]
    # [/lesson 14]
    # [lesson 15]

    remote_secret: str = Field(
        "decode-secrets",
        validation_alias=_env("DECODE_REMOTE_SECRET"),
        json_schema_extra=user_only("chooses which of your Modal Secrets the remote run gets"),
    )
    """The one Modal Secret `decode remote` runs with: the provider keys (`GEMINI_API_KEY`…) and a push token."""

    remote_nightly_schedule: str | None = Field(
        None,
        validation_alias=_env("DECODE_REMOTE_NIGHTLY_SCHEDULE"),
        json_schema_extra=user_only("deploys a run on a schedule, with your Secret"),
    )
    """A cron line (UTC), e.g. `0 3 * * *`: `decode remote deploy` adds a nightly run; unset: no nightly."""

    remote_nightly_task: str | None = Field(
        None,
        validation_alias=_env("DECODE_REMOTE_NIGHTLY_TASK"),
        json_schema_extra=user_only("is the prompt a scheduled run gives your agent"),
    )
    """The task the nightly run gives `decode run`."""

    remote_nightly_repo: str | None = Field(
        None,
        validation_alias=_env("DECODE_REMOTE_NIGHTLY_REPO"),
        json_schema_extra=user_only("names where the nightly run pushes its work"),
    )
    """The repository (URL) the nightly run clones and pushes its branch to."""
    # [/lesson 15]
    # [lesson 16]

    opik_api_key: SecretStr | None = Field(
        None, validation_alias=_env("OPIK_API_KEY"), json_schema_extra=user_only("sends every turn to Opik's cloud")
    )
    """Opik's API key: set (or `OPIK_URL_OVERRIDE`), every turn is traced to Opik (lesson 16)."""

    opik_url_override: str | None = Field(None, validation_alias=_env("OPIK_URL_OVERRIDE"), json_schema_extra=SENDS)
    """The Opik server traces go to (`http://localhost:5173/api` for a local one); unset: Opik's cloud."""

    opik_workspace: str | None = Field(
        None, validation_alias=_env("OPIK_WORKSPACE"), json_schema_extra=user_only("decides whose account sees them")
    )
    """The Opik workspace traces are logged in; unset: Opik's `default`."""

    opik_project_name: str = Field("decode", validation_alias=_env("OPIK_PROJECT_NAME"))
    """The Opik project traces are grouped under."""
    # [/lesson 16]
    # [lesson 17]

    kitaru_api_url: str | None = Field(
        None,
        validation_alias=_env("KITARU_API_URL"),
        json_schema_extra=user_only("sends your prompts, code and tool results to that address"),
    )
    """The Kitaru server sessions are recorded to (`make kitaru-local` prints a local one's);
    with `KITARU_AGENT_ID`, every turn is recorded (lesson 17)."""

    kitaru_agent_id: UUID | None = Field(None, validation_alias=_env("KITARU_AGENT_ID"))
    """The Kitaru agent decode's sessions are recorded under (`make kitaru-local` registers one)."""

    kitaru_api_key: SecretStr | None = Field(None, validation_alias=_env("KITARU_API_KEY", "KITARU_API_TOKEN"))
    """The Kitaru server's API key (`make kitaru-local` prints the local server's)."""

    kitaru_task_id: UUID | None = Field(
        None,
        validation_alias=_env("KITARU_TASK_ID"),
        json_schema_extra=user_only("says a Kitaru Worker launched this run"),
    )
    """Set by a Kitaru Worker: its run must be recorded, so an unreachable server fails it (exit 1)."""
    # [/lesson 17]
    # [lesson 05]

    # [lesson 06]
    @field_validator("pass_env", "secret_files", mode="before")
    # [before lesson 06]
    # @field_validator("pass_env", mode="before")
    # [/lesson 06]
    @classmethod
    def _split_names(cls, value: object) -> object:
        """`A,B C` or `["A", "B"]` from the environment or `.env`, a list as it is."""
        if not isinstance(value, str):
            return value
        if value.lstrip().startswith("["):
            try:
                return json.loads(value)
            except json.JSONDecodeError:
                raise ValueError("expected names separated by commas, or a JSON list of names") from None
        return [name for name in re.split(r"[,\s]+", value) if name]

    @classmethod
    def secret_env_names(cls) -> frozenset[str]:
        """The environment variables that carry decode's secrets (every `SecretStr` field's names).

        Commands the agent runs get an environment without them: derived from the fields, so a new
        secret setting is kept out of commands without anyone remembering a list.
        """
        names: set[str] = set()
        for name, field in cls.model_fields.items():
            if field.annotation is not SecretStr and SecretStr not in get_args(field.annotation):
                continue
            alias = field.validation_alias
            choices = alias.choices if isinstance(alias, AliasChoices) else [alias or name]
            names.update(str(choice).upper() for choice in choices)
        return frozenset(names)

    # [/lesson 05]
    # [lesson 13]

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        """The usual order, but the project's `.env` without the `user_only` fields (config/project_env.py)."""
        if isinstance(dotenv_settings, DotEnvSettingsSource):
            dotenv_settings.env_vars = project_values(dotenv_settings.env_vars, settings_cls)
        return init_settings, env_settings, dotenv_settings, file_secret_settings

    # [/lesson 13]

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
