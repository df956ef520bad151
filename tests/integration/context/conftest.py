"""A slow OpenAI-compatible model on 127.0.0.1, and the environment that points `decode` at it.

The server answers every chat completion with what `respond(request)` decides from the request
itself, a dict of `Reply` fields: text streamed in chunks with a pause between them (so a test
can kill decode while an answer is arriving), or a tool call, or an error status. It records
every request, so a test can check that what decode sent after a resume was a valid
conversation. decode's gateway, the OpenAI SDK and the HTTP client run for real.
"""

import contextlib
import json
import os
import threading
import time
from collections.abc import Callable, Iterator
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest

from decode.agent.facts import HEADER


@dataclass(frozen=True)
class Reply:
    """One answer: `text` in `chunks` pieces `pause` seconds apart, or a `tool` call, or an error `status`."""

    text: str = ""
    chunks: int = 1
    pause: float = 0.0
    tool: tuple[str, dict[str, Any]] | None = None
    status: int = 200
    prompt_tokens: int = 0


@dataclass
class ModelServer:
    """The fake provider: `respond` picks each reply; `requests` are the bodies received, in order."""

    respond: Callable[[dict[str, Any]], dict[str, Any]]
    requests: list[dict[str, Any]] = field(default_factory=list)
    finished: list[tuple[dict[str, Any], Reply]] = field(default_factory=list)
    """Requests whose answer was sent in full, with that answer."""
    arrived: threading.Event = field(default_factory=threading.Event)
    """Set whenever a request arrives (a test clears it before starting decode)."""

    def handle(self, handler: BaseHTTPRequestHandler) -> None:
        body = json.loads(handler.rfile.read(int(handler.headers.get("content-length", 0))))
        self.requests.append(body)
        self.arrived.set()
        reply = Reply(**self.respond(body))
        if reply.status != 200:
            payload = json.dumps({"error": {"message": "injected failure", "type": "server_error"}}).encode()
            handler.send_response(reply.status)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
            return
        call_id = f"call_{len(self.requests)}"  # unique in the session: the request's number
        # Counted like a provider would, roughly: four characters a token, unless the reply says otherwise.
        prompt_tokens = reply.prompt_tokens or len(json.dumps(body["messages"])) // 4
        usage = {"prompt_tokens": prompt_tokens, "completion_tokens": len(reply.text) // 4}
        usage["total_tokens"] = usage["prompt_tokens"] + usage["completion_tokens"]
        if body.get("stream"):
            handler.send_response(200)
            handler.send_header("content-type", "text/event-stream")
            handler.end_headers()
            for delta in _deltas(reply, call_id):
                handler.wfile.write(b"data: " + json.dumps(_chunk(delta)).encode() + b"\n\n")
                handler.wfile.flush()
                time.sleep(reply.pause)
            finish = "tool_calls" if reply.tool else "stop"
            handler.wfile.write(b"data: " + json.dumps(_chunk({}, finish)).encode() + b"\n\n")
            usage_chunk = {**_chunk({}), "choices": [], "usage": usage}
            handler.wfile.write(b"data: " + json.dumps(usage_chunk).encode() + b"\n\ndata: [DONE]\n\n")
        else:
            message: dict[str, Any] = {"role": "assistant", "content": reply.text}
            if reply.tool:
                message["tool_calls"] = [_tool_call(reply.tool, call_id, index=None)]
            answer = {
                "id": "fake",
                "object": "chat.completion",
                "created": 0,
                "model": body.get("model", "fake"),
                "choices": [{"index": 0, "message": message, "finish_reason": "stop"}],
                "usage": usage,
            }
            payload = json.dumps(answer).encode()
            handler.send_response(200)
            handler.send_header("content-type", "application/json")
            handler.send_header("content-length", str(len(payload)))
            handler.end_headers()
            handler.wfile.write(payload)
        handler.wfile.flush()
        self.finished.append((body, reply))


def _tool_call(tool: tuple[str, dict[str, Any]], call_id: str, index: int | None) -> dict[str, Any]:
    name, args = tool
    call = {"id": call_id, "type": "function"}
    call["function"] = {"name": name, "arguments": json.dumps(args)}
    return call if index is None else {"index": index, **call}


def _deltas(reply: Reply, call_id: str) -> Iterator[dict[str, Any]]:
    if reply.tool:
        yield {"role": "assistant", "tool_calls": [_tool_call(reply.tool, call_id, index=0)]}
        return
    size = max(1, -(-len(reply.text) // reply.chunks))
    for start in range(0, len(reply.text), size):
        yield {"role": "assistant", "content": reply.text[start : start + size]}


def _chunk(delta: dict[str, Any], finish: str | None = None) -> dict[str, Any]:
    choice = {"index": 0, "delta": delta, "finish_reason": finish}
    return {"id": "fake", "object": "chat.completion.chunk", "created": 0, "model": "fake", "choices": [choice]}


class _Handler(BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.0"  # the stream ends when the connection closes

    def do_POST(self) -> None:
        # decode killed mid-answer leaves nobody to write to.
        with contextlib.suppress(BrokenPipeError, ConnectionResetError):
            self.server.model.handle(self)  # type: ignore[attr-defined]

    def log_message(self, format: str, *args: Any) -> None:
        pass


@pytest.fixture
def model_server() -> Iterator[Callable[..., tuple[ModelServer, dict[str, str]]]]:
    """Start a server with a `respond` function; returns it and the environment that points decode at it."""
    servers: list[ThreadingHTTPServer] = []

    def start(respond: Callable[[dict[str, Any]], dict[str, Any]]) -> tuple[ModelServer, dict[str, str]]:
        http = ThreadingHTTPServer(("127.0.0.1", 0), _Handler)
        http.daemon_threads = True
        http.model = ModelServer(respond)  # type: ignore[attr-defined]
        threading.Thread(target=http.serve_forever, kwargs={"poll_interval": 0.01}, daemon=True).start()
        servers.append(http)
        host, port = http.server_address[:2]
        env = {
            **os.environ,
            "DECODE_MODEL": "openai-compatible:fake-coder",
            "OPENAI_BASE_URL": f"http://{host}:{port}/v1",
            "DECODE_MAX_RETRIES": "0",
            "DECODE_CONTEXT_WINDOW": "1000000",
        }
        return http.model, env  # type: ignore[attr-defined]

    yield start
    for http in servers:
        http.shutdown()
        http.server_close()


def without_facts(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages without the Turn Facts (the user message decode adds last, `decode.agent.facts`)."""
    return [m for m in messages if not (m["role"] == "user" and str(m["content"]).startswith(HEADER))]


def last_user_text(request: dict[str, Any]) -> str:
    """The text of the last user message of a chat-completions request (the Turn Facts left out)."""
    for message in reversed(without_facts(request["messages"])):
        if message["role"] == "user":
            content = message["content"]
            return content if isinstance(content, str) else " ".join(part.get("text", "") for part in content)
    return ""


def check_conversation(request: dict[str, Any]) -> tuple[list[str], list[str]]:
    """The prompts and answers of a chat-completions request, checking it is well formed on the way:
    every tool call answered by its result before anything else, ending with a prompt or results."""
    messages = [m for m in without_facts(request["messages"]) if m["role"] not in ("system", "developer")]
    prompts: list[str] = []
    answers: list[str] = []
    waiting: set[str] = set()
    for message in messages:
        role = message["role"]
        if role == "tool":
            assert message["tool_call_id"] in waiting, "a tool result without its call"
            waiting.discard(message["tool_call_id"])
            continue
        assert not waiting, "a tool call without its result"
        if role == "user":
            prompts.append(message["content"])
        elif role == "assistant":
            waiting = {call["id"] for call in message.get("tool_calls") or []}
            if message.get("content"):
                answers.append(message["content"])
    assert not waiting
    # It ends with the new prompt, or (a later request of the same turn) with the results of the tools it called.
    assert messages[-1]["role"] in ("user", "tool")
    return prompts, answers


@pytest.fixture
def user_text() -> Callable[[dict[str, Any]], str]:
    return last_user_text


@pytest.fixture
def conversation() -> Callable[[dict[str, Any]], tuple[list[str], list[str]]]:
    return check_conversation
