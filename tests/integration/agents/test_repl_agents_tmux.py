"""Agents in `decode` running in a real terminal: a subagent's approval, and `/agent plan`."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal

pytestmark = pytest.mark.integration


def test_a_subagents_approval_is_asked_labelled_and_agent_switches_the_mode(
    terminal: Terminal, project: Path, decode: str
) -> None:
    spawn = {"name": "agent", "args": {"prompt": "Make the file.", "agent": "general", "description": "make a file"}}
    parent = project.parent / "parent.json"
    parent.write_text(json.dumps([{"tool_calls": [spawn]}, {"text": "The child made it."}]))
    child = project.parent / "child.json"
    touch = {"name": "bash", "args": {"command": "touch made.txt"}}
    child.write_text(json.dumps([{"tool_calls": [touch]}, {"text": "made.txt is there."}]))
    command = f"DECODE_SUBAGENT_MODEL=script:{child} {decode} --model script:{parent}; echo decode-exited-$?; sleep 60"
    terminal.start(command, project, size=(160, 40))
    terminal.wait_for_text("❯")

    terminal.submit("make a file through a subagent")
    # The child's question comes through the parent's Decision Channel, saying which subagent asks
    # (on the detail line, printed above the prompt a moment after the question shows).
    terminal.wait_for(
        lambda screen: "allow bash(touch made.txt)?" in screen and "subagent general (make a file) asks:" in screen,
        "the child's question, saying who asks",
    )
    terminal.keys("y")
    screen = terminal.wait_for_text("The child made it.")
    assert (project / "made.txt").exists()
    # The line says what the subagent was for; its own calls are folded under it.
    assert "✓ agent(Make the file.) · general · make a file · 1 tool call · 2 requests ·" in screen
    lines = [line.rstrip() for line in screen.splitlines()]
    assert "  ⎿ bash(touch made.txt)" in lines

    terminal.submit("/agent plan")
    terminal.wait_for_text("agent: plan — all tools, plan mode")
    terminal.wait_for(lambda _: "plan" in terminal.footer(), "plan mode in the footer")
    terminal.submit("/agent")
    terminal.wait_for_text("● plan")
    terminal.submit("/agent build")
    terminal.wait_for_text("agent: build — all tools, default mode")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_decode_agent_starts_the_repl_as_that_agent(terminal: Terminal, project: Path, decode: str) -> None:
    (project / "notes.txt").write_text("keep me\n")
    rm = {"name": "bash", "args": {"command": "rm notes.txt"}}
    model = project.parent / "turns.json"
    model.write_text(json.dumps([{"tool_calls": [rm]}, {"text": "Could not delete it."}]))
    command = f"{decode} --agent explore --model script:{model}; echo decode-exited-$?; sleep 60"
    terminal.start(command, project, size=(160, 40))
    terminal.wait_for_text("❯")

    terminal.wait_for_text("agent: explore — read, glob, grep, bash (read-only), default mode")
    terminal.submit("/agent")
    terminal.wait_for_text("● explore")
    terminal.submit("delete notes.txt")
    # explore is read-only: the command is refused without a question.
    screen = terminal.wait_for_text("Could not delete it.")
    assert "allow bash" not in screen
    assert (project / "notes.txt").exists()
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_decode_agent_with_an_unknown_name_exits_before_the_repl(
    terminal: Terminal, project: Path, decode: str
) -> None:
    terminal.start(f"{decode} --agent nope; echo decode-exited-$?; sleep 60", project)
    screen = terminal.wait_for_text("decode-exited-2")
    assert "decode: error: no agent named 'nope' (agents: build, code-reviewer, explore, general, plan)" in screen
