"""The benchmark's settings (lesson 24)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.groups.sandbox import PathList


class EvalSettings(BaseSettings):
    sandbox_hide: PathList = Field(default_factory=list, validation_alias=AliasChoices("DECODE_SANDBOX_HIDE"))
    """Host paths a command in `--sandbox bwrap` cannot read, besides `.env` files and home
    credentials: a folder looks empty, a file is empty. Separated by `:` as in PATH (or a JSON
    list). A benchmark hides its tests with it. Docker and Modal never see the host's files."""
