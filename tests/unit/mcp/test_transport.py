"""The stdio transport's reading of a server's lines: an invalid answer becomes an error answer to
its request (so the call fails at once), anything else that is not JSON-RPC stays an error item."""

import json

import mcp_types

from decode.mcp.transport import _parse


def test_a_valid_answer_passes_through() -> None:
    message = _parse(b'{"jsonrpc": "2.0", "id": 3, "result": {"content": []}}')
    assert not isinstance(message, Exception)
    assert isinstance(message.message, mcp_types.JSONRPCResponse)


def test_an_answer_whose_result_is_not_an_object_is_an_error_answer_to_that_request() -> None:
    message = _parse(b'{"jsonrpc": "2.0", "id": 3, "result": "done"}')

    assert not isinstance(message, Exception)
    error = message.message
    assert isinstance(error, mcp_types.JSONRPCError)
    assert error.id == 3
    assert error.error.message == "the MCP server's answer was malformed: result: Input should be a valid dictionary"


def test_an_error_answer_of_the_wrong_shape_is_named_too() -> None:
    message = _parse(json.dumps({"jsonrpc": "2.0", "id": "a", "error": "boom"}).encode())

    assert not isinstance(message, Exception)
    assert isinstance(message.message, mcp_types.JSONRPCError)
    assert message.message.id == "a"
    assert message.message.error.message.startswith("the MCP server's answer was malformed: error:")


def test_lines_that_answer_no_request_stay_errors() -> None:
    for line in (b"Welcome!", b"[1, 2]", b'{"jsonrpc": "2.0", "result": {}}', b'{"id": true, "result": 1}'):
        assert isinstance(_parse(line), Exception), line
