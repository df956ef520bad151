"""Lesson 15's build-along track: which tools an agent gets, and the Permission Fence of a subagent.

`make lesson-check N=15` runs these against your copy (`make lesson-start N=15`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

from decode.agents.definition import AgentDefinition, AgentSource, selects
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH
from decode.tools.write import WRITE


def agent(tools: tuple[str, ...] | None = None, disallowed: tuple[str, ...] = ()) -> AgentDefinition:
    return AgentDefinition("a", "an agent", None, AgentSource.PROJECT, tools=tools, disallowed_tools=disallowed)


def test_a_tools_entry_selects_a_tool_a_server_or_a_pattern() -> None:
    """A tools entry selects a tool by name, every tool of an MCP server, or a wildcard pattern."""
    assert selects("read", "read")
    assert not selects("read", "write")
    assert selects("mcp__github", "mcp__github__create_issue")
    assert not selects("mcp__github", "mcp__gitlab__x")
    assert selects("mcp__*", "mcp__time__now")
    assert selects("web_*", "web_fetch")


def test_a_subagent_without_a_tools_list_gets_every_tool_but_spawning_and_asking() -> None:
    """A subagent with no tools list gets every tool except agent, ask_user and the MCP tools."""
    everything = agent()
    assert everything.allows("bash", child=True)
    assert not everything.allows("agent", child=True)
    assert not everything.allows("ask_user", child=True)
    assert not everything.allows("mcp__time__now", child=True)
    assert everything.allows("agent")  # the main agent itself


def test_a_tools_list_and_disallowed_tools_decide() -> None:
    """A tools list gives only what it names; disallowed tools are taken away whatever else says."""
    listed = agent(("read", "grep", "mcp__github"), disallowed=("grep",))
    assert listed.allows("read", child=True)
    assert not listed.allows("bash", child=True)
    assert not listed.allows("grep", child=True)
    assert listed.allows("mcp__github__x", child=True)


async def test_a_child_is_never_looser_than_its_parent(tmp_path: Path) -> None:
    """A subagent's gate keeps its parent's deny and its parent's plan mode, even in bypass mode."""
    parent = PermissionGate([parse_rule("Bash(rm:*)", Decision.DENY, None)], Mode.BYPASS, workspace=tmp_path)
    child = parent.fenced(Mode.BYPASS)
    assert (await child.check("bash", {"command": "rm -rf docs"}, BASH.traits)).decision is Decision.DENY
    assert (await child.check("bash", {"command": "make"}, BASH.traits)).decision is Decision.ALLOW
    parent.mode = Mode.PLAN
    verdict = await child.check("write", {"path": "notes.md", "content": "x"}, WRITE.traits)
    assert verdict.decision is Decision.DENY


async def test_a_read_only_or_confined_agent_is_held_to_it(tmp_path: Path) -> None:
    """A read-only agent may not write; an agent confined to Bash(git diff:*) runs nothing else."""
    explore = PermissionGate([], Mode.BYPASS, workspace=tmp_path)
    explore.read_only = True
    assert (await explore.check("write", {"path": "a", "content": "x"}, WRITE.traits)).decision is Decision.DENY
    differ = PermissionGate([], Mode.BYPASS, workspace=tmp_path)
    differ.confined = {"bash": [parse_rule("Bash(git diff:*)", Decision.ALLOW, None)]}
    assert (await differ.check("bash", {"command": "git diff --stat"}, BASH.traits)).decision is Decision.ALLOW
    assert (await differ.check("bash", {"command": "rm -rf docs"}, BASH.traits)).decision is Decision.DENY
