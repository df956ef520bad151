"""What decode tells the model and a program about servers that cannot be used right now.

A server that failed, or has not answered `initialize` within its start-up timeout, offers no
tools: the model is told so by name in its instructions (else it would only learn "Unknown tool
name" when it tries one), and `decode run`'s stream-json `init` event lists every server's state.
A call answered with a result that is not a valid CallToolResult fails at once, saying so.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from decode.visible import visible

if TYPE_CHECKING:
    import pydantic

    from decode.mcp.servers import McpServer, McpServers

MALFORMED = "the MCP server's answer was malformed"


def first_error(exc: pydantic.ValidationError) -> str:
    """The first problem pydantic found, on one line: `result: Input should be a valid dictionary`."""
    problem = exc.errors()[0]
    where = ".".join(str(part) for part in problem["loc"])
    text = " ".join(f"{where}: {problem['msg']}".split()) if where else problem["msg"]
    return text if len(text) <= 200 else text[:199] + "…"


def unavailable(server: McpServer) -> str | None:
    """Why `server`'s tools cannot be called now (None: they can, or it was never meant to start)."""
    if server.state == "failed":
        return server.reason
    if server.state == "starting" and server.overdue:
        return f"it did not answer initialize within {server.config.definition.startup_timeout_sec:g}s"
    return None


def unavailable_note(servers: McpServers) -> str | None:
    """One line per server whose tools are unavailable, for the model's instructions."""
    lines = [
        f"- {visible(server.name)} (tools mcp__{visible(server.name)}__*): {visible(why)}"
        for server in servers.servers
        if (why := unavailable(server)) is not None
    ]
    if not lines:
        return None
    return "These MCP servers are unavailable, so their tools cannot be called now:\n" + "\n".join(lines)


def init_entries(servers: McpServers | None) -> list[dict[str, Any]]:
    """Each server's name and state (and why, when it cannot be used) for the `init` event."""
    if servers is None:
        return []
    entries = []
    for server in servers.servers:
        entry: dict[str, Any] = {"name": server.name, "status": server.state}
        if server.state == "starting" and server.overdue:
            entry["status"] = "not answering"
        if (why := unavailable(server)) is not None:
            entry["reason"] = why
        entries.append(entry)
    return entries


def malformed_result(name: str, server: McpServer, error: pydantic.ValidationError) -> str:
    """What the model reads when a call's result failed the CallToolResult schema."""
    return f"{name} failed: {MALFORMED} ({visible(server.name)}): {first_error(error)}"
