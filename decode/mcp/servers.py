"""MCP servers in the background: each starts on its own, none makes anyone wait for it.

    McpServers.start() ──▶ one task per server: connect, initialize, list tools ──▶ ready
                              │ slow: past startup_timeout_sec requests stop waiting, it is named at once
                              │   as not answering `initialize`; it joins when ready
                              │ not JSON-RPC on stdout while starting, or exited: `failed` at once
                              │ hung: past HANG_FACTOR × that, or it failed: `failed`, reported once
                              ▼
    a call's connection breaks ──▶ `failed` (crashed), its tools withdrawn ──▶ one reconnect

A server's stderr goes to `.decode/logs/mcp/NAME.log`, never the screen; a report quotes its
tail. Reports are warnings on decode's logger: the REPL shows them as notices, `decode run` on
stderr. pydantic-ai's `MCPToolset` owns the connection; `_stdio_transport` starts a stdio server's
process (with fastmcp's transport, ADR-0055; from lesson 17 on through the executor seam, so inside a
sandbox, ADR-0067); its environment is decode's minus every secret, plus the server's `env`.
"""

from __future__ import annotations

import asyncio
import logging
import time
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

from decode.entities.executor import CommandExecutor
from decode.mcp.client_features import ClientFeatures
from decode.mcp.config import HttpServer, ServerConfig, StdioServer
from decode.mcp.server_log import TAIL_LINES, ServerLog, log_path
from decode.mcp.warmup import warm_validators
from decode.visible import visible

if TYPE_CHECKING:
    from mcp import types as mcp_types
    from pydantic_ai.mcp import MCPToolset

logger = logging.getLogger(__name__)

HANG_FACTOR = 6
"""A server still not ready after this many start-up timeouts is hung: it is stopped and reported."""
LEAVING_GRACE_S = 0.1
"""How long a stdio server may take to exit once its stdin is closed when decode is leaving after
its answer (`decode run`): then it is asked to end (SIGTERM, its own clean-up), not waited for."""
State = Literal["starting", "ready", "failed", "disabled", "untrusted"]


