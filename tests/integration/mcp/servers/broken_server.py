"""A stdio "MCP server" written by hand, broken on purpose (the mode is its first argument).

- `garbage`: answers its first request with a line that is not JSON (a banner, as a program that is
  not an MCP server prints);
- `malformed`: starts well, lists one tool `get`, and answers every call with a result that is not a
  CallToolResult (`content` is a string, not a list).
"""

import json
import sys

MODE = sys.argv[1]
RESULTS = {
    "malformed": {"content": "not a list"},
    "scalar": "done",
    "nocontent": {"isError": False},
    "badpart": {"content": [{"type": "text"}]},
}


def send(message: dict) -> None:
    sys.stdout.write(json.dumps(message) + "\n")
    sys.stdout.flush()


def answer(request: dict) -> None:
    method, ident = request.get("method"), request.get("id")
    if ident is None:  # a notification: nothing to answer
        return
    if MODE == "garbage":
        sys.stdout.write("Welcome to my server! Type HELP for help.\n")
        sys.stdout.flush()
        return
    if method == "initialize":
        version = request["params"]["protocolVersion"]
        info = {"name": "broken", "version": "1"}
        send(
            {
                "jsonrpc": "2.0",
                "id": ident,
                "result": {"protocolVersion": version, "capabilities": {"tools": {}}, "serverInfo": info},
            }
        )
    elif method == "tools/list":
        tool = {"name": "get", "description": "Get it.", "inputSchema": {"type": "object"}}
        send({"jsonrpc": "2.0", "id": ident, "result": {"tools": [tool]}})
    elif method == "tools/call":
        send({"jsonrpc": "2.0", "id": ident, "result": RESULTS[MODE]})
    else:
        send({"jsonrpc": "2.0", "id": ident, "result": {}})


print(f"broken server: {MODE}", file=sys.stderr, flush=True)
for line in sys.stdin:
    print(f"broken server: got {line.strip()}", file=sys.stderr, flush=True)
    answer(json.loads(line))
