"""The call pager (Ctrl+O): any earlier call, whole, one at a time; the keys move and scroll, q leaves."""

import asyncio
import io

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from rich.console import Console

from decode.entities.events import ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.pager import CallPager, call_page
from decode.tui.render import Renderer


def run_calls(renderer: Renderer, count: int) -> None:
    for n in range(count):
        renderer.event(ToolCallStarted(call=ToolCall(id=str(n), name="read", args={"path": f"f{n}.txt"})))
        content = "\n".join(f"line {i} of f{n}" for i in range(50))
        renderer.event(ToolCallFinished(result=ToolResult(call_id=str(n), name="read", content=content)))


def make_renderer() -> tuple[Renderer, io.StringIO]:
    file = io.StringIO()
    return Renderer(Console(file=file, width=100, color_system=None)), file


def test_every_finished_call_is_kept_for_the_pager() -> None:
    renderer, _ = make_renderer()
    run_calls(renderer, 3)
    assert [run.call.args["path"] for run in renderer.calls if run.call is not None] == ["f0.txt", "f1.txt", "f2.txt"]


def test_a_page_shows_the_call_whole() -> None:
    renderer, _ = make_renderer()
    run_calls(renderer, 1)
    lines = call_page(renderer.calls[0], 80, color_system=None)
    assert lines[0].startswith("✓ read(f0.txt)")
    assert "  path: f0.txt" in lines
    assert "  line 49 of f0" in lines


def after(keys: str) -> tuple[int, int]:
    """Open a pager on three calls of 50 lines, press `keys` (the last one leaves): (call shown, first line)."""
    renderer, _ = make_renderer()
    run_calls(renderer, 3)
    pager = CallPager(renderer.calls, color_system=None)

    async def drive() -> None:
        with create_pipe_input() as pipe:
            app = pager.application(input=pipe, output=DummyOutput())
            pipe.send_text(keys)
            await asyncio.wait_for(app.run_async(), 10)

    asyncio.run(drive())
    return pager.index, pager.top


UP, DOWN = "\x1b[A", "\x1b[B"


def test_the_keys_move_between_calls_scroll_and_leave() -> None:
    assert after("q") == (2, 0)  # it opens on the last call
    assert after("pq") == (1, 0)
    assert after(UP + UP + UP + "q") == (0, 0)  # never before the first
    assert after(UP + DOWN + DOWN + "n" + "q") == (2, 0)  # nor after the last
    assert after("pjjq") == (1, 2)  # j scrolls a line
    assert after("pjjnq") == (2, 0)  # another call starts at its top
    assert after(" q")[1] > 2  # space: a screen
    assert after(" bq") == (2, 0)
    assert after("Gkq")[1] > 0
    assert after("\x0f") == (2, 0)  # Ctrl+O again leaves too
    assert after("p" + UP + "\x1b") == (0, 0)  # Esc alone, right after an arrow's own escape sequence


def test_a_running_turn_prints_after_the_pager_closes() -> None:
    renderer, file = make_renderer()
    with renderer.held():
        renderer.notice("printed while the pager was open")
        assert "printed while" not in file.getvalue()
    assert "printed while the pager was open" in file.getvalue()


async def test_ctrl_o_before_any_call_says_so(start_repl) -> None:
    from decode.tui.pager import browse

    session = await start_repl("test")
    await browse(session.repl)
    assert "no tool call yet: ctrl+o browses them, whole, once there is one" in session.output()
    assert not session.repl.paging
