"""Lesson 15 in the REPL: `/agent` lists the agents, `/agent NAME` switches; a child's progress is drawn live."""

from pathlib import Path

from decode.permissions.types import Mode
from decode.tui.agents import add_agent_commands
from decode.tui.commands import builtin_commands
from tests.conftest import WriteText


def test_agent_is_registered_and_completes_the_names(project: Path) -> None:
    registry = add_agent_commands(builtin_commands())
    command = registry.get("agent")
    assert command is not None
    assert command.while_busy is False  # it changes the conversation: not in the middle of a turn


async def test_agent_lists_the_agents_marking_the_current_one(start_repl, script, project, write: WriteText) -> None:
    write(project / ".claude" / "agents" / "reviewer.md", "---\nname: reviewer\ndescription: Reviews.\n---\n")
    write(project / ".claude" / "agents" / "broken.md", "---\nname: broken\n---\n")
    session = await start_repl(script([{"text": "unused"}]))
    await session.warm()

    await session.wait_for("agent skipped")  # the warm-up says it once, as a notice

    session.send("/agent")
    output = await session.wait_for("agent skipped", count=2)

    assert "● build" in output
    assert "reviewer" in output
    assert "project (.claude)" in output
    assert "broken.md: description: Field required" in output


async def test_agent_name_switches_tools_and_mode_and_a_wrong_name_changes_nothing(start_repl, script) -> None:
    session = await start_repl(script([{"text": "unused"}]))
    await session.warm()

    session.send("/agent plan")
    await session.wait_for("agent: plan — all tools, plan mode")
    assert session.repl.conversation.gate.mode is Mode.PLAN
    assert session.repl.status.permission_mode == "plan"

    session.send("/agent nope")
    await session.wait_for("no agent named 'nope'")
    assert session.repl.conversation.agent.definition.name == "plan"

    session.send("/agent explore")
    await session.wait_for("agent: explore — read, glob, grep, bash (read-only), default mode")
    assert session.repl.conversation.gate.read_only


async def test_agent_name_of_an_untrusted_project_agent_says_why_its_mode_is_not_used(
    start_repl, script, project, write: WriteText
) -> None:
    fixer = "---\nname: fixer\ndescription: Fixes.\npermissionMode: acceptEdits\n---\nFix.\n"
    write(project / ".claude" / "agents" / "fixer.md", fixer)
    session = await start_repl(script([{"text": "unused"}]))
    await session.warm()

    session.send("/agent fixer")
    output = await session.wait_for("agent: fixer — all tools, default mode")

    assert "agent fixer: its permissionMode accept-edits is not in force until you trust" in output
    assert session.repl.conversation.gate.mode is Mode.DEFAULT
