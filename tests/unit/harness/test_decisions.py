"""The Decision Channel: questions with options, free-text answers, one question at a time."""

import asyncio

import pytest

from decode.harness.decisions import DecisionChannel, Option, Question, Reply

APPROVE = Question("allow bash(npm install)?", (Option("y", "yes"), Option("a", "always"), Option("n", "no")))
DATABASE = Question("Which database?", (Option("1", "postgres"), Option("2", "sqlite")), free_text=None)


@pytest.mark.parametrize(
    ("question", "line", "reply"),
    [
        (APPROVE, "y", Reply("y", "y")),
        (APPROVE, " Yes ", Reply("y", "Yes")),
        (APPROVE, "ALWAYS", Reply("a", "ALWAYS")),
        (APPROVE, "no, use pnpm", Reply(None, "no, use pnpm")),  # free text: the user's own answer
        (APPROVE, "   ", None),
        (DATABASE, "2", Reply("2", "2")),
        (DATABASE, "postgres", Reply("1", "postgres")),
        (DATABASE, "mysql", None),  # not an option, and free text is not welcome
    ],
)
def test_a_line_is_read_against_the_options(question: Question, line: str, reply: Reply | None) -> None:
    assert question.parse(line) == reply


def test_the_hint_lists_the_options() -> None:
    assert APPROVE.hint() == "y = yes · a = always · n = no · or type your answer"
    assert DATABASE.hint() == "1 = postgres · 2 = sqlite"


async def test_questions_are_asked_one_at_a_time_in_order() -> None:
    changes: list[Question | None] = []
    channel = DecisionChannel()
    channel.on_change = lambda: changes.append(channel.current)
    assert channel.answer("y") is None  # nothing asked: a line is not an answer

    first = asyncio.create_task(channel.ask(APPROVE))
    second = asyncio.create_task(channel.ask(DATABASE))
    await asyncio.sleep(0)
    assert channel.current is APPROVE  # the second waits its turn, unseen

    assert channel.answer("") is None  # an empty line answers nothing: the question stays
    assert channel.current is APPROVE
    assert channel.answer("n") == Reply("n", "n")
    assert await first == Reply("n", "n")
    await asyncio.sleep(0)
    assert channel.current is DATABASE
    assert channel.answer("sqlite") == Reply("2", "sqlite")
    assert await second == Reply("2", "sqlite")
    assert channel.current is None
    shown = [change for i, change in enumerate(changes) if i == 0 or change is not changes[i - 1]]
    assert shown == [None, APPROVE, None, DATABASE, None]  # None first: a question joined the queue


async def test_waiting_holds_every_question_not_answered_yet() -> None:
    channel = DecisionChannel()
    first = asyncio.create_task(channel.ask(APPROVE))
    second = asyncio.create_task(channel.ask(DATABASE))
    await asyncio.sleep(0)
    assert channel.waiting == (APPROVE, DATABASE)  # the one on screen and the one waiting its turn
    channel.answer("y")
    await first
    assert channel.waiting == (DATABASE,)
    second.cancel()
    await asyncio.gather(second, return_exceptions=True)
    assert channel.waiting == ()


async def test_cancelling_a_question_takes_it_off_the_screen() -> None:
    channel = DecisionChannel()
    asking = asyncio.create_task(channel.ask(APPROVE))
    waiting = asyncio.create_task(channel.ask(DATABASE))
    await asyncio.sleep(0)

    asking.cancel()  # the turn that asked was aborted
    waiting.cancel()
    await asyncio.gather(asking, waiting, return_exceptions=True)

    assert channel.current is None
    assert channel.answer("y") is None
