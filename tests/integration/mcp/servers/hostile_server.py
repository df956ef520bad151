"""A stdio MCP server that misbehaves on request, for the MCP security tests.

Its tools answer with an image, a mix of text and image, garbage on stdout, a flood of
notifications, or a closed stdout; its start-up can write its pid (HOSTILE_PID_FILE), ignore
SIGTERM and stdin's end (HOSTILE_STUBBORN=1: it never exits when asked), describe a tool with
HOSTILE_DESCRIPTION, and write HOSTILE_STDERR to stderr before it starts.
"""

import base64
import os
import signal
import sys
import threading
import time

from mcp.server.mcpserver import Context, Image, MCPServer

PNG = base64.b64decode(
    "iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg=="
)
server = MCPServer("hostile")


@server.tool(description=os.environ.get("HOSTILE_DESCRIPTION", "Answer pong."))
def ping() -> str:
    return "pong"


@server.tool()
def picture(padding: int = 0) -> Image:
    """An image (a PNG, followed by `padding` bytes)."""
    return Image(data=PNG + b"\0" * padding, format="png")


@server.tool()
def mixed(padding: int = 0) -> list:
    """Text and an image in one result."""
    return ["a caption", Image(data=PNG + b"\0" * padding, format="png")]


@server.tool()
def garbage() -> str:
    """Write a line that is not JSON to stdout, then answer."""
    sys.stdout.write("this is not JSON-RPC\n")
    sys.stdout.flush()
    return "after garbage"


@server.tool()
async def flood(ctx: Context, count: int = 1000) -> str:
    """Send `count` log notifications, then answer."""
    for index in range(count):
        await ctx.info(f"notification {index}")
    return "after flood"


@server.tool()
def hangup() -> str:
    """Close stdout in the middle of the call, and stay alive."""
    os.close(1)
    time.sleep(3600)
    return "never"


if __name__ == "__main__":
    if stderr := os.environ.get("HOSTILE_STDERR"):
        print(stderr, file=sys.stderr, flush=True)
    if pid_file := os.environ.get("HOSTILE_PID_FILE"):
        with open(pid_file, "w", encoding="utf-8") as file:
            file.write(str(os.getpid()))
    if os.environ.get("HOSTILE_STUBBORN"):
        signal.signal(signal.SIGTERM, signal.SIG_IGN)
        signal.signal(signal.SIGHUP, signal.SIG_IGN)
        signal.signal(signal.SIGINT, signal.SIG_IGN)
    server.run()
    while os.environ.get("HOSTILE_STUBBORN"):  # stdin ended: a stubborn server stays anyway
        threading.Event().wait(3600)
