"""MCP server configuration: `~/.decode/mcp.json` (the user's) and `.mcp.json` (the project's).

The shape is the one Claude Code, Cursor and others read, so an existing project's servers work:

    {"mcpServers": {"time": {"command": "uvx", "args": ["mcp-server-time"], "env": {}},
                    "docs": {"type": "http", "url": "https://…/mcp", "headers": {}}}}

`${VAR}` and `${VAR:-default}` are expanded in `command`, `args`, `env`, `cwd`, `url` and
`headers`. A file that cannot be read, or a server entry that is wrong, is one problem naming the
file and the key; every other server still loads. A project server of the same name replaces the
user's (it then needs the project's trust, like every project server).
"""

import re
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Annotated, Any, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError

from decode.config.harness_home import HARNESS_DIR
from decode.config.safe_read import UnreadableFile, beyond_cap, read_json
from decode.permissions.settings_files import SettingsProblem

USER_FILE = HARNESS_DIR / "mcp.json"
PROJECT_FILE = Path(".mcp.json")
DEFAULT_STARTUP_TIMEOUT_S = 30.0
"""Claude Code's default, whose `.mcp.json` this is: a Python server started by `uv run` on a busy
machine, or an `npx` one downloading on its first run, takes more than Codex's 10 s (ADR-0123)."""
DEFAULT_TOOL_TIMEOUT_S = 60.0
MAX_STARTUP_TIMEOUT_S, MAX_TOOL_TIMEOUT_S = 600.0, 3600.0
"""Bounds, so a file cannot make a request wait for a hung server for ever (`Infinity` parses)."""
MAX_SERVERS = 100
"""Servers read from one file; a repository's 30,000 would take minutes to check and list."""
_VARIABLE = re.compile(r"\$\{([A-Za-z_][A-Za-z0-9_]*)(?::-([^}]*))?\}")


class _Server(BaseModel):
    model_config = ConfigDict(extra="ignore", populate_by_name=True)

    disabled: bool = False
    startup_timeout_sec: float = Field(DEFAULT_STARTUP_TIMEOUT_S, gt=0, le=MAX_STARTUP_TIMEOUT_S)
    tool_timeout_sec: float = Field(DEFAULT_TOOL_TIMEOUT_S, gt=0, le=MAX_TOOL_TIMEOUT_S)


class StdioServer(_Server):
    """A server decode starts as a child process and talks to over its stdin and stdout."""

    type: Literal["stdio"] = "stdio"
    command: str = Field(min_length=1)
    args: list[str] = []
    env: dict[str, str] = {}
    cwd: str | None = None


class HttpServer(_Server):
    """A server decode reaches over HTTP (streamable HTTP, or the older SSE transport)."""

    type: Literal["http", "sse"]
    url: str = Field(min_length=1)
    headers: dict[str, str] = {}


ServerDefinition = Annotated[StdioServer | HttpServer, Field(discriminator="type")]
_DEFINITION: TypeAdapter[StdioServer | HttpServer] = TypeAdapter(ServerDefinition)


@dataclass(frozen=True)
class ServerConfig:
    """One configured server: its name, what it is, and where it was configured."""

    name: str
    definition: StdioServer | HttpServer
    source: Path
    scope: Literal["user", "project"]
    raw: Mapping[str, Any] = field(default_factory=dict, compare=False)
    """The entry as written (before expansion): what Project Trust is given for."""
    base: Path | None = None
    """Where the server runs and a relative `cwd` starts: the user's home for the user's file (a
    server started in a cloned repository could import its code: `python -m`, `npx`); None: the project."""


@dataclass
class McpConfig:
    """Every server of both files (project entries last), and the problems found reading them."""

    servers: list[ServerConfig] = field(default_factory=list)
    problems: list[SettingsProblem] = field(default_factory=list)

    def project_servers(self) -> list[ServerConfig]:
        """The project's servers that would start (not `disabled`): what Project Trust is asked for."""
        return [server for server in self.servers if server.scope == "project" and not server.definition.disabled]


def expand(text: str, env: Mapping[str, str]) -> str:
    """`text` with `${VAR}` replaced by its value ('' if unset) and `${VAR:-default}` by the
    value, or `default` when VAR is unset or empty (as the shell does)."""

    def value(match: re.Match[str]) -> str:
        name, default = match.group(1), match.group(2)
        found = env.get(name, "")
        return found if found or default is None else default

    return _VARIABLE.sub(value, text)


