"""A stdio MCP server in the standard library alone, for tests about decode's side of the pipe.

The SDK's server costs about a second of CPU to import (`mcp_types` most of it), and the shutdown
tests start a dozen servers whose only tool is `ping`: what they check is how decode ends them
(stdin closed, SIGTERM, kill) and what it prints, not the SDK. This answers the handful of
requests decode's client makes (`initialize`, `tools/list`, `tools/call`, `ping`) with JSON-RPC
lines on stdout, refuses any other request with "method not found" as the protocol says, and
returns when its stdin ends, as the SDK's `server.run()` does. Servers built on the SDK stay for the
tests about content, features and hostile answers, and the official reference servers keep theirs.
"""

import json
import sys
from collections.abc import Callable
from typing import Any

METHOD_NOT_FOUND = -32601


def _answer(message: dict[str, Any], name: str, tools: dict[str, Callable[[], str]]) -> dict[str, Any]:
    method, params = message.get("method"), message.get("params") or {}
    if method == "initialize":
        return {
            "protocolVersion": params.get("protocolVersion", "2025-06-18"),
            "capabilities": {"tools": {"listChanged": False}},
            "serverInfo": {"name": name, "version": "1.0"},
        }
    if method == "ping":
        return {}
    if method == "tools/list":
        listed = [
            {"name": tool, "description": function.__doc__ or "", "inputSchema": {"type": "object", "properties": {}}}
            for tool, function in tools.items()
        ]
        return {"tools": listed}
    if method == "tools/call" and params.get("name") in tools:
        text = tools[params["name"]]()
        return {"content": [{"type": "text", "text": text}], "isError": False}
    raise LookupError(f"Method not found: {method}")


def serve(name: str, tools: dict[str, Callable[[], str]]) -> None:
    """Answer MCP requests on stdin, one JSON object a line, until stdin ends."""
    for line in sys.stdin.buffer:
        message = json.loads(line)
        if "id" not in message or "method" not in message:  # a notification, or an answer to us
            continue
        try:
            reply: dict[str, Any] = {"result": _answer(message, name, tools)}
        except LookupError as error:
            reply = {"error": {"code": METHOD_NOT_FOUND, "message": str(error)}}
        sys.stdout.write(json.dumps({"jsonrpc": "2.0", "id": message["id"], **reply}) + "\n")
        sys.stdout.flush()
