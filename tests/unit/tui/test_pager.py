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


def test_the_keys_move_between_calls_scroll_and_leave() -> None:
    renderer, _ = make_renderer()
    run_calls(renderer, 3)
    pager = CallPager(renderer.calls, color_system=None)
    assert pager.index == 2  # it opens on the last call
    seen: list[tuple[int, int]] = []

    async def drive() -> None:
        with create_pipe_input() as pipe:
            app = pager.application(input=pipe, output=DummyOutput())
            task = asyncio.ensure_future(app.run_async())
            for key in ("p", "\x1b[A", "\x1b[A", "j", "j", "n", " ", "q"):  # p, up, up (stays), j, j, n, space, q
                pipe.send_text(key)
                await asyncio.sleep(0)
                while app.is_running and not app.is_done and app.key_processor.input_queue:
                    await asyncio.sleep(0.01)
                await asyncio.sleep(0.02)
                seen.append((pager.index, pager.top))
            await asyncio.wait_for(task, 5)

    asyncio.run(drive())
    indexes = [index for index, _ in seen]
    assert indexes[:3] == [1, 0, 0]
    assert seen[4] == (0, 2)  # two lines down
    assert seen[5] == (1, 0)  # the next call, from its top
    assert seen[6][1] > 0  # space: a screen down


def test_a_running_turn_prints_after_the_pager_closes() -> None:
    renderer, file = make_renderer()
    with renderer.held():
        renderer.notice("printed while the pager was open")
        assert "printed while" not in file.getvalue()
    assert "printed while the pager was open" in file.getvalue()
