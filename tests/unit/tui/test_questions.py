"""The Decision Channel's question on the input line: shown above the prompt, answered by the next line."""

import asyncio
import io

from rich.console import Console

from decode.harness.decisions import Option, Question, Reply
from decode.tui.questions import QuestionLine
from decode.tui.render import Renderer

DATABASE = Question(
    "Which database?", (Option("1", "postgres"), Option("2", "sqlite")), free_text=None, detail="the model asks"
)


def question_line() -> tuple[QuestionLine, io.StringIO, list[int]]:
    out, redraws = io.StringIO(), []
    line = QuestionLine(Renderer(Console(file=out, width=200)), invalidate=lambda: redraws.append(1))
    return line, out, redraws


async def test_a_question_with_options_is_shown_and_answered_by_its_key_or_label() -> None:
    line, out, redraws = question_line()
    assert line.text == ""
    assert not line.answer("a prompt")  # no question: the line is for the agent

    asking = asyncio.create_task(line.channel.ask(DATABASE))
    await asyncio.sleep(0)
    assert line.text == "Which database? (1 = postgres · 2 = sqlite) "
    assert out.getvalue().count("the model asks") == 1  # its detail, printed once
    assert redraws

    assert line.answer("mysql")  # not an option: the options are shown again, the question stays
    assert "1 = postgres · 2 = sqlite" in out.getvalue()
    assert line.channel.current is DATABASE
    assert line.answer("sqlite")
    assert await asking == Reply("2", "sqlite")
    assert "→ sqlite" in out.getvalue()
    assert line.text == ""


async def test_an_answer_of_ones_own_is_echoed_as_typed() -> None:
    line, out, _ = question_line()
    asking = asyncio.create_task(line.channel.ask(Question("Name the branch?")))
    await asyncio.sleep(0)
    assert line.text == "Name the branch? (or type your answer) "
    assert line.answer("fix/login")
    assert await asking == Reply(None, "fix/login")
    assert "→ fix/login" in out.getvalue()


async def test_a_body_panels_title_is_text_not_markup() -> None:
    # A project folder may be named anything: `[/x]` in the title of a trust question's panel
    # must be shown as written, not read as Rich markup (which raises on an unmatched tag).
    line, out, _ = question_line()
    question = Question("Trust them?", body="marker: python server.py", title="/src/odd[/x]\x1b]0;t\x07/.mcp.json")
    asking = asyncio.create_task(line.channel.ask(question))
    await asyncio.sleep(0)
    shown = out.getvalue()
    assert "/src/odd[/x]" in shown
    assert "\x1b" not in shown  # the escape shown, not obeyed
    assert line.answer("no thanks")
    await asking


async def test_a_question_rings_the_bell_once_on_a_terminal_and_not_when_turned_off() -> None:
    for terminal, ring, bells in ((True, True, 1), (False, True, 0), (True, False, 0)):
        out = io.StringIO()
        renderer = Renderer(Console(file=out, width=200, force_terminal=terminal))
        renderer.ring = ring  # DECODE_BELL
        line = QuestionLine(renderer, invalidate=lambda: None)
        asking = asyncio.create_task(line.channel.ask(DATABASE))
        await asyncio.sleep(0)
        line.invalidate()  # a redraw does not ring again
        line.answer("1")
        await asking
        assert out.getvalue().count("\a") == bells, (terminal, ring)
