"""Each MCP server's state in a few lines: what `decode mcp list` and `/mcp` print."""

from __future__ import annotations

from pathlib import Path

from decode.mcp.health import unavailable
from decode.mcp.names import tool_name
from decode.mcp.servers import McpServer, McpServers
from decode.visible import visible

UNTRUSTED_HINT = "not started until you trust this project's servers (the REPL asks, or: decode mcp trust)"


def state_text(server: McpServer) -> str:
    """`ready`, `starting`, `not answering: why`, `failed: why`, `disabled`, `untrusted: how to trust`."""
    if server.state == "failed":
        return f"failed: {server.reason}"
    if server.state == "untrusted":
        return f"untrusted: {UNTRUSTED_HINT}"
    if server.state == "starting" and server.overdue:
        return f"not answering: {unavailable(server)}"
    return server.state


def describe_server(server: McpServer, home: Path, *, tools: bool = True, width: int = 72) -> list[str]:
    """The server's line (name, state, tool count, config file), then one line per tool."""
    try:
        source = server.config.source.relative_to(home)
    except ValueError:
        source = server.config.source
    count = f" · {len(server.tools)} tools" if server.state == "ready" else ""
    lines = [f"{server.name} · {state_text(server)}{count} · {source} ({server.config.scope})"]
    if tools and server.state == "ready":
        for tool in server.tools:
            summary = " ".join((tool.description or "").split())
            summary = summary if len(summary) <= width else summary[: width - 1] + "…"
            lines.append(f"  {tool_name(server.name, tool.name)}" + (f"  {summary}" if summary else ""))
    return lines


def describe_servers(servers: McpServers | None, home: Path, *, tools: bool = True) -> list[str]:
    """Every server, or how to configure one when there is none; what servers said made `visible()`."""
    if servers is None or not servers.servers:
        return ["no MCP servers: add them to .mcp.json (this project) or ~/.decode/mcp.json (yours)"]
    return [visible(line) for server in servers.servers for line in describe_server(server, home, tools=tools)]
