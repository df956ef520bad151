"""The tracing's settings (lesson 22)."""

from pydantic import AliasChoices, Field, SecretStr
from pydantic_settings import BaseSettings

from decode.config.project_env import SENDS, user_only


class TracingSettings(BaseSettings):
    opik_api_key: SecretStr | None = Field(
        None,
        validation_alias=AliasChoices("OPIK_API_KEY"),
        json_schema_extra=user_only("sends every turn to Opik's cloud"),
    )
    """Opik's API key: set (or `OPIK_URL_OVERRIDE`), every turn is traced to Opik (lesson 22)."""

    opik_url_override: str | None = Field(
        None, validation_alias=AliasChoices("OPIK_URL_OVERRIDE"), json_schema_extra=SENDS
    )
    """The Opik server traces go to (`http://localhost:5173/api` for a local one); unset: Opik's cloud."""

    opik_workspace: str | None = Field(
        None,
        validation_alias=AliasChoices("OPIK_WORKSPACE"),
        json_schema_extra=user_only("decides whose account sees them"),
    )
    """The Opik workspace traces are logged in; unset: Opik's `default`."""

    opik_project_name: str = Field("decode", validation_alias=AliasChoices("OPIK_PROJECT_NAME"))
    """The Opik project traces are grouped under."""
