"""Approvals in the REPL: the question, the answers, one question at a time."""

import asyncio
import io

import pytest
from rich.console import Console

from decode.permissions.hook import Answer, Approval
from decode.permissions.types import Decision, Verdict
from decode.tui.approvals import HELP, Approvals, parse_answer
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


def approvals() -> tuple[Approvals, io.StringIO]:
    out = io.StringIO()
    return Approvals(Renderer(Console(file=out, width=200)), invalidate=lambda: None), out


VERDICT = Verdict(Decision.ASK, "npm install: no rule allows it in default mode")


async def test_a_question_waits_for_the_line_that_answers_it() -> None:
    prompts, out = approvals()
    assert not prompts.answer("a prompt, not an answer")
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, VERDICT))
    await asyncio.sleep(0)
    assert prompts.pending
    assert prompts.question.startswith("allow bash(npm install)?")
    assert "permission needed: bash(npm install) — npm install: no rule allows it" in out.getvalue()
    assert prompts.answer("")  # an empty line: the question stays
    assert prompts.pending
    assert HELP in out.getvalue()
    assert prompts.answer("a")
    assert await asking == Approval(Answer.ALWAYS)
    assert not prompts.pending
    assert prompts.question == ""


async def test_parallel_calls_are_asked_one_at_a_time() -> None:
    prompts, out = approvals()
    first = asyncio.create_task(prompts.ask("bash", {"command": "one"}, VERDICT))
    second = asyncio.create_task(prompts.ask("bash", {"command": "two"}, VERDICT))
    await asyncio.sleep(0)
    assert "bash(one)" in prompts.question
    assert "bash(two)" not in out.getvalue()
    prompts.answer("y")
    assert await first == Approval(Answer.YES)
    await asyncio.sleep(0)
    assert "bash(two)" in prompts.question
    prompts.answer("not now")
    assert await second == Approval(Answer.NO, "not now")
