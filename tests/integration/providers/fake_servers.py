"""Fake model providers on 127.0.0.1 that speak the real wire formats.

One server per wire format decode's gateway talks (the native providers' in `wire_servers.py`):

- `OpenAIServer`: `POST …/chat/completions`, a JSON answer or SSE chunks (`"stream": true`) ending
  in `data: [DONE]`, with streamed tool calls and a usage chunk.
- `GeminiServer`: `POST /v1/models/{model}:generateContent` (JSON) and
  `:streamGenerateContent?alt=sse` (SSE of GenerateContentResponse), with functionCall parts.

A test plans the server's answers, one per HTTP request, in order:

    server.plan(Fail(429, retry_after="0"), Turn(text="Hello"))

`Turn` is a model answer, rendered in whichever form the request asked for (streamed or not);
`Hold(turn)` is that answer held back until the test calls `server.release()` (a model that thinks
as long as the test needs); `Fail`, `Hang`, `Malformed` and `Cut` are the failures real providers
produce. Every request is recorded in `server.requests` so a test can check what decode sent; a GET (a model
list) is answered from `server.pages` and recorded in `server.gets`. The
server is the only fake: decode's gateway, the provider SDKs and the HTTP client all run for real.
"""

import contextlib
import json
import re
import threading
from collections import deque
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any, cast


@dataclass(frozen=True)
class Call:
    """A tool call inside a planned `Turn`."""

    name: str
    args: dict[str, Any] = field(default_factory=dict)


@dataclass(frozen=True)
class Turn:
    """A successful model answer: text, tool calls or both, and its token counts."""

    text: str = ""
    calls: tuple[Call, ...] = ()
    thinking: str = ""
    """Reasoning streamed before the answer (the wire formats that carry it: Anthropic's, OpenAI Responses')."""
    input_tokens: int = 11
    output_tokens: int = 7
    cached_tokens: int = 0
    """Of `input_tokens`, those the provider says it read from its prompt cache (OpenAI's
    `prompt_tokens_details.cached_tokens`)."""


@dataclass(frozen=True)
class Fail:
    """An HTTP error status with the provider's error body (and Retry-After, if given)."""

    status: int
    retry_after: str | None = None
    message: str = "injected failure"


@dataclass(frozen=True)
class Hang:
    """Send nothing for `seconds` (longer than the client's timeout); ends early when the server closes."""

    seconds: float = 30.0


@dataclass(frozen=True)
class Malformed:
    """A 200 whose body (or, for a streamed request, whose one SSE event) is `body` verbatim."""

    body: str = "{this is not json"


@dataclass(frozen=True)
class Cut:
    """The connection drops partway through `turn`: after `events` SSE events, or half its JSON body."""

    turn: Turn
    events: int = 1
    clean: bool = False
    """A streamed answer ends on purpose but early (its last chunk sent, as a proxy closing it does)."""


@dataclass(frozen=True)
class Hold:
    """`turn`, sent only once the test calls `server.release()`: a slow model, without a clock."""

    turn: Turn


Reply = Turn | Fail | Hang | Malformed | Cut | Hold


@dataclass(frozen=True)
class Recorded:
    """One request the server received."""

    method: str
    path: str
    headers: dict[str, str]  # names lowercased
    body: bytes

    def json(self) -> Any:
        return json.loads(self.body)


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"  # chunked streams, so a dropped connection is told from an ending

    def do_POST(self) -> None:
        # A client that gave up (a timeout test) leaves nothing to answer.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            cast(_Server, self.server).fake.handle(self)

    def do_GET(self) -> None:
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            cast(_Server, self.server).fake.handle_get(self)

    def log_message(self, format: str, *args: Any) -> None:
        pass  # keep pytest's output clean


class _Server(ThreadingHTTPServer):
    daemon_threads = True
    fake: "FakeProvider"


