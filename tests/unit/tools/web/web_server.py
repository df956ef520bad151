"""A real HTTP server on 127.0.0.1 for the web tool's tests (unit and integration): each path
answers what a test sets."""

import ssl
import threading
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass, field
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer


@dataclass
class Route:
    status: int = 200
    headers: dict[str, str] = field(default_factory=dict)
    body: bytes = b""
    hang: bool = False
    """Send the headers, then nothing until the server stops (a server that never finishes)."""


@dataclass
class WebServer:
    """`routes[path]` is what GET `path` answers; `seen` the (path, Host header) of each request."""

    port: int
    scheme: str = "http"
    routes: dict[str, Route] = field(default_factory=dict)
    seen: list[tuple[str, str]] = field(default_factory=list)
    headers: list[dict[str, str]] = field(default_factory=list)
    """Every request's headers, in order."""
    stopping: threading.Event = field(default_factory=threading.Event)

    def url(self, path: str = "/", host: str = "127.0.0.1") -> str:
        return f"{self.scheme}://{host}:{self.port}{path}"

    def page(self, path: str, body: str | bytes, content_type: str = "text/html; charset=utf-8") -> str:
        data = body.encode() if isinstance(body, str) else body
        self.routes[path] = Route(200, {"Content-Type": content_type}, data)
        return self.url(path)

    def redirect(self, path: str, location: str, status: int = 302) -> str:
        self.routes[path] = Route(status, {"Location": location})
        return self.url(path)


def serve(tls: ssl.SSLContext | None = None) -> tuple[ThreadingHTTPServer, WebServer]:
    server = ThreadingHTTPServer(("127.0.0.1", 0), BaseHTTPRequestHandler)
    if tls is not None:
        server.socket = tls.wrap_socket(server.socket, server_side=True)
    web = WebServer(server.server_address[1], scheme="https" if tls else "http")

    class Handler(BaseHTTPRequestHandler):
        def do_GET(self) -> None:
            web.seen.append((self.path, self.headers.get("Host", "")))
            web.headers.append(dict(self.headers.items()))
            route = web.routes.get(self.path, Route(404, {"Content-Type": "text/plain"}, b"no such page"))
            self.send_response(route.status)
            for name, value in route.headers.items():
                self.send_header(name, value)
            self.send_header("Content-Length", str(len(route.body)))
            self.end_headers()
            if route.hang:
                self.wfile.flush()
                web.stopping.wait()
                return
            self.wfile.write(route.body)

        def log_message(self, format: str, *args: object) -> None:
            pass

    server.RequestHandlerClass = Handler
    threading.Thread(target=server.serve_forever, kwargs={"poll_interval": 0.05}, daemon=True).start()
    return server, web


@contextmanager
def running(tls: ssl.SSLContext | None = None) -> Iterator[WebServer]:
    """A server for the length of a `with` block (https with `tls`)."""
    server, state = serve(tls)
    try:
        yield state
    finally:
        state.stopping.set()
        server.shutdown()
        server.server_close()
