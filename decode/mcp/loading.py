"""The MCP servers of a conversation: read the config files, apply Project Trust, build them.

Values in the files are expanded from decode's environment without decode's own keys: a
repository's `.mcp.json` cannot carry `${GEMINI_API_KEY}` to a program or URL of its choosing. Nor
any other credential of the user's (`${GITHUB_TOKEN}`): a project's file is expanded from what the
agent's commands get (`DECODE_PASS_ENV` names what passes); the user's own file may use them. A stdio
server's process gets the environment the agent's commands get (every credential removed) plus
the `env` its entry names, which is how a user hands a server its token.
"""

from __future__ import annotations

import logging
import os
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.config.secrets import looks_like_credential
from decode.config.settings import Settings
from decode.entities.executor import CommandExecutor
from decode.mcp.config import PROJECT_FILE, load_mcp_config, with_files
from decode.mcp.servers import McpServers, build_servers
from decode.mcp.trust import is_trusted
from decode.processes.environment import command_environment, passed_through
from decode.visible import visible

if TYPE_CHECKING:
    from pydantic_ai.capabilities import AbstractCapability

logger = logging.getLogger(__name__)


def load_servers(
    home: Path,
    settings: Settings,
    *,
    trust_project: bool = False,
    headless: bool = False,
    user_home: Path | None = None,
    executor: CommandExecutor | None = None,  # [lesson 17]
    files: Sequence[Path] = (),  # [lesson 20]
    strict: bool = False,  # [lesson 20]
) -> McpServers | None:
    """The configured servers, not started yet; None when no file configures any.

    Project servers start only when trusted (before, or by `trust_project`); `headless` says no
    one can be asked, so one warning says how to trust them, and no screen is kept responsive
    (the result validators are not imported ahead, `warmup.py`).
    """
    secrets = {name.upper() for name in Settings.decode_only_env_names()}
    expansion = {name: value for name, value in os.environ.items() if name.upper() not in secrets}
    theirs = {
        name: value
        for name, value in expansion.items()
        if not looks_like_credential(name, value) or passed_through(name, settings.pass_env)
    }
    config = load_mcp_config(home, expansion, user_home, project_env=theirs)
    config = with_files(config, files, expansion, strict=strict)  # `--mcp-config`  # [lesson 20]
    for problem in config.problems:
        logger.warning("%s", visible(str(problem)))
    if not config.servers:
        return None
    project = config.project_servers()
    trusted = trust_project or is_trusted(home, project, user_home)
    environment = command_environment(os.environ, secrets, settings.pass_env)
    environment = _environment(executor) or environment  # a sandbox's, where there is one  # [lesson 17]
    servers = build_servers(
        config.servers,
        home,
        environment,
        trusted_project=trusted,
        executor=executor,  # [lesson 17]
        warm_ahead=not headless,
    )
    if servers.untrusted and headless:
        names = visible(", ".join(server.name for server in servers.untrusted))
        logger.warning(
            "the MCP servers of %s (%s) were not started: this project is not trusted to start programs; "
            "trust them once (decode mcp trust, or the REPL asks), or pass --trust-project-mcp",
            home / PROJECT_FILE, names,
        )  # fmt: skip
    return servers


def _environment(executor: CommandExecutor | None) -> dict[str, str] | None:  # [lesson 17]
    """What `executor` gives the commands it runs (`env`: the local executor's, a sandbox's); None: unknown.

    With a sandbox, "what the agent's commands get" is the sandbox's environment, built from nothing
    (`decode/sandbox/environment.py`): the server starts inside, through the executor (ADR-0067)."""
    given = getattr(executor, "env", None)
    return dict(given) if isinstance(given, Mapping) else None


def mcp_capabilities(servers: McpServers | None) -> list[AbstractCapability[Any]]:
    """The capability that offers the servers' tools to the agent (none without servers)."""
    if servers is None:
        return []
    from pydantic_ai.capabilities import Toolset

    from decode.mcp.toolset import McpTools, SearchTraits

    return [Toolset(McpTools(servers)), SearchTraits()]
