"""MCP tool names: `mcp__<server>__<tool>` in what providers accept, at most 64 characters."""

import re

import pytest

from decode.mcp.names import MAX_LENGTH, sanitise, server_rule, tool_name

PROVIDER_NAME = re.compile(r"[A-Za-z0-9_-]{1,64}")


@pytest.mark.parametrize(
    ("server", "tool", "expected"),
    [
        ("time", "get_current_time", "mcp__time__get_current_time"),
        ("my.server", "search docs", "mcp__my_server__search_docs"),
        ("github", "create-issue", "mcp__github__create-issue"),
        ("a__b", "__c__", "mcp__a_b__c"),  # `__` separates the parts: never inside one
        ("日本", "時刻", "mcp__x__x"),
    ],
)
def test_names_are_sanitised(server: str, tool: str, expected: str) -> None:
    assert tool_name(server, tool) == expected
    assert PROVIDER_NAME.fullmatch(expected)


def test_a_long_name_is_cut_and_keeps_two_long_names_apart() -> None:
    one = tool_name("server", "a" * 80 + "one")
    two = tool_name("server", "a" * 80 + "two")
    assert len(one) <= MAX_LENGTH
    assert len(two) <= MAX_LENGTH
    assert one != two
    assert one.startswith("mcp__server__aaa")
    assert PROVIDER_NAME.fullmatch(one)


def test_a_servers_rule_name_covers_its_tools() -> None:
    assert server_rule("my.server") == "mcp__my_server"
    assert tool_name("my.server", "x").startswith(server_rule("my.server") + "__")
    assert sanitise("") == "x"
