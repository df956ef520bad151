"""The language servers of one conversation (`deps.lsp`): started when first needed, restarted once.

A server starts on the first request about a file it handles, through `executor.spawn`, so it runs
where the tools run (inside the sandbox, when there is one). Every request has a timeout. A
server that dies (its output ends) or hangs (a request times out) is killed; the next request
starts it again, once. After a second death it stays off for the conversation, and every
request says so at once: the model is told to use read and grep instead. Nothing here ever waits
longer than its timeout, so a broken server never holds up a turn.
"""

import asyncio
import contextlib
import logging
import sys
from collections.abc import Awaitable, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TypeVar

from decode.entities.executor import CommandExecutor
from decode.lsp.client import LspClient
from decode.lsp.jsonrpc import Connection, ConnectionClosed, ResponseError
from decode.lsp.servers import DEFAULT_SERVERS, ServerSpec, server_for

logger = logging.getLogger(__name__)

T = TypeVar("T")
MAX_DEATHS = 2
FALLBACK = "Use read, grep and glob instead."
DEFAULT_PROGRAMS = frozenset(argv[0] for argv in DEFAULT_SERVERS.values())
"""The default servers' programs (`ty`): decode installs them, so they may come from its own venv."""


class LspUnavailable(Exception):
    """No server can answer about this file (none handles it, or it failed): the message says which."""


@dataclass(eq=False)
class _Server:
    spec: ServerSpec
    client: LspClient | None = None
    deaths: int = 0
    broken: str | None = None
    """Why it stays off (it died twice, or it cannot start)."""
    lock: asyncio.Lock = field(default_factory=asyncio.Lock)


