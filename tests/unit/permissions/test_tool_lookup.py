"""The tool a command line names, and its argument: by name, by rule name, or an MCP tool's own name."""

import pytest

from decode.entities.tools import ToolKind
from decode.permissions.tool_lookup import UnknownTool, find_tool, tool_arguments


@pytest.mark.parametrize(("typed", "name"), [("bash", "bash"), ("Bash", "bash"), ("read", "read"), ("READ", "read")])
def test_a_tool_answers_to_its_name_and_its_first_rule_name(typed: str, name: str) -> None:
    assert find_tool(typed)[0] == name


def test_an_mcp_tool_answers_to_its_own_name_as_an_other_tool() -> None:
    name, traits = find_tool("mcp__github__create_issue")
    assert name == "mcp__github__create_issue"
    assert traits.kind is ToolKind.OTHER
    assert traits.rules == ("mcp__github__create_issue",)


@pytest.mark.parametrize(
    ("typed", "said"),
    [("fly", "unknown tool 'fly' (known: "), ("mcp__bad name__x", "is not an MCP tool name"), ("mcp__x", "MCP")],
)
def test_a_name_no_tool_answers_to_is_an_unknown_tool_saying_why(typed: str, said: str) -> None:
    with pytest.raises(UnknownTool) as raised:
        find_tool(typed)
    assert said in str(raised.value)
    assert isinstance(raised.value, ValueError)


def test_the_argument_goes_under_the_key_rules_talk_about() -> None:
    assert tool_arguments(find_tool("bash")[1], "git status") == {"command": "git status"}
    assert tool_arguments(find_tool("read")[1], "src/a.py") == {"path": "src/a.py"}
    assert tool_arguments(find_tool("read")[1], "") == {}
