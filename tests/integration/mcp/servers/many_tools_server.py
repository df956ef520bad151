"""A stdio MCP server with a hundred tools, each with a real description and schema."""

import sys

from mcp.server.mcpserver import MCPServer

server = MCPServer("many")


def add(index: int) -> None:
    def tool(query: str, limit: int = 10, verbose: bool = False) -> str:
        return f"tool {index}: {query} (limit {limit})"

    tool.__name__ = f"lookup_{index:03d}"
    tool.__doc__ = (
        f"Look up records of kind {index} in the catalogue by a free-text query; returns at most `limit` "
        "matches, one per line, with their identifiers and a short summary of each."
    )
    server.add_tool(tool)


for number in range(100):
    add(number)

if __name__ == "__main__":
    print(f"many-tools server: {len(sys.argv)}", file=sys.stderr, flush=True)
    server.run()
