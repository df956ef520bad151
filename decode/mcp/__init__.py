"""MCP servers: other programs' tools, reached over the Model Context Protocol (lesson 14)."""
