"""A `Connection` to a real process: the server's own requests answered, its death noticed at once."""

import asyncio
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from decode.lsp.client import LspClient
from decode.lsp.jsonrpc import Connection, ConnectionClosed, ResponseError
from decode.processes.spawn import spawn_process

pytestmark = pytest.mark.integration

# On `ask`: sends three requests of its own, then answers `ask` with the replies it got. On `die`: exits.
SERVER = r"""
import json, sys
stdin, out = sys.stdin.buffer, sys.stdout.buffer
def send(message):
    body = json.dumps(message).encode()
    out.write(b"Content-Length: %d\r\n\r\n" % len(body) + body)
    out.flush()
def receive():
    length = 0
    while (line := stdin.readline()) not in (b"\r\n", b""):
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(stdin.read(length)) if line else None
while (message := receive()) is not None:
    if message.get("method") == "ask":
        asked = [("workspace/configuration", {"items": [{"section": "ty"}, {}]}),
                 ("client/registerCapability", {"registrations": []}),
                 ("window/workDoneProgress/create", {"token": 1}),
                 ("something/unknown", {})]
        replies = []
        for number, (method, params) in enumerate(asked):
            send({"jsonrpc": "2.0", "id": f"s{number}", "method": method, "params": params})
            replies.append(receive())
        send({"jsonrpc": "2.0", "id": message["id"], "result": replies})
    elif message.get("method") == "fail":
        send({"jsonrpc": "2.0", "id": message["id"], "error": {"code": -32602, "message": "bad params"}})
    elif message.get("method") == "die":
        sys.exit(3)
"""


@pytest.fixture
async def client(tmp_path: Path) -> AsyncIterator[LspClient]:
    script = tmp_path / "server.py"
    script.write_text(SERVER)
    process = await spawn_process([sys.executable, str(script)], cwd=tmp_path, env={})
    connection = Connection(process)
    connection.start()
    yield LspClient(connection, tmp_path, "python", timeout=10)
    await connection.close()


async def test_the_servers_requests_are_answered(client: LspClient) -> None:
    replies = await client.connection.request("ask", {}, timeout=10)
    assert [reply["id"] for reply in replies] == ["s0", "s1", "s2", "s3"]
    assert replies[0]["result"] == [None, None]  # one null per item: the server's defaults
    assert replies[1]["result"] is None
    assert replies[2]["result"] is None
    assert replies[3]["error"]["code"] == -32601  # method not found


async def test_an_error_answer_is_a_response_error(client: LspClient) -> None:
    with pytest.raises(ResponseError, match="bad params"):
        await client.connection.request("fail", {}, timeout=10)


async def test_a_server_that_exits_fails_the_waiting_request_at_once(client: LspClient) -> None:
    waiting = asyncio.ensure_future(client.connection.request("die", {}, timeout=60))
    with pytest.raises(ConnectionClosed):
        await waiting  # not after 60 s: when its output ends
    assert client.connection.closed
    with pytest.raises(ConnectionClosed):
        await client.connection.request("ask", {}, timeout=10)
