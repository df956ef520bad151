"""A recording model server on 127.0.0.1 for `decode run` (run with `decode_cmd`, from tests/integration/conftest.py).

The server speaks OpenAI chat completions (streamed as SSE or plain JSON, whichever the request
asks for), answers every request with the same short text (or, first, the tool calls a test put in
`calls`: one call per answer), and keeps each request body so a test can read the instructions
decode actually sent.
"""

import json
import threading
from collections.abc import Iterator
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any

import pytest


class RecordingServer(ThreadingHTTPServer):
    def __init__(self) -> None:
        super().__init__(("127.0.0.1", 0), _Handler)
        self.bodies: list[dict[str, Any]] = []
        self.answer = "ok"
        self.calls: list[tuple[str, dict[str, Any]]] = []
        """Tool calls to answer with, one per request, before the text answers."""

    @property
    def base_url(self) -> str:
        return f"http://127.0.0.1:{self.server_address[1]}/v1"

    def facts_text(self, index: int = -1) -> str:
        """The Turn Facts of a recorded request: its last message (memory and skills travel there)."""
        last = self.bodies[index]["messages"][-1]
        return last["content"] if last["role"] == "user" else ""

    def system_text(self, index: int = -1) -> str:
        """The system (instructions) text of a recorded request."""
        messages = self.bodies[index]["messages"]
        return "\n".join(m["content"] for m in messages if m["role"] in ("system", "developer"))


class _Handler(BaseHTTPRequestHandler):
    server: RecordingServer

    def log_message(self, format: str, *args: Any) -> None:  # keep the test output clean
        pass

    def do_POST(self) -> None:
        body = json.loads(self.rfile.read(int(self.headers["Content-Length"])))
        self.server.bodies.append(body)
        chunk = {"id": "c1", "object": "chat.completion.chunk", "created": 0, "model": body["model"]}
        delta: dict[str, Any] = {"role": "assistant", "content": self.server.answer}
        finish = "stop"
        if self.server.calls:
            name, args = self.server.calls.pop(0)
            call = {"id": f"call_{len(self.server.bodies)}", "type": "function"}
            call["function"] = {"name": name, "arguments": json.dumps(args)}
            delta, finish = {"role": "assistant", "content": None, "tool_calls": [call]}, "tool_calls"
        if body.get("stream"):
            if "tool_calls" in delta:
                delta["tool_calls"][0]["index"] = 0
            events = [
                {**chunk, "choices": [{"index": 0, "delta": delta}]},
                {**chunk, "choices": [{"index": 0, "delta": {}, "finish_reason": finish}]},
            ]
            payload = "".join(f"data: {json.dumps(event)}\n\n" for event in events) + "data: [DONE]\n\n"
            content_type = "text/event-stream"
        else:
            payload = json.dumps(
                {
                    **chunk,
                    "object": "chat.completion",
                    "choices": [{"index": 0, "message": delta, "finish_reason": finish}],
                }
            )
            content_type = "application/json"
        data = payload.encode()
        self.send_response(200)
        self.send_header("Content-Type", content_type)
        self.send_header("Content-Length", str(len(data)))
        self.end_headers()
        self.wfile.write(data)


@pytest.fixture
def model_server() -> Iterator[RecordingServer]:
    server = RecordingServer()
    thread = threading.Thread(target=server.serve_forever, daemon=True)
    thread.start()
    try:
        yield server
    finally:
        server.shutdown()
        server.server_close()
        thread.join()
