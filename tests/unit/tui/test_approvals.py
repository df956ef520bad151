"""Approvals in the REPL: the question, the answers, one question at a time (the Decision Channel)."""

import asyncio
import io
import json
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from decode.permissions.hook import Answer, Approval
from decode.permissions.types import Decision, Verdict
from decode.tui.approvals import HELP, Approvals, parse_answer
from decode.tui.footer import footer, plain
from decode.tui.questions import QuestionLine
from decode.tui.render import Renderer


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("y", Approval(Answer.YES)),
        (" Yes ", Approval(Answer.YES)),
        ("a", Approval(Answer.ALWAYS)),
        ("always", Approval(Answer.ALWAYS)),
        ("n", Approval(Answer.NO)),
        ("NO", Approval(Answer.NO)),
        ("no, use pnpm here", Approval(Answer.NO, "no, use pnpm here")),
        ("", None),
        ("   ", None),
    ],
)
def test_answers(line: str, approval: Approval | None) -> None:
    assert parse_answer(line) == approval


def approvals() -> tuple[Approvals, QuestionLine, io.StringIO]:
    out = io.StringIO()
    line = QuestionLine(Renderer(Console(file=out, width=200)), invalidate=lambda: None)
    return Approvals(line.channel), line, out


VERDICT = Verdict(Decision.ASK, "npm install: no rule allows it in default mode")


async def test_a_question_waits_for_the_line_that_answers_it() -> None:
    prompts, line, out = approvals()
    assert not line.answer("a prompt, not an answer")
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, VERDICT))
    await asyncio.sleep(0)
    assert line.channel.current is not None
    assert line.text == f"allow bash(npm install)? ({HELP}) "
    assert "permission needed: bash(npm install) — npm install: no rule allows it" in out.getvalue()
    assert line.answer("")  # an empty line: the question stays
    assert line.channel.current is not None
    assert HELP in out.getvalue()
    assert line.answer("a")
    assert await asking == Approval(Answer.ALWAYS)
    assert "→ always" in out.getvalue()
    assert line.channel.current is None
    assert line.text == ""


async def test_parallel_calls_are_asked_one_at_a_time() -> None:
    prompts, line, out = approvals()
    first = asyncio.create_task(prompts.ask("bash", {"command": "one"}, VERDICT))
    second = asyncio.create_task(prompts.ask("bash", {"command": "two"}, VERDICT))
    await asyncio.sleep(0)
    assert "bash(one)" in line.text
    assert "bash(two)" not in out.getvalue()
    line.answer("y")
    assert await first == Approval(Answer.YES)
    await asyncio.sleep(0)
    assert "bash(two)" in line.text
    assert "permission needed: bash(two)" in out.getvalue()  # its reason shows when its turn comes
    line.answer("not now")
    assert await second == Approval(Answer.NO, "not now")


# -- through the real REPL: keys in through prompt_toolkit's pipe, what the user reads out ---------

SHIFT_TAB = "\x1b[Z"


def touch_then_answer(script: Callable[[list[dict]], str], command: str = "touch made.txt") -> str:
    return script([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "Finished."}])


async def test_yes_runs_the_call_once(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_for("permission needed: bash(touch made.txt)")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("y")
    await session.wait_for("Finished.")
    assert (project / "made.txt").exists()
    assert not (project / ".decode" / "settings.local.json").exists()


async def test_no_with_a_reason_reaches_the_model(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("keep the tree clean")
    output = await session.wait_for("Finished.")
    assert not (project / "made.txt").exists()
    assert "✗ bash(touch made.txt) · The user said no. They said: keep the tree clean." in output
    assert session.repl.loop is not None
    assert "They said: keep the tree clean." in str(session.repl.loop.history)


async def test_always_saves_the_rule_and_the_next_call_does_not_ask(start_repl, script, project: Path) -> None:
    model = script(
        [
            {"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]},
            {"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]},
            {"text": "Finished."},
        ]
    )
    session = await start_repl(model)
    session.send("make a file twice")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("a")
    output = await session.wait_for("Finished.")
    assert output.count("permission needed") == 1
    assert output.count("✓ bash(touch made.txt)") == 2
    saved = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert saved == {"permissions": {"allow": ["Bash(touch made.txt)"]}}


async def test_a_deny_rule_never_asks(start_repl, script, project: Path) -> None:
    (project / ".decode").mkdir(exist_ok=True)
    (project / ".decode" / "settings.json").write_text('{"permissions": {"deny": ["Bash(touch:*)"]}}')
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    output = await session.wait_for("Finished.")
    assert "permission needed" not in output
    assert "✗ bash(touch made.txt) · Permission denied: touch made.txt: denied by Bash(touch:*)" in output


async def test_shift_tab_cycles_the_mode_and_the_footer_shows_it(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    await session.warm()
    assert "⏵⏵" not in plain(footer(session.repl.status))
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: accept-edits")
    assert "⏵⏵ accept-edits" in plain(footer(session.repl.status))
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: plan")
    session.send("make a file")
    output = await session.wait_for("Finished.")
    assert "✗ bash(touch made.txt) · Permission denied: plan mode" in output
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: default")
    assert session.repl.conversation is not None
    assert session.repl.conversation.gate.mode == "default"
    assert session.repl.conversation.session.mode == "default"


async def test_the_mode_option_and_broken_settings_at_start(start_repl, script, project: Path) -> None:
    (project / ".decode").mkdir(exist_ok=True)
    broken = project / ".decode" / "settings.local.json"
    broken.write_text("{oops")
    session = await start_repl(touch_then_answer(script), permission_mode="bypass")
    output = await session.wait_for("not valid JSON")
    assert f"permissions: {broken}:1: not valid JSON" in output
    assert session.repl.status.permission_mode == "bypass"
    session.send("make a file")
    await session.wait_for("Finished.")
    # A broken file's denies cannot vanish: with no good copy of it, every tool is refused (ADR-0042).
    assert not (project / "made.txt").exists()
