"""A small MCP server for the lesson, written with the `mcp` SDK: a notebook of notes in memory."""

from mcp.server.mcpserver import MCPServer

server = MCPServer("notes")
notes: list[str] = []


@server.tool()
def add_note(text: str) -> str:
    """Add a note; returns how many there are."""
    notes.append(text)
    return f"{len(notes)} notes"


@server.tool()
def list_notes() -> str:
    """Every note, one per line."""
    return "\n".join(notes) or "(no notes)"


if __name__ == "__main__":
    server.run()