def _expand_all(value: Any, env: Mapping[str, str]) -> Any:
    if isinstance(value, str):
        return expand(value, env)
    if isinstance(value, list):
        return [_expand_all(item, env) for item in value]
    if isinstance(value, dict):
        return {key: _expand_all(item, env) for key, item in value.items()}
    return value


def parse_server(name: str, entry: Any, env: Mapping[str, str]) -> StdioServer | HttpServer:
    """One `mcpServers` entry, expanded and checked; raises `ValueError` saying what is wrong."""
    if not isinstance(entry, dict):
        raise ValueError("a server is an object with a command, or a type and a url")
    entry = dict(entry)
    if "type" not in entry:
        entry["type"] = "http" if "url" in entry and "command" not in entry else "stdio"
    expanded = {key: (_expand_all(item, env) if key in _EXPANDED else item) for key, item in entry.items()}
    try:
        return _DEFINITION.validate_python(expanded)
    except ValidationError as exc:
        error = exc.errors()[0]
        where = ".".join(str(part) for part in error["loc"][1:]) or "type"
        raise ValueError(f"{where}: {error['msg']}") from None


_EXPANDED = ("command", "args", "env", "cwd", "url", "headers")


def read_file(
    path: Path, scope: Literal["user", "project"], env: Mapping[str, str], config: McpConfig, base: Path | None = None
) -> None:
    """Add the servers of one file to `config`; a missing file adds nothing, a bad one a problem.

    The file is read by `decode.config.safe_read` (a FIFO, a device, a huge or deeply nested file is
    one problem, never a wait); past `MAX_SERVERS` entries the rest are named in one problem."""
    try:
        document = read_json(path, what="an MCP configuration file")
    except UnreadableFile as exc:
        config.problems.append(SettingsProblem(path, exc.line, f"{exc.message}; its servers are not started"))
        return
    if document is None:
        return
    servers = document.get("mcpServers") if isinstance(document, dict) else None
    if not isinstance(servers, dict):
        config.problems.append(SettingsProblem(path, None, 'has no "mcpServers" object; no server is started'))
        return
    entries, excess = beyond_cap(list(servers.items()), MAX_SERVERS, path, "servers")
    if excess is not None:
        config.problems.append(SettingsProblem(path, None, excess.removeprefix(f"{path}: ")))
    for name, entry in entries:
        try:
            definition = parse_server(name, entry, env)
        except ValueError as exc:
            message = f"mcpServers.{_clipped(name)}: {exc}; this server is not started"
            config.problems.append(SettingsProblem(path, None, message))
            continue
        config.servers = [server for server in config.servers if server.name != name]
        raw = entry if isinstance(entry, dict) else {}
        config.servers.append(ServerConfig(name, definition, path, scope, raw, base))


def _clipped(name: str, width: int = 60) -> str:
    """A server name short enough for one line (a repository chooses it, and its length)."""
    return name if len(name) <= width else f"{name[: width - 1]}…"


def load_mcp_config(
    project: Path, env: Mapping[str, str], home: Path | None = None, project_env: Mapping[str, str] | None = None
) -> McpConfig:
    """The servers of `~/.decode/mcp.json` then `PROJECT/.mcp.json` (a project entry replaces a user's);
    the project's file is expanded from `project_env` (default: `env`)."""
    home = home if home is not None else Path.home()
    config = McpConfig()
    read_file(home / USER_FILE, "user", env, config, base=home)
    read_file(project / PROJECT_FILE, "project", env if project_env is None else project_env, config)
    return config


# [lesson 20]
def with_files(config: McpConfig, files: Sequence[Path], env: Mapping[str, str], *, strict: bool) -> McpConfig:
    """`config` with the servers of `files` (`decode run --mcp-config FILE`, Claude Code's): the user
    named them, so they are the user's, and one of theirs replaces a configured server of its name.
    `strict` (`--strict-mcp-config`): those servers alone."""
    given = McpConfig()
    for path in files:
        read_file(path, "user", env, given)
    if strict:
        return given
    names = {server.name for server in given.servers}
    kept = [server for server in config.servers if server.name not in names]
    return McpConfig(servers=[*kept, *given.servers], problems=[*config.problems, *given.problems])


# [/lesson 20]
