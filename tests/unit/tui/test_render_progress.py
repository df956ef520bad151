"""The Renderer and MCP progress: one line under the running call, replaced as it goes, gone with it."""

import io

from rich.console import Console

from decode.entities.events import ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.render import Renderer


def renderer() -> Renderer:
    return Renderer(Console(file=io.StringIO(), width=100, force_terminal=False, color_system=None))


def test_the_latest_progress_of_a_running_call_is_its_one_line() -> None:
    view = renderer()
    view.event(ToolCallStarted(call=ToolCall(id="c1", name="mcp__s__copy", args={})))
    view.under("c1", "⋯", "1/3 (33%) · copying")
    view.under("c1", "⋯", "2/3 (67%) · copying")
    view.under("other", "⋯", "9/9")  # no such running call: ignored

    assert [line for line in view.live().splitlines() if "⋯" in line] == ["  ⋯ 2/3 (67%) · copying"]

    view.event(ToolCallFinished(result=ToolResult(call_id="c1", name="mcp__s__copy", content="done")))
    assert "⋯" not in view.live()


def test_a_progress_message_cannot_drive_the_terminal() -> None:
    view = renderer()
    view.event(ToolCallStarted(call=ToolCall(id="c1", name="mcp__s__copy", args={})))
    view.under("c1", "⋯", "1/3 · \x1b]0;owned\x07")

    assert "\x1b" not in view.live()
