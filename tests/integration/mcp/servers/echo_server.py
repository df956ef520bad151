"""A small stdio MCP server for tests: echo, add, a slow tool, and one that crashes the server.

It writes its environment to $ECHO_SERVER_ENV_FILE (if set) when it starts, so a test can see
what decode passed it, and a line to stderr, so a test can find its log.
"""

import json
import os
import sys
import time

from mcp.server.mcpserver import MCPServer

server = MCPServer("echo")


@server.tool()
def echo(text: str) -> str:
    """Return the text unchanged."""
    return text


@server.tool()
def add(a: int, b: int) -> int:
    """Add two integers."""
    return a + b


@server.tool()
def big(size: int) -> str:
    """Return `size` characters."""
    return "x" * size


@server.tool()
def slow(seconds: float) -> str:
    """Sleep, then answer."""
    time.sleep(seconds)
    return "done"


@server.tool()
def crash() -> str:
    """Kill the server in the middle of the call."""
    print("echo server: crashing on purpose", file=sys.stderr, flush=True)
    os._exit(3)


if __name__ == "__main__":
    if path := os.environ.get("ECHO_SERVER_ENV_FILE"):
        with open(path, "w", encoding="utf-8") as file:
            json.dump(dict(os.environ), file)
    print("echo server: started", file=sys.stderr, flush=True)
    if len(sys.argv) == 3 and sys.argv[1] == "--http":  # streamable HTTP on 127.0.0.1:PORT/mcp instead of stdio
        server.run("streamable-http", host="127.0.0.1", port=int(sys.argv[2]))
    else:
        server.run()
