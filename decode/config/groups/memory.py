"""The memory's settings (lesson 12)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.project_env import user_only


class MemorySettings(BaseSettings):
    session_notes: bool = Field(
        False,
        validation_alias=AliasChoices("DECODE_SESSION_NOTES"),
        json_schema_extra=user_only("spends your model on a summary of each session"),  # [lesson 16]
    )
    """Write one line about each REPL session to `.decode/MEMORY.md` when you leave or `/clear` (one
    extra model request, in the background; leaving never waits on its retries). Off: leaving is instant."""
