"""The remote runs' settings (lesson 21): `decode remote` and what it deploys."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.project_env import user_only

DEPLOYS = user_only("chooses which Modal app `decode remote deploy` replaces")
"""Why `DECODE_ENV` is not read from a project's `.env`."""


class RemoteSettings(BaseSettings):
    remote_secret: str = Field(
        "decode-secrets",
        validation_alias=AliasChoices("DECODE_REMOTE_SECRET"),
        json_schema_extra=user_only("chooses which of your Modal Secrets the remote run gets"),
    )
    """The one Modal Secret `decode remote` runs with: the provider keys (`GEMINI_API_KEY`…) and a push token."""

    remote_nightly_schedule: str | None = Field(
        None,
        validation_alias=AliasChoices("DECODE_REMOTE_NIGHTLY_SCHEDULE"),
        json_schema_extra=user_only("deploys a run on a schedule, with your Secret"),
    )
    """A cron line (UTC), e.g. `0 3 * * *`: `decode remote deploy` adds a nightly run; unset: no nightly."""

    remote_nightly_task: str | None = Field(
        None,
        validation_alias=AliasChoices("DECODE_REMOTE_NIGHTLY_TASK"),
        json_schema_extra=user_only("is the prompt a scheduled run gives your agent"),
    )
    """The task the nightly run gives `decode run`."""

    remote_nightly_repo: str | None = Field(
        None,
        validation_alias=AliasChoices("DECODE_REMOTE_NIGHTLY_REPO"),
        json_schema_extra=user_only("names where the nightly run pushes its work"),
    )
    """The repository (URL) the nightly run clones and pushes its branch to."""