class LspManager:
    """Language servers per command, shared by the tools of a conversation."""

    def __init__(
        self, executor: CommandExecutor, servers: Mapping[str, Sequence[str]] | None = None, *, timeout: float = 10.0
    ) -> None:
        self.executor, self.configured, self.timeout = executor, dict(servers or {}), timeout
        self._servers: dict[tuple[str, ...], _Server] = {}

    def spec_for(self, path: Path) -> ServerSpec | None:
        return server_for(path, self.configured)

    def handles(self, path: Path) -> bool:
        """Is there a server for `path` that has not failed for good?"""
        spec = self.spec_for(path)
        if spec is None:
            return False
        server = self._servers.get(spec.argv)
        return server is None or server.broken is None

    async def run(
        self,
        path: Path,
        action: Callable[[LspClient], Awaitable[T]],
        *,
        timeout: float | None = None,  # noqa: ASYNC109
    ) -> T:
        """`action(client)` with the server for `path`, restarting a dead server once.

        `LspUnavailable` when no server handles the file, or it failed; a server error answer
        (`ResponseError`) is passed on. The whole call takes at most about twice `timeout`.
        """
        spec = self.spec_for(path)
        if spec is None:
            raise LspUnavailable(f"No language server handles {path.suffix or 'files without a suffix'}. {FALLBACK}")
        server = self._servers.setdefault(spec.argv, _Server(spec))
        wait = self.timeout if timeout is None else timeout
        while True:
            # A start gets the manager's own timeout even when the request has less (the check
            # after an edit): a slow first start must not count as a death.
            client = await self._client(server, max(wait, self.timeout))
            try:
                return await asyncio.wait_for(action(client), wait)
            except ResponseError:
                raise
            except TimeoutError:  # it hangs: kill it; the next request starts it again, once (an OSError: first)
                if wait < self.timeout:  # slow for a short deadline (the check after an edit), not hung
                    raise LspUnavailable(f"{spec.name} did not answer within {wait:g} s. {FALLBACK}") from None
                await self._died(server, f"it did not answer within {wait:g} s")
                raise LspUnavailable(self._report(server, f"{spec.name} did not answer within {wait:g} s")) from None
            except (ConnectionClosed, OSError) as exc:  # it died: start it again, once
                await self._died(server, f"it exited ({_why(client, exc)})")

    async def _client(self, server: _Server, wait: float) -> LspClient:
        async with server.lock:
            if server.broken is not None:
                raise LspUnavailable(self._report(server, ""))
            if server.client is not None and not server.client.connection.closed:
                return server.client
            if server.client is not None:  # found dead between requests
                await self._died(server, f"it exited ({_why(server.client, None)})", locked=True)
                if server.broken is not None:
                    raise LspUnavailable(self._report(server, ""))
            try:
                server.client = await asyncio.wait_for(self._start(server.spec, wait), wait)
            except TimeoutError:  # before OSError, which it is
                server.deaths += 1
                if server.deaths >= MAX_DEATHS:
                    server.broken = f"it did not start within {wait:g} s"
                raise LspUnavailable(f"{server.spec.name} did not start within {wait:g} s. {FALLBACK}") from None
            except (OSError, ConnectionClosed, ResponseError) as exc:
                server.broken = f"it could not start: {exc}"
                raise LspUnavailable(self._report(server, "")) from None
            return server.client

    async def _start(self, spec: ServerSpec, wait: float) -> LspClient:
        program = await self._program(spec.argv[0])
        if program is None:
            raise OSError(f"{spec.argv[0]} is not installed (not found on PATH)")
        process = await self.executor.spawn([program, *spec.argv[1:]], cwd=self.executor.workspace)
        connection = Connection(process)
        connection.start()
        client = LspClient(connection, self.executor.workspace, spec.language_id, timeout=wait)
        try:
            await client.initialize(dict(spec.initialization_options))
        except BaseException:
            await connection.close()
            raise
        logger.info("language server %s started (pid %s)", spec.name, getattr(process, "pid", "?"))
        return client

    async def _program(self, name: str) -> str | None:
        """`name` on the executor's PATH (the user's); the default server (`ty`, which decode
        installs with itself) also beside this Python. A server the user names never comes from
        decode's own venv: it would not see their project's packages (ADR-0095)."""
        found = await self.executor.which(name)
        if found is None and name in DEFAULT_PROGRAMS:
            found = await self.executor.which(str(Path(sys.executable).parent / name))
        return found

    async def _died(self, server: _Server, why: str, *, locked: bool = False) -> None:
        client, server.client = server.client, None
        if client is not None:
            with contextlib.suppress(Exception):
                await client.connection.close()
        server.deaths += 1
        logger.warning("language server %s failed: %s", server.spec.name, why)
        if server.deaths >= MAX_DEATHS:
            server.broken = f"it failed twice (last: {why})"

    def _report(self, server: _Server, what: str) -> str:
        if server.broken is not None:
            return f"The language server {server.spec.name} is off for this session: {server.broken}. {FALLBACK}"
        return f"{what}; it will be restarted on the next request. {FALLBACK}"

    def pid_of(self, path: Path) -> int | None:
        """The process id of the running server for `path` (tests kill it), if one runs."""
        spec = self.spec_for(path)
        server = self._servers.get(spec.argv) if spec is not None else None
        if server is None or server.client is None:
            return None
        return getattr(server.client.connection.process, "pid", None)

    def client_of(self, path: Path) -> LspClient | None:
        """The running client for `path`, without starting one."""
        spec = self.spec_for(path)
        server = self._servers.get(spec.argv) if spec is not None else None
        return server.client if server is not None else None

    async def close(self) -> None:
        """Shut every server down (the conversation is over)."""
        clients = [server.client for server in self._servers.values() if server.client is not None]
        for server in self._servers.values():
            server.client = None
        await asyncio.gather(*(client.shutdown() for client in clients), return_exceptions=True)


def _why(client: LspClient, exc: BaseException | None) -> str:
    code = client.connection.process.returncode
    said = client.connection.stderr_tail.decode("utf-8", errors="replace").strip().splitlines()
    parts = [f"exit code {code}" if code is not None else (str(exc) if exc else "its output ended")]
    if said:
        parts.append(said[-1][:200])
    return "; ".join(parts)
