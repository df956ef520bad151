"""The To-do List in the REPL: the checklist above the prompt, its versions in the transcript, on resume."""

from collections.abc import Callable
from pathlib import Path
from typing import Any

from prompt_toolkit.formatted_text import to_formatted_text

from decode.entities.todos import Todo, TodoStatus
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.todos import TodoPanel, todo_view
from decode.tui.tool_views import ToolRun

STEPS = [
    {"content": "read calc.py", "status": "completed"},
    {"content": "fix parse_range", "status": "in_progress"},
    {"content": "run the tests", "status": "pending"},
]


def test_the_panel_shows_the_list_until_every_step_is_done() -> None:
    todos: list[Todo] = []
    panel = TodoPanel(lambda: todos)
    assert panel.lines(80) == ""
    todos[:] = [Todo.model_validate(step) for step in STEPS]  # what todo_write does
    assert panel.lines(80) == "☑ read calc.py\n◼ fix parse_range\n☐ run the tests"
    assert panel.lines(16) == "☑ read calc.py\n◼ fix parse_ra…\n☐ run the tests"  # cut to the width, never wrapped
    todos[:] = [Todo(content="fix parse_range", status=TodoStatus.COMPLETED)]
    assert panel.lines(80) == ""
    assert TodoPanel().lines(80) == ""  # no conversation yet


def test_the_view_of_a_todo_write_call_is_its_checklist() -> None:
    call = ToolCall(id="c1", name="todo_write", args={"todos": STEPS})
    view = todo_view(ToolRun(call, ToolResult(call_id="c1", name="todo_write", content="ok")), None)
    assert view is not None
    assert view.outcome == "1/3 done"
    assert str(view.body) == "  │ ☑ read calc.py\n  │ ◼ fix parse_range\n  │ ☐ run the tests"


def test_a_failed_or_odd_call_gets_the_plain_line() -> None:
    call = ToolCall(id="c1", name="todo_write", args={"todos": "nonsense"})
    assert todo_view(ToolRun(call, ToolResult(call_id="c1", name="todo_write", content="ok")), None) is None
    failed = ToolResult(call_id="c1", name="todo_write", content="2 steps are in_progress", is_error=True)
    assert todo_view(ToolRun(call, failed), None) is None


def writes_todos(script: Callable[[list[dict[str, Any]]], str], then: list[dict[str, Any]]) -> str:
    return script([{"tool_calls": [{"name": "todo_write", "args": {"todos": STEPS}}]}, *then])


async def test_the_checklist_is_above_the_prompt_while_the_agent_works(start_repl, script) -> None:
    ask = {"tool_calls": [{"name": "ask_user", "args": {"question": "go on?"}}]}
    session = await start_repl(writes_todos(script, [ask, {"text": "Finished."}]))
    session.send("fix the bug")
    await session.wait_until(lambda: session.repl.questions.channel.current)  # the turn waits: look at the screen
    assert session.repl.todos.lines(80) == "☑ read calc.py\n◼ fix parse_range\n☐ run the tests"
    above = "".join(text for _, text, *_ in to_formatted_text(session.repl._message()))
    assert above.endswith("☑ read calc.py\n◼ fix parse_range\n☐ run the tests\ngo on?\nor type your answer\n❯ ")
    output = session.output()
    assert "✓ todo_write(" in output
    assert "1/3 done" in output
    assert "  │ ◼ fix parse_range" in output  # the transcript keeps this version
    session.send("yes")
    await session.wait_for("Finished.")


async def test_a_resumed_session_shows_its_list(start_repl, script, project: Path, until) -> None:
    first = await start_repl(writes_todos(script, [{"text": "Started."}]))
    first.send("fix the bug")
    await first.wait_for("Started.")
    await until(lambda: not first.repl.busy)
    first.send("/quit")
    assert await first.exit_code() == 0

    resumed = await start_repl(resume="")
    output = await resumed.wait_for("to-do list of the resumed session:")
    await resumed.warm()
    assert "☑ read calc.py\n◼ fix parse_range\n☐ run the tests" in resumed.output()
    assert resumed.repl.todos.lines(80).startswith("☑ read calc.py")
    assert output
    resumed.send("/clear")
    await until(lambda: resumed.repl.todos.lines(80) == "")  # a new conversation: no list
