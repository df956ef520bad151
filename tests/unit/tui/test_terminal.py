"""Rich output above a running prompt: `AboveThePrompt` and `route_logging`."""

import asyncio
import io
import logging

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

from decode.tui.terminal import AboveThePrompt, route_logging, terminal_console
from tests.unit.tui.conftest import Until


class Screen(io.StringIO):
    """A terminal stand-in that records what was written, and says it is a terminal."""

    def isatty(self) -> bool:
        return True


def test_with_no_prompt_running_text_is_written_through_on_flush() -> None:
    screen = Screen()
    file = AboveThePrompt(screen)
    file.write("hello ")
    assert screen.getvalue() == ""  # held until the flush: one print, one piece
    file.write("world\n")
    file.flush()
    assert screen.getvalue() == "hello world\n"


async def test_while_a_prompt_runs_each_print_goes_above_it_in_order(until: Until) -> None:
    screen = Screen()
    console = terminal_console(screen)
    with create_pipe_input() as keyboard:
        prompt = PromptSession(input=keyboard, output=DummyOutput())
        line = asyncio.ensure_future(prompt.prompt_async("❯ "))
        await until(lambda: prompt.app.is_running)
        for n in range(3):
            console.print(f"line {n}")
        assert screen.getvalue() == ""  # scheduled through run_in_terminal, not written yet
        await until(lambda: screen.getvalue().count("\n") == 3)
        keyboard.send_text("done\r")
        async with asyncio.timeout(10):
            assert await line == "done"
    assert [text.rstrip() for text in screen.getvalue().splitlines()] == ["line 0", "line 1", "line 2"]


def test_the_console_takes_colours_from_the_terminal(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.delenv("FORCE_COLOR", raising=False)  # Rich honours it: colours even into a file
    assert terminal_console(Screen()).is_terminal
    assert not terminal_console(io.StringIO()).is_terminal


def test_route_logging_sends_decodes_log_lines_to_the_stream_and_puts_them_back() -> None:
    logger = logging.getLogger("decode")
    handler = logging.StreamHandler(io.StringIO())
    logger.addHandler(handler)
    try:
        above = io.StringIO()
        with route_logging(above):
            logging.getLogger("decode.tui.test").warning("careful")
        assert "careful" in above.getvalue()
        logging.getLogger("decode.tui.test").warning("after")
        assert "after" not in above.getvalue()
        assert "after" in handler.stream.getvalue()
    finally:
        logger.removeHandler(handler)
