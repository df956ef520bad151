"""Lesson 14's build-along track: MCP tool names as the model sees them, and `.mcp.json`'s variables.

`make lesson-check N=14` runs these against your copy (`make lesson-start N=14`); each test's first
docstring line is the behaviour it reports.
"""

from decode.mcp.config import expand, parse_server
from decode.mcp.names import MAX_LENGTH, rule_names, sanitise, tool_name


def test_a_name_part_keeps_only_safe_characters() -> None:
    """A server's or tool's name keeps letters, digits, '_' and '-'; the rest become one '_'."""
    assert sanitise("get-current-time") == "get-current-time"
    assert sanitise("search.docs v2") == "search_docs_v2"
    assert sanitise("__a__b__") == "a_b"
    assert sanitise("日付") == "x"


def test_a_tool_is_named_mcp_server_tool() -> None:
    """An MCP tool is named mcp__<server>__<tool>, each part sanitised."""
    assert tool_name("time", "get-current-time") == "mcp__time__get-current-time"
    assert tool_name("my server", "search.docs") == "mcp__my_server__search_docs"


def test_a_long_name_is_cut_and_keeps_two_tools_apart() -> None:
    """A name over 64 characters is cut to 64, with a hash that keeps two long names apart."""
    first, second = tool_name("server", "a" * 80 + "1"), tool_name("server", "a" * 80 + "2")
    assert len(first) == len(second) == MAX_LENGTH
    assert first != second
    assert rule_names("server", "a" * 80 + "1")[1] == "mcp__server__" + "a" * 80 + "1"


def test_variables_in_the_config_are_expanded_as_the_shell_does() -> None:
    """${VAR} takes its value ('' if unset); ${VAR:-default} the default when unset or empty."""
    env = {"TOKEN": "t0k", "EMPTY": ""}
    assert expand("Bearer ${TOKEN}", env) == "Bearer t0k"
    assert expand("${MISSING}/x", env) == "/x"
    assert expand("${EMPTY:-fallback} ${TOKEN:-no}", env) == "fallback t0k"
    server = parse_server("files", {"command": "${TOOL:-npx}", "args": ["--root", "${HOME}"]}, {"HOME": "/h"})
    assert (server.command, server.args) == ("npx", ["--root", "/h"])
