"""The steps of lesson 04: decode's own tools, and the executor, the one door to the Workspace's files and commands."""

import os
from dataclasses import replace
from pathlib import Path

from decode.agent.build import Build
from decode.config.settings import Settings
from decode.processes.environment import command_environment
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools


def decode_tools(b: Build) -> None:
    """decode's own tools (`decode.tools.catalog`), unless the front end gives its own."""
    if b.options.tools is None:
        b.options = replace(b.options, tools=tuple(default_tools()))


def command_environment_for(settings: Settings) -> dict[str, str]:  # [lesson 05]
    """The environment the agent's commands get under these settings: this process's, without
    credentials, passing through what `DECODE_PASS_ENV` names (`decode.processes.environment`)."""
    return command_environment(os.environ, Settings.decode_only_env_names(), settings.pass_env)


def local_executor(workspace: Path, settings: Settings) -> LocalExecutor:
    """Commands run here, as the user's own (lesson 05: in an environment without decode's credentials)."""
    # [lesson 05]
    return LocalExecutor(workspace, env=command_environment_for(settings))
    # [before lesson 05]
    # return LocalExecutor(workspace)
    # [/lesson 05]


def open_executor(b: Build) -> None:
    """The front end's executor (an eval's, a subagent's: its parent's), else a local one in `home`."""
    b.executor = b.options.executor or local_executor(b.options.home, b.settings)
