"""The settings of the commands the agent runs (lesson 05), and the names its environment leaves out."""

import json
import re
from typing import Annotated, get_args

from pydantic import AliasChoices, BeforeValidator, Field, SecretStr
from pydantic_settings import BaseSettings, NoDecode

from decode.config.project_env import user_only


def _split_names(value: object) -> object:
    """`A,B C` or `["A", "B"]` from the environment or `.env`, a list as it is."""
    if not isinstance(value, str):
        return value
    if value.lstrip().startswith("["):
        try:
            return json.loads(value)
        except json.JSONDecodeError:
            raise ValueError("expected names separated by commas, or a JSON list of names") from None
    return [name for name in re.split(r"[,\s]+", value) if name]


NameList = Annotated[list[str], NoDecode, BeforeValidator(_split_names)]
"""Names or patterns from one setting: comma-separated, or a JSON list."""


SHARED_CREDENTIALS = frozenset({"AWS_ACCESS_KEY_ID", "AWS_SECRET_ACCESS_KEY"})
"""Credentials the user's own programs use too (the `aws` CLI, boto3): decode reads them for `bedrock:`
models, yet `DECODE_PASS_ENV` may hand them to commands, as any other credential-looking variable."""


class CommandSettings(BaseSettings):
    bash_timeout: float = Field(120.0, gt=0, validation_alias=AliasChoices("DECODE_BASH_TIMEOUT"))
    """Seconds a `bash` command may run when the model names no timeout; then its process group is killed."""

    bash_max_timeout: float = Field(600.0, gt=0, validation_alias=AliasChoices("DECODE_BASH_MAX_TIMEOUT"))
    """The longest timeout the model may ask `bash` for, in seconds."""

    pass_env: NameList = Field(
        default_factory=list,
        validation_alias=AliasChoices("DECODE_PASS_ENV"),
        json_schema_extra=user_only("hands your credentials to the agent's commands"),  # [lesson 16]
    )
    """Variables the agent's commands get although they look like credentials (`GITHUB_TOKEN`…), which
    are otherwise left out: names or patterns like `AWS_*`, comma-separated (or a JSON list).
    decode's own keys are never passed, but for the AWS key pair (`SHARED_CREDENTIALS`)."""

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

    @classmethod
    def decode_only_env_names(cls) -> frozenset[str]:
        """decode's secrets that no command and no MCP server may have, even when named: all but the
        `SHARED_CREDENTIALS`, which `DECODE_PASS_ENV` or the user's own MCP file may hand on."""
        return cls.secret_env_names() - SHARED_CREDENTIALS
