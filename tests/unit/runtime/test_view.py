"""A headless turn as `decode run` shows it: commentary and tool lines on stderr, the answer on stdout,
a failed turn as the one line every front end shows."""

import pytest

from decode.agent.failures import Failure
from decode.entities.events import TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.entities.usage import Usage
from decode.harness.queue import Message
from decode.harness.runner import TurnEnded, TurnStarted
from decode.runtime.progress import Progress
from decode.runtime.view import TurnView


def test_commentary_and_tools_go_to_stderr_and_the_answer_to_stdout(capsys: pytest.CaptureFixture[str]) -> None:
    view = TurnView(Progress())
    call = ToolCall(id="c1", name="read", args={"path": "a.txt"})
    for event in [
        TurnStarted(Message("go")),
        TextDelta(text="Looking first."),
        ToolCallStarted(call=call),
        ToolCallFinished(result=ToolResult(call_id="c1", name="read", content="no such file\nmore", is_error=True)),
        TextDelta(text="42"),
        TurnFinished(output="42", usage=Usage()),
        TurnEnded("finished"),
    ]:
        view.event(event)
    out, err = capsys.readouterr()
    assert out == "42\n"
    assert err.splitlines() == ["Looking first.", "→ read(a.txt)", "  ✗ read(a.txt) (0.0s)", "    no such file"]


def test_a_failed_turn_is_its_failure_line(capsys: pytest.CaptureFixture[str]) -> None:
    line = "model request failed: HTTP 400 from gpt-x: context_length_exceeded"
    TurnView(Progress()).event(TurnEnded("failed", line, failure=Failure(line, "a model request failed")))
    assert capsys.readouterr().err == f"decode: error: {line}\n"


def test_the_to_do_list_is_drawn_whole_on_stderr_each_time_it_changes(capsys: pytest.CaptureFixture[str]) -> None:
    from decode.entities.events import TodosUpdated
    from decode.entities.todos import Todo, TodoStatus

    view = TurnView(Progress())
    view.event(TodosUpdated(todos=[Todo(content="read", status=TodoStatus.COMPLETED), Todo(content="fix")]))
    view.event(TodosUpdated(todos=[]))
    out, err = capsys.readouterr()
    assert out == ""
    assert err.splitlines() == ["  to-do list:", "    ☑ read", "    ☐ fix", "  to-do list: (empty)"]
