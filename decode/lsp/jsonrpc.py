"""JSON-RPC 2.0 over a language server's stdin and stdout, framed as LSP frames it.

Each message is a header block and a JSON body: `Content-Length: N\\r\\n\\r\\n{...}`, N the body's
size in bytes. A `Connection` sends requests (an `id`, answered once), notifications (no `id`),
and answers the requests the server sends back (`workspace/configuration` and friends). One
reader task routes every incoming message; a request waits on its own future, with a timeout.
"""

import asyncio
import contextlib
import json
import logging
from collections.abc import Awaitable, Callable
from typing import Any

from decode.entities.executor import Process

logger = logging.getLogger(__name__)

MAX_HEADER_BYTES = 8 * 1024
MAX_BODY_BYTES = 64 * 1024 * 1024
METHOD_NOT_FOUND = -32601
CLOSE_WAIT_S = 2.0

OnNotification = Callable[[str, Any], None]
OnRequest = Callable[[str, Any], Awaitable[Any]]


class FramingError(Exception):
    """The server wrote something that is not an LSP frame (a bad or missing header)."""


class ConnectionClosed(Exception):
    """The server's output ended (it exited or crashed) before the answer came."""


class ResponseError(Exception):
    """The server answered a request with an error."""

    def __init__(self, code: int, message: str) -> None:
        super().__init__(f"{message} (code {code})")
        self.code = code


def encode(message: dict[str, Any]) -> bytes:
    """One message, framed: the header, then the UTF-8 JSON body."""
    body = json.dumps(message, separators=(",", ":"), ensure_ascii=False).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def read_message(reader: asyncio.StreamReader) -> dict[str, Any] | None:
    """The next message from `reader`; None at a clean end of the stream (between messages)."""
    length: int | None = None
    seen = 0
    while True:
        line = await reader.readline()
        if not line:
            if seen == 0:
                return None
            raise FramingError("the stream ended inside a header")
        seen += len(line)
        if seen > MAX_HEADER_BYTES:
            raise FramingError("a header block longer than 8 KB")
        if line in (b"\r\n", b"\n"):
            break
        name, colon, value = line.decode("ascii", errors="replace").partition(":")
        if not colon:
            raise FramingError(f"a header line without a colon: {line[:60]!r}")
        if name.strip().lower() == "content-length":
            try:
                length = int(value.strip())
            except ValueError:
                raise FramingError(f"a Content-Length that is not a number: {value.strip()[:30]!r}") from None
        # Content-Type is the only other header LSP defines; its one value is UTF-8.
    if length is None or not 0 <= length <= MAX_BODY_BYTES:
        raise FramingError("a message without a valid Content-Length")
    try:
        body = await reader.readexactly(length)
    except asyncio.IncompleteReadError:
        raise FramingError("the stream ended inside a message body") from None
    try:
        message = json.loads(body)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise FramingError(f"a body that is not JSON: {exc}") from None
    if not isinstance(message, dict):
        raise FramingError("a body that is not a JSON object")
    return message


