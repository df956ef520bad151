"""A loopback Opik collector: a real HTTP server on 127.0.0.1 that keeps what opik sends it.

opik's client pings `/api/is-alive/ping`, then posts batches to `/api/v1/private/traces/batch` and
`/api/v1/private/spans/batch` (gzip-compressed JSON). The collector answers each the way the Opik
server does (200 for the ping, 204 for a batch, `{}` for anything else) and records every request,
so a test or the notebook can read the traces and spans back: `collector.traces()`, `collector.spans()`.

    with Collector() as collector:
        env = {"OPIK_URL_OVERRIDE": collector.url}   # then run `decode run` with it

A sick server, for the tests and the benchmark: `Collector(delay_s=1.0)` answers each request a
second late (`delay_s=None`: never), `Collector(status=500)` fails every batch it receives.
"""

import gzip
import json
import re
import socket
import threading
import time
import zlib
from dataclasses import dataclass
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer
from typing import Any


@dataclass(frozen=True)
class Request:
    method: str
    path: str
    body: Any


class Collector:
    """The server, started in a thread by `with Collector() as c:` and stopped when the block ends."""

    def __init__(self, delay_s: float | None = 0.0, status: int = 204) -> None:
        self.requests: list[Request] = []
        self._lock = threading.Lock()
        self._stopping = threading.Event()
        collector = self

        class Handler(BaseHTTPRequestHandler):
            def log_message(self, format: str, *args: Any) -> None:  # quiet: the test reads `requests`
                pass

            def _body(self) -> Any:
                raw = self.rfile.read(int(self.headers.get("Content-Length") or 0))
                encoding = (self.headers.get("Content-Encoding") or "").lower()
                if encoding == "gzip":
                    raw = gzip.decompress(raw)
                elif encoding == "deflate":
                    raw = zlib.decompress(raw)
                try:
                    return json.loads(raw) if raw else None
                except ValueError:
                    return raw.decode("utf-8", "replace")

            def _answer(self, status: int, body: Any = None) -> None:
                data = b"" if body is None else json.dumps(body).encode()
                self.send_response(status)
                self.send_header("Content-Type", "application/json")
                self.send_header("Content-Length", str(len(data)))
                self.end_headers()
                self.wfile.write(data)

            def _handle(self) -> None:
                body = self._body() if self.command in {"POST", "PUT", "PATCH"} else None
                with collector._lock:
                    collector.requests.append(Request(self.command, self.path, body))
                if delay_s != 0.0:  # a slow server (None: one that never answers)
                    collector._stopping.wait(delay_s)
                try:
                    if self.path.rstrip("/").endswith("/batch"):
                        self._answer(status)
                    else:
                        self._answer(200, {})
                except (BrokenPipeError, ConnectionResetError):  # the client left without the answer
                    pass

            do_GET = do_POST = do_PUT = do_PATCH = do_DELETE = _handle

        self.server = ThreadingHTTPServer(("127.0.0.1", 0), Handler)
        self.url = f"http://127.0.0.1:{self.server.server_address[1]}/api"
        """What `OPIK_URL_OVERRIDE` is set to."""
        self._thread = threading.Thread(target=self.server.serve_forever, daemon=True)

    def __enter__(self) -> "Collector":
        self._thread.start()
        return self

    def __exit__(self, *exc: object) -> None:
        self._stopping.set()
        self.server.shutdown()
        self.server.server_close()
        self._thread.join(timeout=10)

    def _items(self, kind: str) -> list[dict[str, Any]]:
        with self._lock:
            batches = [r.body for r in self.requests if r.path.endswith(f"/{kind}/batch")]
        return [item for body in batches if isinstance(body, dict) for item in body.get(kind, [])]

    def traces(self) -> list[dict[str, Any]]:
        """Every trace received, as opik sent it (`name`, `input`, `output`, `thread_id`, `metadata`…)."""
        return self._items("traces")

    def spans(self) -> list[dict[str, Any]]:
        """Every span received (`name`, `type`, `trace_id`, `parent_span_id`, `usage`, `input`, `output`…)."""
        return self._items("spans")

    def paths(self) -> list[str]:
        """The paths called, in order (what opik asks of a server)."""
        with self._lock:
            return [f"{r.method} {r.path}" for r in self.requests]

    def wait_for(self, traces: int, spans: int = 0, timeout_s: float = 60.0) -> bool:
        """Wait until at least this many traces and spans have arrived; False at the deadline."""
        deadline = time.monotonic() + timeout_s
        while time.monotonic() < deadline:
            if len(self.traces()) >= traces and len(self.spans()) >= spans:
                return True
            time.sleep(0.02)
        return False


def closed_url() -> str:
    """An Opik URL on a loopback port nothing listens on (a collector that is gone)."""
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    return f"http://127.0.0.1:{port}/api"


def tree(traces: list[dict[str, Any]], spans: list[dict[str, Any]]) -> str:
    """The traces received as indented text: each trace, its spans under their parents."""
    lines: list[str] = []
    children: dict[str | None, list[dict[str, Any]]] = {}
    for span in sorted(spans, key=lambda s: str(s.get("start_time"))):
        children.setdefault(span.get("parent_span_id"), []).append(span)

    def describe(span: dict[str, Any]) -> str:
        if span.get("type") == "llm":
            usage = span.get("usage") or {}
            return f"llm {span.get('model')}: {usage.get('prompt_tokens')} in, {usage.get('completion_tokens')} out"
        if span.get("type") == "tool":
            outcome = (span.get("output") or {}).get("outcome")
            return f"tool {span['name']}({json.dumps(span.get('input'))[:50]}) → {outcome}"
        return str(span.get("name"))

    def walk(span: dict[str, Any], depth: int) -> None:
        lines.append("  " * depth + describe(span))
        for child in children.get(span["id"], []):
            walk(child, depth + 1)

    for trace in traces:
        lines.append(f"{trace['name']} (thread {trace.get('thread_id')}): {trace.get('input')} → {trace.get('output')}")
        for span in children.get(None, []):
            if span.get("trace_id") == trace["id"]:
                walk(span, 1)
    return "\n".join(lines)


def main(argv: list[str]) -> int:
    """`python collector.py COMMAND…`: run COMMAND traced into a fresh collector, then print the tree it received."""
    import os
    import subprocess

    with Collector() as collector:
        done = subprocess.run(argv, env={**os.environ, "OPIK_URL_OVERRIDE": collector.url}, check=False)
        collector.wait_for(traces=1)
        received = tree(collector.traces(), collector.spans())
    print(re.sub(r"\(thread \w+\)", "(thread <session>)", received))  # a new id each run
    return done.returncode


if __name__ == "__main__":
    import sys

    sys.exit(main(sys.argv[1:]))