@dataclass
class McpServer:
    """One configured server and where it is: its state, why it failed, and its tools once ready."""

    config: ServerConfig
    home: Path
    environment: Mapping[str, str] = field(default_factory=dict, repr=False)
    executor: CommandExecutor | None = field(default=None, repr=False)  # [lesson 17]
    features: ClientFeatures = field(default_factory=ClientFeatures, repr=False)
    """Roots, sampling, elicitation and progress: shared by a conversation's servers."""
    warm_ahead: bool = field(default=True, repr=False)
    """Import the result validators ahead once ready (`warmup.py`): the REPL's, not a headless run's."""
    state: State = "starting"
    reason: str = ""
    tools: list[mcp_types.Tool] = field(default_factory=list)
    toolset: MCPToolset[Any] | None = field(default=None, repr=False)
    reconnected: bool = False
    started_at: float = 0.0
    overdue: bool = False
    """Past its start-up timeout without answering `initialize` (named once; it may still join)."""
    _task: asyncio.Task[None] | None = field(default=None, repr=False)
    _stop: asyncio.Event | None = field(default=None, repr=False)
    _changed: asyncio.Event | None = field(default=None, repr=False)
    _log: ServerLog | None = field(default=None, repr=False)
    _transport: Any = field(default=None, repr=False)

    @property
    def name(self) -> str:
        return self.config.name

    @property
    def log_path(self) -> Path:
        return log_path(self.home, self.name)

    @property
    def startup_deadline(self) -> float:
        return self.started_at + self.config.definition.startup_timeout_sec

    def start(self) -> None:
        """Start connecting in the background (on the running event loop)."""
        self.state, self.reason, self.tools, self.overdue = "starting", "", [], False
        self.started_at = time.monotonic()
        self._stop, self._changed = asyncio.Event(), asyncio.Event()
        self._task = asyncio.get_running_loop().create_task(self._run(), name=f"mcp-{self.name}")

    async def _run(self) -> None:
        assert self._stop is not None
        definition = self.config.definition
        hang_limit = definition.startup_timeout_sec * HANG_FACTOR
        toolset: MCPToolset[Any] | None = None
        try:
            toolset = self._toolset(hang_limit)
            self.started_at = time.monotonic()  # after the imports: the server's own time starts now
            late = asyncio.get_running_loop().call_later(definition.startup_timeout_sec, self.check_overdue)
            try:
                async with asyncio.timeout(hang_limit + 1):  # fastmcp's own init timeout comes first
                    await toolset.__aenter__()
            finally:
                late.cancel()
        except Exception as exc:
            hung = time.monotonic() - self.started_at >= hang_limit - 0.5
            garbage = getattr(self._transport, "garbage", None)
            self._fail(not_json_rpc(garbage) if garbage else _describe(TimeoutError() if hung else exc, hang_limit))
            await _close_quietly(toolset)
            self._close_log()
            return
        except asyncio.CancelledError:  # stopped while starting: the connection unwound itself, not its log
            self._close_log()
            raise
        assert toolset is not None
        if self._transport is not None:
            self._transport.started = True  # from now on a stray line on stdout is only logged
        try:
            try:
                async with asyncio.timeout(hang_limit):
                    self.tools = await toolset.list_tools()
            except Exception as exc:
                self._fail(f"could not list its tools: {_describe(exc, hang_limit)}")
                return
            self.toolset, self.state = toolset, "ready"
            self._notify()
            logger.info("MCP server %s ready: %d tools", self.name, len(self.tools))
            if self.overdue:  # it was named as not answering: say it joined
                logger.warning(
                    "MCP server %s answered late: its %d tools are available now", visible(self.name), len(self.tools)
                )
            if self.warm_ahead:
                warm_validators()
            await self._stop.wait()
        finally:
            self.toolset = None
            try:
                await toolset.__aexit__(None, None, None)
            except Exception:
                logger.debug("MCP server %s did not close cleanly", self.name, exc_info=True)
            self._close_log()

    def _stdio_transport(self, definition: StdioServer) -> Any:
        """The transport that starts `definition`'s process, its stderr going to the server's log."""
        self._log = ServerLog(self.log_path, self.home)
        log = self._log.open()
        base = self.config.base or self.home
        cwd = base / definition.cwd if definition.cwd else base
        env = {**self.environment, **definition.env}
        # [lesson 17]
        from decode.mcp.transport import executor_transport

        argv = [definition.command, *definition.args]
        self._transport = executor_transport(self.executor, argv, home=self.home, cwd=cwd, env=env, log=log)
        return self._transport
        # [before lesson 17]
        # from fastmcp.client.transports import StdioTransport
        #
        # return StdioTransport(
        #     definition.command, definition.args, env=env, cwd=str(cwd), log_file=log, keep_alive=False
        # )
        # [/lesson 17]

    def _toolset(self, hang_limit: float) -> MCPToolset[Any]:
        from pydantic_ai.mcp import MCPToolset

        definition = self.config.definition
        if isinstance(definition, StdioServer):
            transport = self._stdio_transport(definition)
        else:
            transport = _http_transport(definition)
        toolset: MCPToolset[Any] = MCPToolset(
            transport,
            id=self.name,
            init_timeout=hang_limit,
            tool_error_behavior="failed",
            log_handler=self._said,
            progress_handler=self.features.progress_handler(self.name),
        )
        self.features.attach(toolset.client, self.name)  # declared at `initialize`: roots, sampling, elicitation
        return toolset

    def _close_log(self) -> None:
        if self._log is not None:
            self._log.close()

    async def _said(self, message: Any) -> None:
        """A log notification of the server's: into its log, never on the screen (a server can send thousands)."""
        if self._log is None or not self._log.note(message.level, message.data):
            logger.debug("MCP server %s said: [%s] %s", self.name, message.level, message.data)

    def check_overdue(self) -> None:
        """Still starting past its start-up timeout: named once, on one line, as not answering `initialize`."""
        if self.state != "starting" or self.overdue or time.monotonic() < self.startup_deadline:
            return
        self.overdue = True
        waited = self.config.definition.startup_timeout_sec
        logger.warning(
            "MCP server %s did not answer initialize within %gs: its tools are unavailable until it does",
            visible(self.name), waited,
        )  # fmt: skip

    def _fail(self, reason: str) -> None:
        self.state, self.reason, self.tools = "failed", reason, []
        self._notify()
        tail = self.stderr_tail()
        said = f"; its stderr ended with:\n{tail}" if tail else ""
        # What a server says (and its name, from a repository's file) is shown, never obeyed, by a terminal.
        logger.warning(
            "MCP server %s failed: %s (its tools are withdrawn)%s", visible(self.name), visible(reason), visible(said)
        )

    def _notify(self) -> None:
        if self._changed is not None:
            self._changed.set()

    def stderr_tail(self, lines: int = TAIL_LINES) -> str:
        """The last lines this server wrote to stderr since it was started ('' for none)."""
        return (self._log or ServerLog(self.log_path, self.home)).tail(lines)

    async def wait_started(self, deadline: float | None = None) -> None:
        """Wait until this server is no longer starting, or `deadline` (a `time.monotonic()`) passes;
        None: its start-up deadline, read again as it moves (it starts when the process is spawned)."""
        while self.state == "starting" and self._changed is not None:
            remaining = (self.startup_deadline if deadline is None else deadline) - time.monotonic()
            if remaining <= 0:
                return
            self._changed.clear()
            try:
                async with asyncio.timeout(remaining):
                    await self._changed.wait()
            except TimeoutError:
                return

    async def crashed(self, error: BaseException) -> None:
        """A call found the connection broken: report it, withdraw the tools, reconnect once."""
        if self.state != "ready":
            return
        self._fail(f"crashed ({_describe(error, 0)})")
        await self.stop()
        if not self.reconnected:
            self.reconnected = True
            logger.warning("MCP server %s: reconnecting once", visible(self.name))
            self.start()

    async def stop(self, stdin_grace_s: float | None = None) -> None:
        """Stop the server (its process, for a stdio server) and wait for it; `stdin_grace_s`: how
        long its process may take to exit once its stdin is closed (the transport's default: None)."""
        if stdin_grace_s is not None and self._transport is not None:
            self._transport.stdin_grace_s = stdin_grace_s
        task, self._task = self._task, None
        if self._stop is not None:
            self._stop.set()
        if task is None:
            return
        if self.state == "starting":
            task.cancel()
        try:
            await asyncio.wait_for(asyncio.shield(task), timeout=10)
        except asyncio.CancelledError:
            if (current := asyncio.current_task()) is not None and current.cancelling():
                # The caller is stopped (Ctrl-C, SIGTERM): the server still ends first (a bounded wait),
                # so its pipes close while the loop runs, not at exit ("Event loop is closed").
                await asyncio.wait({task}, timeout=10)
                raise
            task.cancel()
        except (TimeoutError, Exception):
            task.cancel()


