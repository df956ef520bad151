"""Bash Mode in the REPL, driven like a user: `!command` through the pipe, a scripted model, real files."""

import json
from pathlib import Path

from decode.harness.bash_mode import HINT, bash_text
from tests.conftest import WriteText
from tests.unit.harness.conftest import user_texts


async def test_a_bang_line_runs_without_the_model_and_its_next_turn_reads_it(start_repl, script, project: Path) -> None:
    session = await start_repl(script([{"text": "f.txt says hi."}]), permission_mode="bypass")
    await session.warm()

    session.send("!echo hi > f.txt")
    output = await session.wait_for("✓ bash(echo hi > f.txt)")
    await session.wait_until(lambda: not session.repl.busy)
    assert "❯ !echo hi > f.txt" in output  # echoed as typed, then the call's line
    assert "exit 0 · no output" in output
    assert (project / "f.txt").read_text() == "hi\n"
    loop = session.repl.loop
    assert loop is not None
    kept = bash_text("echo hi > f.txt", "exit code: 0\nstdout: (empty)\nstderr: (empty)")
    assert user_texts(loop.history) == [kept]

    session.send("what does f.txt say?")
    await session.wait_for("f.txt says hi.")
    assert user_texts(loop.history) == [kept, "what does f.txt say?"]


async def test_a_bare_bang_prints_a_hint_and_help_lists_bash_mode(start_repl, script) -> None:
    session = await start_repl(script([{"text": "unused"}]))
    await session.warm()
    session.send("!")
    await session.wait_for(HINT)
    assert not session.repl.busy
    assert session.repl.turns.pending() == []
    session.send("/help")
    output = await session.wait_for("bash mode:", count=2)  # the hint, then the help's line
    assert "!command" in output.partition("Keys")[2]


async def test_a_denied_command_is_one_line_and_not_run(start_repl, script, project: Path, write: WriteText) -> None:
    write(project / ".decode" / "settings.json", json.dumps({"permissions": {"deny": ["Bash(rm:*)"]}}))
    (project / "keep.txt").write_text("precious")
    session = await start_repl(script([{"text": "unused"}]), permission_mode="bypass")
    await session.warm()

    session.send("!rm keep.txt")
    settings = project / ".decode" / "settings.json"
    output = await session.wait_for(f"error: not run: rm keep.txt: denied by Bash(rm:*) ({settings}:1)")
    await session.wait_until(lambda: not session.repl.busy)
    assert (project / "keep.txt").exists()
    assert session.repl.loop is not None
    assert session.repl.loop.history == []
    assert "interrupted" not in output
    assert "bash(rm keep.txt)" not in output  # one line, no call


async def test_a_resumed_session_keeps_the_command_and_shows_it_as_typed(start_repl, script) -> None:
    first = await start_repl(script([{"text": "unused"}]), permission_mode="bypass")
    await first.warm()
    first.send("!echo kept")
    await first.wait_for("✓ bash(echo kept)")
    await first.wait_until(lambda: not first.repl.busy)
    first.send("/quit")
    assert await first.exit_code() == 0

    second = await start_repl(script([{"text": "unused"}]), resume="")
    output = await second.wait_for("resumed session")
    assert "❯ !echo kept" in output
    assert second.repl.loop is not None
    assert user_texts(second.repl.loop.history) == [
        bash_text("echo kept", "exit code: 0\nstdout:\nkept\nstderr: (empty)")
    ]
