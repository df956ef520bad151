"""Views of finished tool calls: parallel calls named, errors whole, the last call shown whole (/last, Ctrl+O)."""

import io

import pytest
from rich.console import Console

from decode.entities.events import ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.render import Renderer
from decode.tui.tool_views import ToolRun, views


def make_renderer() -> tuple[Renderer, io.StringIO]:
    file = io.StringIO()
    return Renderer(Console(file=file, width=120, color_system=None)), file


def plain(file: io.StringIO) -> list[str]:
    return [line.rstrip() for line in file.getvalue().splitlines()]


def test_parallel_calls_each_say_which_file() -> None:
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=ToolCall(id="1", name="read", args={"path": "a.txt"})))
    renderer.event(ToolCallStarted(call=ToolCall(id="2", name="read", args={"path": "b.txt"})))
    renderer.event(ToolCallFinished(result=ToolResult(call_id="2", name="read", content="gone", is_error=True)))
    renderer.event(ToolCallFinished(result=ToolResult(call_id="1", name="read", content="hello")))
    assert plain(file) == ["✗ read(b.txt) · gone · 0.0s", "✓ read(a.txt) · hello · 0.0s"]


def test_a_long_error_is_shown_whole_under_its_line() -> None:
    renderer, file = make_renderer()
    error = "b.txt does not exist. Did you mean one of these: bb.txt, bbb.txt, c.txt? Use glob to find files."
    renderer.event(ToolCallStarted(call=ToolCall(id="1", name="read", args={"path": "b.txt"})))
    renderer.event(ToolCallFinished(result=ToolResult(call_id="1", name="read", content=error, is_error=True)))
    shown = plain(file)
    assert "…" in shown[0]  # the line is cut…
    assert " ".join(line.removeprefix("  │ ") for line in shown[1:]) == error  # …what is under it is not


def test_last_shows_every_argument_and_the_whole_result() -> None:
    renderer, file = make_renderer()
    renderer.show_last()
    assert "no tool call yet" in file.getvalue()
    command = "echo " + "x" * 150 + " && touch TAIL"
    output = "exit code: 0\nstdout:\n" + "".join(f"{n}\n" for n in range(40)) + "stderr: (empty)"
    renderer.event(ToolCallStarted(call=ToolCall(id="1", name="bash", args={"command": command, "timeout": 5})))
    renderer.event(ToolCallFinished(result=ToolResult(call_id="1", name="bash", content=output)))
    before = len(plain(file))
    renderer.show_last()
    shown = plain(file)[before:]
    assert shown[0].startswith("✓ bash(echo xxx")
    assert "  timeout: 5" in shown
    joined = " ".join(shown)
    assert "touch TAIL" in joined  # the command, whole
    assert "  39" in shown
    assert "  0" in shown
    assert "  stderr: (empty)" in shown


def test_last_shows_the_whole_diff_of_an_edit() -> None:
    renderer, file = make_renderer()
    old = "".join(f"old {n}\n" for n in range(60))
    call = ToolCall(id="1", name="edit", args={"path": "a.py", "old_string": old, "new_string": "new\n"})
    renderer.event(ToolCallStarted(call=call))
    renderer.event(
        ToolCallFinished(
            result=ToolResult(call_id="1", name="edit", content="Edited a.py: replaced 1 occurrence at line 1.")
        )
    )
    assert "more lines" in file.getvalue()
    before = len(plain(file))
    renderer.show_last()
    shown = plain(file)[before:]
    assert "    60 - old 59" in shown
    assert not any("more lines" in line for line in shown)


def test_a_view_that_breaks_leaves_the_plain_line(monkeypatch: pytest.MonkeyPatch) -> None:
    def broken(run: ToolRun, limit: int | None) -> None:
        raise ValueError("a bug in a view")

    monkeypatch.setitem(views(), "read", broken)
    renderer, file = make_renderer()
    renderer.event(ToolCallStarted(call=ToolCall(id="1", name="read", args={"path": "a.txt"})))
    renderer.event(ToolCallFinished(result=ToolResult(call_id="1", name="read", content="hello")))
    assert plain(file) == ["✓ read(a.txt) · hello · 0.0s"]
