"""The permissions' settings (lesson 06)."""

from pydantic import AliasChoices, Field
from pydantic_settings import BaseSettings

from decode.config.groups.commands import NameList


class PermissionSettings(BaseSettings):
    secret_files: NameList = Field(default_factory=list, validation_alias=AliasChoices("DECODE_SECRET_FILES"))
    """Files that hold secrets besides `.env` and `.env.*`: no tool reads them (nor a command naming
    them) without asking, unless an allow rule names them. Names or patterns like `*.pem`
    (gitignore syntax), comma-separated (or a JSON list)."""
