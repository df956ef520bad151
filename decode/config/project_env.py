"""What a project's `.env` may not set: settings that start programs, pass credentials, send data away.

The `.env` in the launch directory belongs to whoever wrote the repository, and cloning a stranger's
repository and running `decode` in it must not let that stranger start a program on this machine
(`DECODE_LSP_SERVERS`), route every prompt to their server (`OPENAI_BASE_URL`), hand them the user's
tokens (`DECODE_PASS_ENV`) or loosen decode's sandbox. Such a field is marked where it is declared,
`Field(..., json_schema_extra=user_only("why"))`; its value in a `.env` is dropped before pydantic
sees it and the user is told once which variable, why, and where to set it instead. The
environment and arguments still set it: those are the user's own. Keys stay settable from `.env`:
that is what the file is for, and a key alone sends nothing anywhere.

The file itself is read as every project file is (config/safe_read.py): pydantic-settings opens a
FIFO on purpose and reads without a cap, and it reads `.env` twice, for decode's settings and, on
import, for fastmcp's. So its one reader is replaced, for both, when this module is imported.
"""

import io
import logging
import os
from collections.abc import Mapping
from pathlib import Path

from dotenv import dotenv_values
from pydantic import AliasChoices
from pydantic.json_schema import JsonDict
from pydantic_settings import BaseSettings, PydanticBaseSettingsSource
from pydantic_settings.sources import DotEnvSettingsSource
from pydantic_settings.sources.utils import parse_env_vars

from decode.config.safe_read import UnreadableFile, read_text

logger = logging.getLogger(__name__)

USER_ONLY = "user_only"
"""The `json_schema_extra` key that marks a field, its value the reason shown to the user."""

_told: set[str] = set()  # variables already warned about in this process: once is enough


def user_only(why: str) -> JsonDict:
    """The `json_schema_extra` of a field no project `.env` may set; `why` ends "… because it {why}"."""
    return {USER_ONLY: why}


SENDS = user_only("sends your prompts and code to that address")
"""The reason of an address decode sends your work to (a model's, a tracing server's)."""


def user_only_names(settings_cls: type[BaseSettings]) -> dict[str, str]:
    """Each environment variable name (lower case) of a user-only field, with the reason."""
    names: dict[str, str] = {}
    for name, field in settings_cls.model_fields.items():
        extra = field.json_schema_extra
        if not isinstance(extra, dict) or USER_ONLY not in extra:
            continue
        alias = field.validation_alias
        choices = alias.choices if isinstance(alias, AliasChoices) else [alias or name]
        names.update((str(choice).lower(), str(extra[USER_ONLY])) for choice in choices)
    return names


def project_values(found: Mapping[str, str | None], settings_cls: type[BaseSettings]) -> dict[str, str | None]:
    """`found` (a `.env`'s variables, names in lower case) without the user-only ones, each one logged."""
    fenced = user_only_names(settings_cls)
    kept: dict[str, str | None] = {}
    for name, value in found.items():
        why = fenced.get(name.lower())
        if why is None:
            kept[name] = value
            continue
        variable = name.upper()
        if variable not in _told:
            _told.add(variable)
            logger.warning(
                "ignored %s from the project's .env: it %s, and a repository must not decide that for you; "
                "if you mean it, set it in your shell's environment (export %s=…)",
                variable,
                why,
                variable,
            )
    return kept


class ProjectEnvFence(BaseSettings):
    """A base of `Settings`: the usual sources, but the project's `.env` without the user-only fields."""

    @classmethod
    def settings_customise_sources(
        cls,
        settings_cls: type[BaseSettings],
        init_settings: PydanticBaseSettingsSource,
        env_settings: PydanticBaseSettingsSource,
        dotenv_settings: PydanticBaseSettingsSource,
        file_secret_settings: PydanticBaseSettingsSource,
    ) -> tuple[PydanticBaseSettingsSource, ...]:
        if isinstance(dotenv_settings, DotEnvSettingsSource):
            dotenv_settings.env_vars = project_values(dotenv_settings.env_vars, settings_cls)
        return init_settings, env_settings, dotenv_settings, file_secret_settings


def read_env_file(
    file_path: str | os.PathLike[str],
    *,
    encoding: str | None = None,
    case_sensitive: bool = False,
    ignore_empty: bool = False,
    parse_none_str: str | None = None,
) -> Mapping[str, str | None]:
    """A `.env` file's variables, read safely: a FIFO, a device or a file over 1 MiB is one warning
    and no variables, never a wait or an endless read (the signature is pydantic-settings' own)."""
    path = Path(file_path).absolute()
    try:
        text = read_text(path, what="a .env file") or ""
    except UnreadableFile as exc:
        if str(path) not in _told:  # decode's settings and fastmcp's both read it: one line is enough
            _told.add(str(path))
            logger.warning("%s; its variables are not used", exc)
        text = ""
    return parse_env_vars(dotenv_values(stream=io.StringIO(text)), case_sensitive, ignore_empty, parse_none_str)


DotEnvSettingsSource._static_read_env_file = staticmethod(read_env_file)  # ty: ignore[invalid-assignment]
