"""The headless runs' settings (lesson 20)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings


class HeadlessSettings(BaseSettings):
    stdin_wait: float = Field(10.0, ge=0, validation_alias=AliasChoices("DECODE_STDIN_WAIT"))
    """Seconds `decode run "TASK"` waits for a stdin pipe that has written nothing yet (a CI runner that
    leaves stdin open); then it runs without it. 0: only what is there at once."""
