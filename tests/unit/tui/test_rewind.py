"""`/undo`, `/rewind` and Esc Esc in the REPL, driven through the pipe: a scripted model writes real
files through the real tools, then the REPL takes turns back (the pickers run in tmux:
tests/integration/tui/test_rewind_tmux.py)."""

from pathlib import Path

from decode.tui.rewind import CODE, CONVERSATION, rewind_to
from tests.unit.tui.conftest import user_prompts


def _writes(script, *names: str) -> str:
    """A model that writes each of `names` in a turn of its own."""
    responses: list[dict] = []
    for name in names:
        responses += [{"tool_calls": [{"name": "write", "args": {"path": name, "content": f"{name}\n"}}]}]
        responses += [{"text": f"wrote {name}"}]
    return script(responses)


async def _two_turns(start_repl, script):
    session = await start_repl(_writes(script, "a.txt", "b.txt"), permission_mode="bypass")
    await session.warm()
    for name in ("a.txt", "b.txt"):
        session.send(f"write {name}")
        await session.wait_for(f"wrote {name}")
        await session.wait_until(lambda: not session.repl.busy)
    return session


async def test_undo_with_no_turn_says_so(start_repl, script) -> None:
    session = await start_repl(script([{"text": "unused"}]))
    await session.warm()
    session.send("/undo")
    await session.wait_for("nothing to undo: no turn since the session began")


async def test_undo_takes_the_last_turn_back(start_repl, script, project: Path) -> None:
    session = await _two_turns(start_repl, script)
    session.send("/undo")
    output = await session.wait_for("conversation rewound to before turn 2: write b.txt")
    assert "removed b.txt" in output
    assert (project / "a.txt").exists()
    assert not (project / "b.txt").exists()
    loop = session.repl.loop
    assert loop is not None
    assert user_prompts(loop.history) == ["write a.txt"]


async def test_code_only_keeps_the_conversation(start_repl, script, project: Path) -> None:
    session = await _two_turns(start_repl, script)
    loop = session.repl.loop
    assert loop is not None
    await rewind_to(session.repl, loop, 0, CODE)
    assert not (project / "a.txt").exists()
    assert not (project / "b.txt").exists()
    assert user_prompts(loop.history) == ["write a.txt", "write b.txt"]


async def test_conversation_only_keeps_the_code_and_gives_the_prompt_back(start_repl, script, project: Path) -> None:
    session = await _two_turns(start_repl, script)
    loop = session.repl.loop
    assert loop is not None
    await rewind_to(session.repl, loop, 0, CONVERSATION)
    assert (project / "a.txt").exists()
    assert (project / "b.txt").exists()
    assert loop.history == []
    assert session.repl.session.default_buffer.text == "write a.txt"


async def test_esc_esc_opens_rewind_and_esc_cancels(start_repl, script) -> None:
    session = await _two_turns(start_repl, script)
    session.type("\x1b\x1b")
    await session.wait_for("❯ /rewind")
    session.type("\x1b")  # the picker: Esc cancels, nothing changes
    await session.wait_until(lambda: session.repl.session.app.is_running)
    loop = session.repl.loop
    assert loop is not None
    assert user_prompts(loop.history) == ["write a.txt", "write b.txt"]