class Connection:
    """Requests, notifications and answers over one server process's pipes."""

    def __init__(
        self, process: Process, *, on_notification: OnNotification | None = None, on_request: OnRequest | None = None
    ) -> None:
        self.process = process
        self.on_notification = on_notification
        self.on_request = on_request
        self._next_id = 0
        self._pending: dict[int, asyncio.Future[Any]] = {}
        self._tasks: list[asyncio.Task[None]] = []
        self._closed: BaseException | None = None
        self.stderr_tail = b""
        """The last bytes the server wrote to stderr (its crash message, usually)."""

    def start(self) -> None:
        """Start reading the server's stdout (messages) and stderr (drained, so it never blocks)."""
        self._tasks = [asyncio.create_task(self._read_loop()), asyncio.create_task(self._drain_stderr())]

    @property
    def closed(self) -> bool:
        return self._closed is not None

    async def request(self, method: str, params: Any, *, timeout: float) -> Any:  # noqa: ASYNC109
        """Send a request and wait for its result; `TimeoutError` past `timeout` seconds."""
        if self._closed is not None:
            raise ConnectionClosed(str(self._closed))
        self._next_id += 1
        request_id = self._next_id
        future: asyncio.Future[Any] = asyncio.get_running_loop().create_future()
        self._pending[request_id] = future
        try:
            await self._send({"jsonrpc": "2.0", "id": request_id, "method": method, "params": params})
            return await asyncio.wait_for(future, timeout)
        except TimeoutError:
            # Tell the server we stopped waiting (it may drop the work); the answer, if any, is ignored.
            with contextlib.suppress(ConnectionClosed, OSError):
                await self.notify("$/cancelRequest", {"id": request_id})
            raise
        finally:
            self._pending.pop(request_id, None)

    async def notify(self, method: str, params: Any) -> None:
        await self._send({"jsonrpc": "2.0", "method": method, "params": params})

    async def _send(self, message: dict[str, Any]) -> None:
        if self._closed is not None:
            raise ConnectionClosed(str(self._closed))
        try:
            self.process.stdin.write(encode(message))
            await self.process.stdin.drain()
        except (ConnectionError, RuntimeError) as exc:  # the pipe broke: the server is gone
            self._close(ConnectionClosed(f"the server's stdin closed: {exc}"))
            raise ConnectionClosed(str(exc)) from None

    async def _read_loop(self) -> None:
        why: BaseException = ConnectionClosed("the server's output ended")
        try:
            while (message := await read_message(self.process.stdout)) is not None:
                await self._dispatch(message)
        except FramingError as exc:
            logger.warning("language server: %s", exc)
            why = ConnectionClosed(f"the server broke the protocol: {exc}")
        except (ConnectionError, asyncio.CancelledError) as exc:
            why = ConnectionClosed(f"the connection was closed: {type(exc).__name__}")
        except Exception as exc:  # a malformed message (`"error": "x"`, a list as id), an endless line
            logger.warning("language server: a message decode cannot read: %r", exc)
            why = ConnectionClosed(f"the server broke the protocol: {type(exc).__name__}")
        self._close(why)

    async def _dispatch(self, message: dict[str, Any]) -> None:
        method = message.get("method")
        if method is None:  # a response
            future = self._pending.get(message.get("id"))  # type: ignore[arg-type]
            if future is None or future.done():
                return  # an answer nobody waits for (timed out, cancelled)
            if (error := message.get("error")) is not None:
                future.set_exception(ResponseError(int(error.get("code", 0)), str(error.get("message", ""))))
            else:
                future.set_result(message.get("result"))
        elif "id" in message:  # the server asks us something
            await self._answer(message["id"], method, message.get("params"))
        elif self.on_notification is not None:
            self.on_notification(method, message.get("params"))

    async def _answer(self, request_id: Any, method: str, params: Any) -> None:
        reply: dict[str, Any] = {"jsonrpc": "2.0", "id": request_id}
        try:
            if self.on_request is None:
                raise LookupError(method)
            reply["result"] = await self.on_request(method, params)
        except LookupError:
            reply["error"] = {"code": METHOD_NOT_FOUND, "message": f"decode does not handle {method}"}
        with contextlib.suppress(ConnectionClosed):
            await self._send(reply)

    async def _drain_stderr(self) -> None:
        with contextlib.suppress(ConnectionError, asyncio.CancelledError):
            while chunk := await self.process.stderr.read(64 * 1024):
                self.stderr_tail = (self.stderr_tail + chunk)[-2000:]

    def _close(self, why: BaseException) -> None:
        if self._closed is None:
            self._closed = why
        for future in self._pending.values():
            if not future.done():
                future.set_exception(ConnectionClosed(str(why)))

    async def close(self) -> None:
        """Stop reading and kill the server (what it started too)."""
        self._close(ConnectionClosed("decode closed the connection"))
        with contextlib.suppress(ProcessLookupError):
            self.process.kill()
        for task in self._tasks:
            task.cancel()
        with contextlib.suppress(TimeoutError, ProcessLookupError, ChildProcessError):
            await asyncio.wait_for(self.process.wait(), CLOSE_WAIT_S)  # reaped, its pipes closed
        for task in self._tasks:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await task
