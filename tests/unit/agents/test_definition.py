"""Agent Definitions: Claude Code's front matter, tool names mapped, tools selected by name."""

from pathlib import Path

import pytest

from decode.agents.definition import AgentError, AgentSource, parse_agent, selects, tool_name
from decode.permissions.types import Mode

CLAUDE_REVIEWER = """---
name: code-reviewer
description: Expert code review specialist. Use immediately after writing or modifying code.
tools: Read, Grep, Glob, Bash(git diff:*), WebSearch
model: sonnet
color: blue
---

You are a senior code reviewer ensuring high standards of code quality.
"""


def parse(text: str):
    return parse_agent(text, Path("/p/.claude/agents/x.md"), AgentSource.CLAUDE)


def test_a_claude_code_agent_file_works_as_it_is() -> None:
    agent = parse(CLAUDE_REVIEWER)

    assert agent.name == "code-reviewer"
    assert agent.tools == ("read", "grep", "glob", "bash", "WebSearch")  # Claude Code's names, as decode's
    assert agent.inherits_model  # `sonnet` means nothing here: the parent's model
    assert agent.instructions == "You are a senior code reviewer ensuring high standards of code quality."
    assert agent.allows("read")
    assert agent.allows("bash")
    assert not agent.allows("write")
    assert not agent.allows("agent")


def test_tools_may_be_a_list_and_disallowed_tools_take_away() -> None:
    agent = parse("---\nname: a\ndescription: d\ntools: [read, Edit, write]\ndisallowedTools: Write\n---\n")
    assert agent.allows("read")
    assert agent.allows("edit")
    assert not agent.allows("write")
    assert agent.tools_text() == "read, edit, write except write"


def test_no_tools_list_means_every_tool_but_a_child_spawns_no_one_and_has_no_mcp() -> None:
    agent = parse("---\nname: a\ndescription: d\n---\nDo it.")
    assert agent.allows("agent")
    assert agent.allows("mcp__github__create_issue")
    assert agent.allows("bash", child=True)
    assert agent.allows("write", child=True)
    assert not agent.allows("agent", child=True)  # no nested spawning unless listed
    assert not agent.allows("mcp__github__create_issue", child=True)  # nor MCP tools
    assert not agent.allows("ask_user", child=True)  # no one answers a child


def test_a_child_gets_the_agent_and_mcp_tools_its_agent_lists() -> None:
    agent = parse("---\nname: a\ndescription: d\ntools: read, Task, mcp__github\n---\n")
    assert agent.allows("agent", child=True)
    assert agent.allows("mcp__github__create_issue", child=True)
    assert not agent.allows("mcp__time__now", child=True)
    assert agent.lists_mcp
    assert agent.allows("search_tools", child=True)  # MCP tools loaded on demand are found through it


def test_the_mcp_tool_search_goes_with_the_mcp_tools() -> None:
    every = parse("---\nname: a\ndescription: d\n---\n")
    listed = parse("---\nname: a\ndescription: d\ntools: read\n---\n")
    assert every.allows("search_tools")
    assert not every.allows("search_tools", child=True)
    assert not listed.allows("search_tools")


@pytest.mark.parametrize(
    ("pattern", "tool", "selected"),
    [
        ("read", "read", True),
        ("mcp__github", "mcp__github__create_issue", True),
        ("mcp__github", "mcp__githubx__create", False),
        ("mcp__github__*", "mcp__github__list", True),
        ("mcp__github__create_issue", "mcp__github__create_issue", True),
        ("mcp__github__create_issue", "mcp__github__close_issue", False),
        ("*", "anything", True),
    ],
)
def test_patterns_select_tools_by_name(pattern: str, tool: str, selected: bool) -> None:
    assert selects(pattern, tool) is selected


def test_claude_tool_names_map_to_decodes() -> None:
    assert [tool_name(n) for n in ("Read", "MultiEdit", "Task", "WebFetch", "TodoWrite", "Bash(npm:*)", "grep")] == [
        "read",
        "edit",
        "agent",
        "web_fetch",
        "todo_write",
        "bash",
        "grep",
    ]


def test_permission_mode_takes_claude_codes_spelling_but_never_bypass() -> None:
    agent = parse("---\nname: a\ndescription: d\npermissionMode: acceptEdits\n---\n")
    assert agent.permission_mode is Mode.ACCEPT_EDITS
    with pytest.raises(AgentError, match="cannot choose bypass"):
        parse("---\nname: a\ndescription: d\npermissionMode: bypassPermissions\n---\n")


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        ("Just a prompt.\n", "no front matter"),
        ("---\nname: a\n---\nbody", "description: Field required"),
        ("---\nname: Bad Name\ndescription: d\n---\n", "name: String should match pattern"),
        ("---\nname: a\ndescription: [unclosed\n---\n", "not valid YAML"),
        ("---\nname: a\ndescription: d\ntools: 3\n---\n", "tools: expected tool names"),
        ("---\nname: a\ndescription: d\npermissionMode: yolo\n---\n", "unknown permission mode"),
    ],
)
def test_a_malformed_file_raises_an_error_naming_the_file(text: str, problem: str) -> None:
    with pytest.raises(AgentError, match=r"/p/\.claude/agents/x\.md") as raised:
        parse(text)
    assert problem in str(raised.value)


@pytest.mark.parametrize("spelling", ["BASH", "bash", "Bash", "bAsH", "Bash(rm:*)"])
def test_disallowed_tools_take_away_in_any_spelling(spelling: str) -> None:
    # A `disallowedTools` entry that silently matched nothing would leave the tool in place.
    agent = parse(f"---\nname: a\ndescription: d\ndisallowedTools: {spelling}\n---\n")
    assert not agent.allows("bash")
    assert agent.allows("read")


def test_tools_in_another_case_select_the_tool_too() -> None:
    agent = parse("---\nname: a\ndescription: d\ntools: READ, Grep, todowrite\n---\n")
    assert agent.tools == ("read", "grep", "todo_write")


def test_an_mcp_glob_selects_every_mcp_tool_and_nothing_else() -> None:
    assert selects("mcp__*", "mcp__github__get_issue")
    assert selects("mcp__git*", "mcp__github__get_issue")
    assert not selects("mcp__*", "bash")
    assert not selects("mcp__git*", "mcp__jira__get_issue")


def test_a_tool_named_only_with_rules_is_confined_to_them() -> None:
    agent = parse("---\nname: a\ndescription: d\ntools: Read, Bash(git diff:*), bash(git log:*)\n---\n")

    assert agent.tools == ("read", "bash")
    assert agent.confined == ("Bash(git diff:*)", "Bash(git log:*)")
    assert {tool: [str(rule) for rule in rules] for tool, rules in agent.confinement().items()} == {
        "bash": ["Bash(git diff:*)", "Bash(git log:*)"]
    }
    assert parse("---\nname: a\ndescription: d\ntools: Bash, Bash(git diff:*)\n---\n").confined == ()


def test_a_tool_rule_that_cannot_be_read_makes_the_file_malformed() -> None:
    with pytest.raises(AgentError, match=r"x\.md: tools: rule 'Bash\(git diff' opens a parenthesis"):
        parse("---\nname: a\ndescription: d\ntools: [Read, Bash(git diff]\n---\n")
