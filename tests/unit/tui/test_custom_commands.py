"""Custom slash commands in the REPL: `/name args` runs `.claude/commands/name.md`, driven like a user
(keys through a pipe, a scripted model, real files and real `!` commands through the gate)."""

import json
from pathlib import Path

from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from decode.tui.input import SlashCommandCompleter
from tests.conftest import WriteText

FIX_ISSUE = """---
description: Fix a GitHub issue by number
argument-hint: <number> [priority]
---

Fix issue #$1 at priority $2.
Shell says: !`echo from-the-shell-$1`
Follow @docs/style.md.
"""


def user_prompts(session) -> list[str]:
    return [
        part.content
        for message in session.repl.loop.history
        if message.kind == "request"
        for part in message.parts
        if part.part_kind == "user-prompt"
    ]


async def test_a_command_runs_with_its_arguments_shell_output_and_files(
    start_repl, script, project, write: WriteText
) -> None:
    write(project / ".claude" / "commands" / "fix-issue.md", FIX_ISSUE)
    write(project / "docs" / "style.md", "STYLE: tabs")
    session = await start_repl(script([{"text": "Fixed it."}]))

    session.send("/fix-issue 12 high")
    await session.wait_for("permission needed: bash(echo from-the-shell-12)")  # asked as a bash call would be
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("y")
    output = await session.wait_for("Fixed it.")

    assert "❯ /fix-issue 12 high" in output
    assert "!echo from-the-shell-12: exit code 0" in output
    (prompt,) = user_prompts(session)
    assert prompt.startswith("Fix issue #12 at priority high.\nShell says: from-the-shell-12\nFollow @docs/style.md.")
    assert '<file path="docs/style.md">\nSTYLE: tabs\n</file>' in prompt


async def test_a_denied_shell_line_is_not_run_and_the_prompt_says_so(
    start_repl, script, project, write: WriteText
) -> None:
    write(project / ".decode" / "settings.json", json.dumps({"permissions": {"deny": ["Bash(touch:*)"]}}))
    write(project / ".decode" / "commands" / "mark.md", "Mark it: !`touch marked`")
    session = await start_repl(script([{"text": "Done."}]))

    session.send("/mark")
    output = await session.wait_for("Done.")

    assert "!touch marked: not run" in output
    assert not (project / "marked").exists()
    (prompt,) = user_prompts(session)
    assert prompt.startswith("Mark it: [`touch marked` was not run: ")


async def test_help_and_completion_offer_namespaced_commands(start_repl, script, project, write: WriteText) -> None:
    write(project / ".claude" / "commands" / "frontend" / "component.md", "---\ndescription: Make a component\n---\nX")
    write(Path.home() / ".claude" / "commands" / "cost.md", "Hidden by /cost.")
    session = await start_repl(script([]))

    completer = SlashCommandCompleter(session.repl.commands, lambda name: [], session.repl.extra_commands)
    found = [c.text for c in completer.get_completions(Document("/fro"), CompleteEvent())]
    assert found == ["/frontend:component"]
    session.send("/help")
    output = await session.wait_for("Skills and custom commands")
    assert "/frontend:component [text]" in output
    assert "Make a component (command)" in output
    assert "Hidden by /cost." not in output
