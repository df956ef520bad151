"""ask_user and exit_plan_mode in the REPL, through the Decision Channel, on the scripted model."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from decode.tui.asking import user_question
from decode.tui.footer import footer, plain

PLAN = "## Plan\n1. Write `notes.txt`.\n2. Check it."


def test_the_options_are_numbered_and_free_text_is_an_answer_too() -> None:
    question = user_question("Which database?", ["sqlite", "postgres"])
    assert question.hint() == "1 = sqlite · 2 = postgres · or type your answer"
    assert question.parse("2").choice == "2"  # ty: ignore[possibly-missing-attribute]
    assert question.parse("postgres").choice == "2"  # ty: ignore[possibly-missing-attribute]
    assert question.parse("mysql, please").text == "mysql, please"  # ty: ignore[possibly-missing-attribute]


def asks(script: Callable[[list[dict[str, Any]]], str], **args: Any) -> str:
    return script([{"tool_calls": [{"name": "ask_user", "args": args}]}, {"text": "Finished."}])


async def test_an_option_is_chosen_with_one_key_and_the_model_gets_its_text(start_repl, script) -> None:
    session = await start_repl(asks(script, question="Which database?", options=["sqlite", "postgres"]))
    session.send("set up the tests")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    assert session.repl.questions.lines(80) == "Which database?\n1 = sqlite · 2 = postgres · or type your answer"
    session.type("2")  # no Enter
    output = await session.wait_for("Finished.")
    assert "→ postgres" in output
    assert session.repl.loop is not None
    assert "The user answered: postgres" in str(session.repl.loop.history)


async def test_an_answer_in_the_users_own_words(start_repl, script) -> None:
    session = await start_repl(asks(script, question="Which port?"))
    session.send("serve it")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("8080, the usual")
    await session.wait_for("Finished.")
    assert session.repl.loop is not None
    assert "The user answered: 8080, the usual" in str(session.repl.loop.history)


def plans_then_writes(script: Callable[[list[dict[str, Any]]], str]) -> str:
    return script(
        [
            {"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": PLAN}}]},
            {"tool_calls": [{"name": "write", "args": {"path": "notes.txt", "content": "hi\n"}}]},
            {"text": "Finished."},
        ]
    )


async def test_accepting_the_plan_switches_to_accept_edits_and_the_edit_runs(start_repl, script, project: Path) -> None:
    session = await start_repl(plans_then_writes(script), permission_mode="plan")
    session.send("plan the notes")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    output = session.output()
    assert "╭─ plan ─" in output
    assert " 1 Write notes.txt." in output  # the plan, rendered as Markdown, in its panel
    session.type("a")
    output = await session.wait_for("Finished.")
    assert "permission mode: accept-edits" in output
    assert "permission needed" not in output  # the write ran without asking
    assert (project / "notes.txt").read_text() == "hi\n"
    conversation = session.repl.conversation
    assert conversation is not None
    assert (conversation.gate.mode, conversation.session.mode) == ("accept-edits", "accept-edits")
    assert "⏵⏵ accept-edits" in plain(footer(session.repl.status))
    assert "The permission mode is now accept-edits" in str(conversation.loop.history)


async def test_y_accepts_into_default_where_the_edit_asks(start_repl, script, project: Path) -> None:
    session = await start_repl(plans_then_writes(script), permission_mode="plan")
    session.send("plan the notes")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.type("y")
    await session.wait_for("permission needed: write(notes.txt)")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.type("y")
    await session.wait_for("Finished.")
    assert (project / "notes.txt").exists()
    assert session.repl.status.permission_mode == "default"


async def test_feedback_rejects_the_plan_and_the_mode_stays_plan(start_repl, script, project: Path) -> None:
    session = await start_repl(
        script([{"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": PLAN}}]}, {"text": "Finished."}]),
        permission_mode="plan",
    )
    session.send("plan the notes")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("Put it under docs/ instead")
    await session.wait_for("Finished.")
    conversation = session.repl.conversation
    assert conversation is not None
    assert conversation.gate.mode == "plan"
    assert "Their feedback: Put it under docs/ instead" in str(conversation.loop.history)


async def test_outside_plan_mode_exit_plan_mode_is_not_there_to_call(start_repl, script) -> None:
    session = await start_repl(
        script([{"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": PLAN}}]}, {"text": "Finished."}])
    )
    session.send("go")
    output = await session.wait_for("Finished.")
    assert "Unknown tool name: 'exit_plan_mode'" in output  # not offered, so not callable
    assert session.repl.questions.channel.current is None


async def test_escape_sequences_in_a_plan_never_reach_the_terminal(start_repl, script) -> None:
    hostile = "1. Fix it\x1b]0;pwned\x07 now"
    session = await start_repl(
        script([{"tool_calls": [{"name": "exit_plan_mode", "args": {"plan": hostile}}]}, {"text": "Finished."}]),
        permission_mode="plan",
    )
    session.send("plan")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    assert "\x1b]0;" not in session.output()
    assert "Fix it" in session.output()
    session.type("n")
    await session.wait_for("Finished.")
