"""A stdio MCP server that leaves a file behind when it starts: proof that it ran (or did not)."""

import sys
from pathlib import Path

from mcp.server.mcpserver import MCPServer

server = MCPServer("marker")


@server.tool()
def ping() -> str:
    """Answer pong."""
    return "pong"


if __name__ == "__main__":
    Path(sys.argv[1]).write_text("started\n", encoding="utf-8")
    server.run()
