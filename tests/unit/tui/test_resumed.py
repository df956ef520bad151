"""A resumed session shows its earlier turns as they were shown: tool lines too, an interruption as one."""

import io

from pydantic_ai.messages import (
    ModelRequest,
    ModelResponse,
    RetryPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from rich.console import Console

from decode.harness.abort import close_interrupted_turn
from decode.tui.render import Renderer
from decode.tui.resumed import is_interrupt_note, show_turns, turns_shown

PASSED = "exit code: 0\nstdout:\n..\n2 passed in 0.01s\nstderr: (empty)"


def history() -> list:
    first = [
        ModelRequest(parts=[UserPromptPart("run the tests")]),
        ModelResponse(parts=[TextPart("Running them."), ToolCallPart("bash", {"command": "pytest -q"}, "c1")]),
        ModelRequest(parts=[ToolReturnPart("bash", PASSED, "c1")]),
        ModelResponse(parts=[ToolCallPart("read", {"path": "nope.py"}, "c2")]),
        ModelRequest(parts=[RetryPromptPart("nope.py does not exist", tool_name="read", tool_call_id="c2")]),
        ModelResponse(parts=[TextPart("Both pass.")]),
    ]
    second = [
        ModelRequest(parts=[UserPromptPart("now the slow ones")]),
        ModelResponse(parts=[ToolCallPart("bash", {"command": "sleep 100"}, "c3")]),
    ]
    return [*first, *close_interrupted_turn(second)]  # stopped while the command ran, as the REPL keeps it


def shown(turns: list) -> list[str]:
    file = io.StringIO()
    show_turns(Renderer(Console(file=file, width=120, color_system=None)), turns)
    return [line.rstrip() for line in file.getvalue().splitlines() if line.strip()]


def test_a_resumed_turn_shows_its_tool_lines_in_order() -> None:
    turns, compacted = turns_shown(history())
    assert not compacted
    lines = shown(turns)
    assert lines[:5] == [
        "❯ run the tests",
        "Running them.",
        "✓ bash(pytest -q) · exit 0 · 2 lines",  # the view the live REPL used, without a time
        "  │ ..",
        "  │ 2 passed in 0.01s",
    ]
    assert lines[5] == "✗ read(nope.py) · nope.py does not exist"  # the model was asked to retry: ✗
    assert "Both pass." in lines


def test_an_interrupted_turn_is_not_shown_as_a_prompt() -> None:
    turns, _ = turns_shown(history())
    assert [turn.prompt for turn in turns] == ["run the tests", "now the slow ones"]
    assert turns[1].interrupted
    lines = shown(turns)
    assert "❯ [The user interrupted this turn.]" not in lines
    assert lines[-1] == "interrupted"
    assert any(line.startswith("✗ bash(sleep 100) · Interrupted by the user") for line in lines)


def test_the_notes_of_a_stopped_turn_are_known() -> None:
    assert is_interrupt_note("[The user interrupted this turn.]")
    assert is_interrupt_note("[decode was stopped (SIGTERM) before this turn finished.]")
    assert not is_interrupt_note("[decode was stopped (SIGTERM) before this turn finished.] and then")
