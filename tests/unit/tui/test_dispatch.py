"""What a line typed becomes: nothing, a slash command (with a hint when misspelt), or a prompt."""

from decode.tui.dispatch import submit


async def test_a_blank_line_sends_nothing_and_a_misspelt_command_gets_a_hint(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hello."}]))
    await session.warm()
    await submit(session.repl, "   \n  ")
    assert session.repl.turns.pending() == []
    assert not session.repl.busy
    await submit(session.repl, "/hlep")
    assert "error: unknown command /hlep: did you mean /help?" in session.output()
    assert not session.repl.busy  # a command is never a prompt
    await submit(session.repl, "/etc/hosts looks wrong")  # a path, not a command: a prompt for the agent
    await session.wait_for("Hello.")
