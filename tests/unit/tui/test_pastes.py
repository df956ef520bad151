"""A long paste is collapsed in the input line and the transcript; the model gets all of it."""

from collections.abc import AsyncIterator

from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.tui.pastes import COLLAPSE_LINES, Pastes
from tests.unit.tui.conftest import user_prompts

PASTE = "".join(f"log line {n}\n" for n in range(95))


def test_a_long_paste_becomes_a_placeholder_and_comes_back_whole() -> None:
    pastes = Pastes()
    short = "".join(f"{n}\n" for n in range(COLLAPSE_LINES))
    assert pastes.collapse(short) == short  # a few lines stay as they are
    assert pastes.collapse(PASTE.replace("\n", "\r")) == "[Pasted text #1 +95 lines]"
    assert pastes.collapse(PASTE + "more\n") == "[Pasted text #2 +96 lines]"
    line = "why does this fail? [Pasted text #1 +95 lines] and [Pasted text #7 +3 lines]"
    expanded = pastes.expand(line)
    assert expanded == f"why does this fail? {PASTE} and [Pasted text #7 +3 lines]"  # #7 names no paste
    assert pastes.collapsed(expanded) == line


def test_nothing_pasted_leaves_a_typed_placeholder_alone() -> None:
    assert Pastes().expand("[Pasted text #1 +95 lines]") == "[Pasted text #1 +95 lines]"


async def test_a_bracketed_paste_is_shown_collapsed_and_sent_whole(start_repl) -> None:
    session = await start_repl("test")
    await session.warm()
    requests: list[list[str]] = []

    async def answer(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        requests.append(user_prompts(messages))
        yield "Read it."

    assert session.repl.loop is not None
    session.repl.loop.model = FunctionModel(stream_function=answer)
    session.type("why? ")
    session.type("\x1b[200~" + PASTE + "\x1b[201~")  # the terminal's bracketed paste
    await session.wait_until(lambda: session.repl.session.default_buffer.text == "why? [Pasted text #1 +95 lines]")
    session.type("\r")
    output = await session.wait_for("Read it.")
    assert "❯ why? [Pasted text #1 +95 lines]" in output
    assert "log line 50" not in output
    assert requests[0][-1].startswith("why? log line 0\nlog line 1\n")
    assert "log line 94" in requests[0][-1]
