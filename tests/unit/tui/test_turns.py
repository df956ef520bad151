"""Lesson 10 in the REPL, through prompt_toolkit's pipe: steer, follow up, abort, hand back, leave."""

import subprocess
from pathlib import Path

from prompt_toolkit.formatted_text import to_plain_text

from decode.harness.abort import INTERRUPTED_NOTE, INTERRUPTED_RESULT
from decode.harness.priority import Message, Priority
from decode.tui.app import Repl
from decode.tui.turns import pending_lines
from tests.conftest import has_pid
from tests.unit.tui.conftest import Busy, user_prompts

ESC, ALT_ENTER, CTRL_C = "\x1b", "\x1b\r", "\x03"


def running_members(pgid: str) -> list[str]:
    """Processes of group `pgid` still running (a killed one not yet reaped is a zombie: not running)."""
    listed = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True, check=True).stdout
    return [line for line in listed.splitlines() if line.split()[0] == pgid and not line.split()[1].startswith("Z")]


def above_the_prompt(repl: Repl) -> str:
    return to_plain_text(repl._message())


async def test_enter_while_busy_steers_the_turn_and_the_model_gets_it_next(busy: Busy) -> None:
    session, model = busy

    session.send("in French, please")
    await session.wait_until(lambda: "↳ steer · in French, please" in above_the_prompt(session.repl))
    model.release.set()

    output = await session.wait_for("answer 2.")
    assert model.requests == [["first"], ["first", "in French, please"]]
    assert output.index("answer 1.") < output.index("❯ in French, please") < output.index("answer 2.")
    assert "steer" not in above_the_prompt(session.repl)


async def test_alt_enter_while_busy_queues_a_follow_up_and_while_idle_adds_a_line(busy: Busy) -> None:
    session, model = busy

    session.type("then summarise" + ALT_ENTER)
    await session.wait_until(lambda: "⏎ follow-up · then summarise" in above_the_prompt(session.repl))
    assert session.repl.session.default_buffer.text == ""  # sent, not left in the line
    model.release.set()
    await session.wait_for("answer 2.")
    assert model.requests[-1] == ["first", "then summarise"]
    await session.wait_until(lambda: not session.repl.busy)

    session.type("two" + ALT_ENTER + "lines")  # nothing runs: Alt+Enter is a new line, as in lesson 03
    await session.wait_until(lambda: session.repl.session.default_buffer.text == "two\nlines")


async def test_esc_stops_a_long_bash_at_once_and_the_conversation_goes_on(start_repl, script, project: Path) -> None:
    model = script(
        [
            {
                "text": "Starting it.",
                "tool_calls": [{"name": "bash", "args": {"command": "echo $$ > g.pid; sleep 600"}}],
            },
            {"text": "Fresh start."},
        ]
    )
    session = await start_repl(model, permission_mode="bypass")
    session.send("start the server")
    await session.wait_until(lambda: has_pid(project / "g.pid"))
    pgid = (project / "g.pid").read_text().strip()
    session.send("on port 8080")  # a steer the model will never get
    await session.wait_until(lambda: session.repl.turns.pending() != [])

    session.type(ESC)
    output = await session.wait_for("interrupted")
    assert not session.repl.busy
    await session.wait_until(lambda: running_members(pgid) == [])
    assert "✗ bash(echo $$ > g.pid; sleep 600) · stopped" in output
    assert "not sent, back in the input line: 1 message" in output
    assert session.repl.session.default_buffer.text == "on port 8080"

    history = str(session.repl.loop.history)
    assert INTERRUPTED_RESULT in history
    assert INTERRUPTED_NOTE in history
    session.type(CTRL_C)  # clears the handed-back line
    session.send("what now?")
    await session.wait_for("Fresh start.")


async def test_ctrl_c_while_busy_stops_the_turn_and_twice_leaves(busy: Busy) -> None:
    session, _ = busy

    session.type(CTRL_C)
    await session.wait_for("interrupted")
    assert not session.repl.busy
    assert user_prompts(session.repl.loop.history) == ["first", INTERRUPTED_NOTE]

    session.type(CTRL_C + CTRL_C)  # twice in a row: leave, cleanly
    assert await session.exit_code() == 0


async def test_ctrl_c_on_an_idle_empty_line_says_how_to_leave(start_repl, script) -> None:
    session = await start_repl(script([{"text": "hi"}]))
    session.type(CTRL_C)
    await session.wait_for("press Ctrl-C again, Ctrl-D or type /quit")
    assert not session.task.done()


def test_waiting_messages_are_listed_with_their_priority() -> None:
    lines = pending_lines(
        [
            Message("use pnpm", Priority.STEER),
            Message("then test", Priority.FOLLOW_UP),
            Message("the whole /init prompt", shown="/init"),
        ]
    )
    assert to_plain_text(lines) == "↳ steer · use pnpm\n⏎ follow-up · then test\n⧗ next turn · /init\n"
