"""A stdio MCP server that reports where it runs: its pid, folder and environment, and whether it may write a file.

What a sandbox test asks a server running inside: can you write there? which variables do you have?
"""

import json
import os
import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("probe")


@server.tool()
def where() -> str:
    """This server's pid, working folder and environment, as JSON."""
    return json.dumps({"pid": os.getpid(), "cwd": os.getcwd(), "env": dict(os.environ)})


@server.tool()
def write(path: str, text: str) -> str:
    """Try to write `text` to `path`: `written`, or the error."""
    try:
        Path(path).write_text(text, encoding="utf-8")
    except OSError as exc:
        return f"refused: {exc}"
    return "written"


@server.tool()
def big(size: int) -> str:
    """Return `size` characters (one JSON-RPC line far longer than a pipe's buffer)."""
    return "y" * size


@server.tool()
def shout(text: str) -> str:
    """Write `text` to stderr, then answer."""
    print(f"probe server says: {text}", file=sys.stderr, flush=True)
    return "said"


@server.tool()
def spew(size: int) -> str:
    """Write `size` bytes to stderr, then answer."""
    sys.stderr.write("z" * size)
    sys.stderr.flush()
    return "spewed"


if __name__ == "__main__":
    print("probe server: started", file=sys.stderr, flush=True)
    server.run()