class FakeProvider:
    """The common part: a thread serving HTTP, the plan of replies and the request log."""

    def __init__(self) -> None:
        self.requests: list[Recorded] = []
        self.pages: dict[str, Any] = {}
        """What a GET of each path answers (JSON), e.g. `{"/v1/models": {"data": [...]}}`."""
        self.gets: list[str] = []
        self._replies: deque[Reply] = deque()
        self._lock = threading.Lock()
        self._closing = threading.Event()
        self._released = threading.Event()
        self._http = _Server(("127.0.0.1", 0), _Handler)
        self._http.fake = self
        # shutdown() waits up to one poll interval: keep it short so closing a server is instant.
        serve = {"poll_interval": 0.01}
        self._thread = threading.Thread(target=self._http.serve_forever, kwargs=serve, daemon=True)
        self._thread.start()

    @property
    def url(self) -> str:
        host, port = self._http.server_address[:2]
        return f"http://{host}:{port}"

    def plan(self, *replies: Reply) -> None:
        """Queue the answers to the next requests, in order."""
        with self._lock:
            self._replies.extend(replies)

    @property
    def unused(self) -> list[Reply]:
        """Planned replies no request has consumed yet."""
        with self._lock:
            return list(self._replies)

    def release(self) -> None:
        """Send every held reply (`Hold`): those waiting now and any later one."""
        self._released.set()

    def close(self) -> None:
        self._closing.set()  # wake any Hang
        self._released.set()  # and any Hold
        self._http.shutdown()
        self._http.server_close()
        self._thread.join()

    def handle(self, handler: _Handler) -> None:
        body = handler.rfile.read(int(handler.headers.get("content-length", 0)))
        request = Recorded(
            method=handler.command,
            path=handler.path,
            headers={name.lower(): value for name, value in handler.headers.items()},
            body=body,
        )
        with self._lock:
            self.requests.append(request)
            reply = self._replies.popleft() if self._replies else None
        if isinstance(reply, Hold):
            self._released.wait()
            if self._closing.is_set():
                handler.close_connection = True
                return
            reply = reply.turn
        if not self.serves(request.path):
            _send_json(handler, 404, {"error": {"message": f"fake server: no endpoint {request.path}"}})
        elif reply is None:
            _send_json(handler, 418, {"error": {"message": "fake server: no reply planned for this request"}})
        elif isinstance(reply, Hang):
            self._closing.wait(reply.seconds)
            handler.close_connection = True
        elif isinstance(reply, Fail):
            headers = {"Retry-After": reply.retry_after} if reply.retry_after is not None else {}
            _send_json(handler, reply.status, self.error_body(reply), headers)
        elif self.is_stream(request):
            if isinstance(reply, Malformed):
                _send_sse(handler, [self.malformed_event(reply.body)])
            elif isinstance(reply, Cut):
                _send_sse(handler, self.stream_events(reply.turn, request)[: reply.events], cut=not reply.clean)
            else:
                _send_sse(handler, self.stream_events(reply, request))
        elif isinstance(reply, Malformed):
            _send(handler, 200, reply.body.encode())
        elif isinstance(reply, Cut):
            _send(handler, 200, json.dumps(self.answer(reply.turn, request)).encode(), cut=True)
        else:
            _send_json(handler, 200, self.answer(reply, request))

    def handle_get(self, handler: _Handler) -> None:
        """A GET (a model list, a server's properties): answered from `self.pages`, else 404.

        Recorded in `self.gets`, not `self.requests`: those count the model requests."""
        with self._lock:
            self.gets.append(handler.path)
            page = self.pages.get(handler.path)
        if page is None:
            _send_json(handler, 404, {"error": {"message": f"fake server: no page {handler.path}"}})
        else:
            _send_json(handler, 200, page)

    # The wire format: each subclass fills these in.
    def serves(self, path: str) -> bool:
        raise NotImplementedError

    def is_stream(self, request: Recorded) -> bool:
        raise NotImplementedError

    def answer(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        raise NotImplementedError

    def stream_events(self, turn: Turn, request: Recorded) -> list[str]:
        raise NotImplementedError

    def error_body(self, fail: Fail) -> dict[str, Any]:
        raise NotImplementedError

    def malformed_event(self, body: str) -> str:
        """The one event of a `Malformed` stream: `body` where the wire format's first event goes."""
        return body

    def tool_results(self, request: Recorded) -> list[tuple[str, Any]]:
        """(tool name, result) for each tool result a request sends back to the model."""
        raise NotImplementedError


def _start(handler: _Handler, status: int, headers: dict[str, str]) -> None:
    handler.send_response(status)
    for name, value in headers.items():
        handler.send_header(name, value)
    handler.send_header("Connection", "close")  # one request per connection keeps the server simple
    handler.end_headers()


def _send(
    handler: _Handler, status: int, body: bytes, *, headers: dict[str, str] | None = None, cut: bool = False
) -> None:
    """A JSON body, or with `cut` only its first half before the connection drops."""
    _start(handler, status, {"Content-Type": "application/json", "Content-Length": str(len(body)), **(headers or {})})
    handler.wfile.write(body[: len(body) // 2] if cut else body)


def _send_json(handler: _Handler, status: int, payload: Any, headers: dict[str, str] | None = None) -> None:
    _send(handler, status, json.dumps(payload).encode(), headers=headers)


def _send_sse(handler: _Handler, events: list[str], *, cut: bool = False) -> None:
    """Server-sent events in HTTP/1.1 chunks, as providers send them; `cut` drops the connection after the last."""
    _start(handler, 200, {"Content-Type": "text/event-stream", "Transfer-Encoding": "chunked"})
    for event in events:
        # An event that names its type (`event: message_start\ndata: {…}`, Anthropic's) goes as it is.
        data = (event if event.startswith("event: ") else f"data: {event}").encode() + b"\n\n"
        handler.wfile.write(b"%x\r\n%s\r\n" % (len(data), data))
        handler.wfile.flush()
    if not cut:
        handler.wfile.write(b"0\r\n\r\n")  # the last chunk: the stream ended on purpose


def words(text: str) -> list[str]:
    """`"a b c"` → `["a ", "b ", "c"]`: the pieces a streamed text arrives in."""
    pieces = text.split(" ")
    return [piece + " " for piece in pieces[:-1]] + [pieces[-1]] if text else []


def halves(text: str) -> list[str]:
    """Split streamed tool-call arguments in two, the way providers cut JSON mid-token."""
    middle = len(text) // 2
    return [text[:middle], text[middle:]]


class OpenAIServer(FakeProvider):
    """OpenAI chat completions. Point `OPENAI_BASE_URL` (or the like) at `server.url + "/v1"`."""

    def serves(self, path: str) -> bool:
        return path.endswith("/chat/completions")

    def is_stream(self, request: Recorded) -> bool:
        return bool(request.json().get("stream"))

    def answer(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        calls = [
            {"id": f"call_{i}", "type": "function", "function": {"name": c.name, "arguments": json.dumps(c.args)}}
            for i, c in enumerate(turn.calls)
        ]
        message: dict[str, Any] = {"role": "assistant", "content": turn.text or None}
        if calls:
            message["tool_calls"] = calls
        return {
            **self._envelope(request, "chat.completion"),
            "choices": [{"index": 0, "message": message, "finish_reason": "tool_calls" if calls else "stop"}],
            "usage": self._usage(turn),
        }

    def stream_events(self, turn: Turn, request: Recorded) -> list[str]:
        def chunk(delta: dict[str, Any], finish_reason: str | None = None) -> str:
            choice = {"index": 0, "delta": delta, "finish_reason": finish_reason}
            return json.dumps({**self._envelope(request, "chat.completion.chunk"), "choices": [choice]})

        events = [chunk({"role": "assistant", "content": ""})]
        events += [chunk({"content": piece}) for piece in words(turn.text)]
        for i, call in enumerate(turn.calls):
            start = {
                "index": i,
                "id": f"call_{i}",
                "type": "function",
                "function": {"name": call.name, "arguments": ""},
            }
            events.append(chunk({"tool_calls": [start]}))
            for piece in halves(json.dumps(call.args)):
                events.append(chunk({"tool_calls": [{"index": i, "function": {"arguments": piece}}]}))
        events.append(chunk({}, "tool_calls" if turn.calls else "stop"))
        if request.json().get("stream_options", {}).get("include_usage"):
            usage_chunk = {
                **self._envelope(request, "chat.completion.chunk"),
                "choices": [],
                "usage": self._usage(turn),
            }
            events.append(json.dumps(usage_chunk))
        return [*events, "[DONE]"]

    def error_body(self, fail: Fail) -> dict[str, Any]:
        return {"error": {"message": fail.message, "type": "fake_error", "code": fail.status}}

    def tool_results(self, request: Recorded) -> list[tuple[str, Any]]:
        messages = request.json()["messages"]
        # A tool message names only its call id: the assistant message before it says which tool that was.
        names = {call["id"]: call["function"]["name"] for m in messages for call in m.get("tool_calls") or []}
        return [(names[m["tool_call_id"]], m["content"]) for m in messages if m["role"] == "tool"]

    @staticmethod
    def _envelope(request: Recorded, kind: str) -> dict[str, Any]:
        # `provider` is OpenRouter's addition (the upstream that answered); other clients ignore it.
        model = request.json().get("model")
        return {"id": "chatcmpl-fake", "object": kind, "created": 1700000000, "model": model, "provider": "fake"}

    @staticmethod
    def _usage(turn: Turn) -> dict[str, Any]:
        total = turn.input_tokens + turn.output_tokens
        usage: dict[str, Any] = {
            "prompt_tokens": turn.input_tokens,
            "completion_tokens": turn.output_tokens,
            "total_tokens": total,
        }
        if turn.cached_tokens:
            usage["prompt_tokens_details"] = {"cached_tokens": turn.cached_tokens}
        return usage


GEMINI_PATH = re.compile(r"/v1(beta)?/models/(?P<model>[^:/]+):(generateContent|streamGenerateContent)\b")


class GeminiServer(FakeProvider):
    """The Gemini API (generativelanguage). Point `GEMINI_BASE_URL` at `server.url`."""

    def serves(self, path: str) -> bool:
        return GEMINI_PATH.match(path) is not None

    def is_stream(self, request: Recorded) -> bool:
        return ":streamGenerateContent" in request.path

    def answer(self, turn: Turn, request: Recorded) -> dict[str, Any]:
        parts: list[dict[str, Any]] = [{"text": turn.text}] if turn.text else []
        parts += [self._call_part(call) for call in turn.calls]
        return self._response(request, parts, finished=True, turn=turn)

    def stream_events(self, turn: Turn, request: Recorded) -> list[str]:
        events = [self._response(request, [{"text": piece}]) for piece in words(turn.text)]
        events.append(self._response(request, [self._call_part(call) for call in turn.calls], finished=True, turn=turn))
        return [json.dumps(event) for event in events]

    def error_body(self, fail: Fail) -> dict[str, Any]:
        status = {400: "INVALID_ARGUMENT", 401: "UNAUTHENTICATED", 429: "RESOURCE_EXHAUSTED"}.get(
            fail.status, "INTERNAL"
        )
        return {"error": {"code": fail.status, "message": fail.message, "status": status}}

    def tool_results(self, request: Recorded) -> list[tuple[str, Any]]:
        parts = [part for content in request.json()["contents"] for part in content["parts"]]
        responses = [part["functionResponse"] for part in parts if "functionResponse" in part]
        return [(response["name"], response["response"]) for response in responses]

    @staticmethod
    def _call_part(call: Call) -> dict[str, Any]:
        return {"functionCall": {"name": call.name, "args": call.args}}

    @staticmethod
    def _response(
        request: Recorded, parts: list[dict[str, Any]], *, finished: bool = False, turn: Turn | None = None
    ) -> dict[str, Any]:
        match = GEMINI_PATH.match(request.path)
        assert match is not None
        model = match["model"]
        candidate: dict[str, Any] = {"content": {"role": "model", "parts": parts}, "index": 0}
        response: dict[str, Any] = {"candidates": [candidate], "modelVersion": model, "responseId": "fake-response"}
        if finished:
            candidate["finishReason"] = "STOP"
        if turn is not None:
            response["usageMetadata"] = {
                "promptTokenCount": turn.input_tokens,
                "candidatesTokenCount": turn.output_tokens,
                "totalTokenCount": turn.input_tokens + turn.output_tokens,
            }
        return response
