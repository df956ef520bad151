"""An MCP server in 20 lines, without the SDK: JSON-RPC, one message per line, on stdin and stdout."""

import json
import sys

TOOL = {
    "name": "shout",
    "description": "Say it loud.",
    "inputSchema": {"type": "object", "properties": {"text": {"type": "string"}}},
}

for line in sys.stdin:
    message = json.loads(line)
    method, params = message.get("method"), message.get("params", {})
    if method == "initialize":
        result = {
            "protocolVersion": params["protocolVersion"],
            "capabilities": {"tools": {}},
            "serverInfo": {"name": "tiny", "version": "1"},
        }
    elif method == "tools/list":
        result = {"tools": [TOOL]}
    elif method == "tools/call":
        result = {"content": [{"type": "text", "text": params["arguments"]["text"].upper() + "!"}]}
    else:
        continue  # a notification (no "id"): nothing to answer
    print(json.dumps({"jsonrpc": "2.0", "id": message["id"], "result": result}), flush=True)
