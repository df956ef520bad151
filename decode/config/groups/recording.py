"""The recording's settings (lesson 23)."""

from uuid import UUID

from pydantic import AliasChoices, Field, PositiveFloat, SecretStr
from pydantic_settings import BaseSettings

from decode.config.project_env import user_only


class RecordingSettings(BaseSettings):
    kitaru_api_url: str | None = Field(
        None,
        validation_alias=AliasChoices("KITARU_API_URL"),
        json_schema_extra=user_only("sends your prompts, code and tool results to that address"),
    )
    """The Kitaru server sessions are recorded to (`make kitaru-local` prints a local one's);
    with `KITARU_AGENT_ID`, every turn is recorded (lesson 23)."""

    kitaru_agent_id: UUID | None = Field(None, validation_alias=AliasChoices("KITARU_AGENT_ID"))
    """The Kitaru agent decode's sessions are recorded under (`make kitaru-local` registers one)."""

    kitaru_api_key: SecretStr | None = Field(None, validation_alias=AliasChoices("KITARU_API_KEY", "KITARU_API_TOKEN"))
    """The Kitaru server's API key (`make kitaru-local` prints the local server's)."""

    kitaru_task_id: UUID | None = Field(
        None,
        validation_alias=AliasChoices("KITARU_TASK_ID"),
        json_schema_extra=user_only("says a Kitaru Worker launched this run"),
    )
    """Set by a Kitaru Worker: its run must be recorded, so an unreachable server fails it (exit 1)."""

    recorder_timeout: PositiveFloat | None = Field(None, validation_alias=AliasChoices("DECODE_RECORDER_TIMEOUT"))
    """Seconds a run waits for the Kitaru server to open its session before recording goes off (or a
    Worker's run fails); unset: 15. Raise it for a distant server; a refused one is reported in ~5 s."""