async def _close_quietly(toolset: MCPToolset[Any] | None) -> None:
    """End a connection that never opened (a hung server's process goes with it)."""
    if toolset is None:
        return
    try:
        await toolset.client.close()
    except Exception:
        logger.debug("closing an MCP connection that never opened failed", exc_info=True)


def _http_transport(definition: HttpServer) -> Any:
    from fastmcp.client.transports import SSETransport, StreamableHttpTransport

    headers = dict(definition.headers) or None
    if definition.type == "sse":
        return SSETransport(definition.url, headers=headers)
    return StreamableHttpTransport(definition.url, headers=headers)


def not_json_rpc(line: bytes) -> str:
    """Why a server that wrote `line` while starting is failed (the line shown short)."""
    text = " ".join(line.decode("utf-8", "replace").split())
    text = text if len(text) <= 80 else text[:79] + "…"
    return f"answered initialize with a line that is not JSON-RPC: {text!r}"


def _describe(error: BaseException, hang_limit: float) -> str:
    if isinstance(error, TimeoutError) and hang_limit:
        return f"no answer to initialize within {hang_limit:g}s"
    while isinstance(error, BaseExceptionGroup) and error.exceptions:
        error = error.exceptions[0]
    text = " ".join(str(error).split()) or type(error).__name__
    return text if len(text) <= 200 else text[:199] + "…"


@dataclass
class McpServers:
    """Every configured server of a conversation, started together in the background."""

    servers: list[McpServer]
    features: ClientFeatures = field(default_factory=ClientFeatures)
    """What the servers may ask of decode (the front end fills in who answers)."""
    untrusted: list[ServerConfig] = field(default_factory=list)
    """Project servers waiting for the user's trust (`trust_project()` starts them)."""
    started: bool = False

    def start(self) -> None:
        """Start every enabled, trusted server (idempotent; on the running event loop)."""
        if self.started:
            return
        self.started = True
        for server in self.servers:
            if server.state == "starting":
                server.start()

    def start_untrusted(self) -> None:
        """The user trusted the project's servers: start them too."""
        for server in self.servers:
            if server.state == "untrusted":
                server.start()
        self.untrusted = []

    def ready(self) -> list[McpServer]:
        return [server for server in self.servers if server.state == "ready"]

    async def wait_for_starting(self) -> None:
        """Wait for the servers still starting, each until its start-up timeout (the rest join later,
        each named now as not answering)."""
        self.start()
        await asyncio.gather(*(s.wait_started() for s in self.servers if s.state == "starting"))
        for server in self.servers:
            server.check_overdue()

    async def close(self, *, leaving: bool = False) -> None:
        """Stop every server at once (a slow one costs its own grace, not the others'). `leaving`:
        decode exits after its answer, so each gets `LEAVING_GRACE_S` before SIGTERM (ADR-0102)."""
        await asyncio.gather(*(server.stop(LEAVING_GRACE_S if leaving else None) for server in self.servers))

    def by_name(self, name: str) -> McpServer | None:
        return next((server for server in self.servers if server.name == name), None)


def build_servers(
    configs: Sequence[ServerConfig],
    home: Path,
    environment: Mapping[str, str],
    *,
    trusted_project: bool,
    executor: CommandExecutor | None = None,  # [lesson 17]
    warm_ahead: bool = True,
) -> McpServers:
    """The servers of `configs`: disabled ones stay `disabled`, project ones `untrusted` unless trusted;
    `warm_ahead`: whether a ready server imports the result validators ahead (the REPL's)."""
    servers, untrusted = [], []
    features = ClientFeatures(roots=(home,))  # the Workspace is the servers' root
    for config in configs:
        server = McpServer(
            config,
            home,
            environment,
            executor=executor,  # [lesson 17]
            features=features,
        )
        server.warm_ahead = warm_ahead
        if config.definition.disabled:
            server.state = "disabled"
        elif config.scope == "project" and not trusted_project:
            server.state = "untrusted"
            untrusted.append(config)
        servers.append(server)
    return McpServers(servers, features, untrusted)
