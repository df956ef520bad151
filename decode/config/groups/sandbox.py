"""The sandbox's settings (lesson 17)."""

import json
import os
from pathlib import Path
from typing import Annotated, Literal

from pydantic import AliasChoices, BeforeValidator, Field, SecretStr
from pydantic_settings import BaseSettings, NoDecode

from decode.config.project_env import user_only


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


class SandboxSettings(BaseSettings):
    sandbox_mode: Literal["none", "bwrap", "docker", "modal"] = Field(
        "none",
        validation_alias=AliasChoices("SANDBOX_MODE", "DECODE_SANDBOX_MODE"),
        json_schema_extra=user_only("decides where your code runs and what it can reach"),
    )
    """Where the agent's commands run when `--sandbox` is not given: `none` (here, as you would),
    `bwrap` (bubblewrap: host read-only, Workspace writable, no network), `docker` or `modal`."""

    sandbox_repo: str | None = Field(
        None,
        validation_alias=AliasChoices("SANDBOX_REPO", "DECODE_SANDBOX_REPO"),
        json_schema_extra=user_only("names where your work is pushed, with your git credentials"),
    )
    """A repository (path or URL) to clone into a Workspace under `.decode/` when `--repo` is not
    given; unset: the sandbox works on the launch directory itself."""

    sandbox_git_token: SecretStr | None = Field(
        None, validation_alias=AliasChoices("SANDBOX_GIT_TOKEN", "DECODE_SANDBOX_GIT_TOKEN")
    )
    """A token the sandbox's commands get as `GITHUB_TOKEN` (only when set; no other host variable
    that looks like a credential enters a sandbox). Give it the least rights you can."""

    sandbox_image: str = Field(
        "decode-sandbox:latest",
        validation_alias=AliasChoices("DECODE_SANDBOX_IMAGE"),
        json_schema_extra=user_only("chooses the programs your commands run in"),
    )
    """The Docker image `--sandbox docker` runs commands in."""

    sandbox_network: bool = Field(
        False,
        validation_alias=AliasChoices("DECODE_SANDBOX_NETWORK"),
        json_schema_extra=user_only("lets every sandboxed command reach the network"),
    )
    """Let every sandboxed command reach the network, without asking per command (bwrap, docker)."""

    sandbox_home_paths: PathList = Field(
        default_factory=list,
        validation_alias=AliasChoices("DECODE_SANDBOX_HOME_PATHS"),
        json_schema_extra=user_only("shows your files to the agent's commands"),
    )
    """Paths a sandboxed command may read (bwrap, docker), read-only, besides the toolchains of your
    home: inside, the home is otherwise empty. Relative ones are under your home; `:`-separated (or
    a JSON list). The credential files decode knows (`~/.ssh`, `~/.config/gh`…) stay hidden even there."""
