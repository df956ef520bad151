"""A tool call the model asked for: how progress lines summarise it."""

from decode.entities.tool_calls import ToolCall


def test_summary_shows_the_key_argument_on_one_line() -> None:
    call = ToolCall(id="1", name="bash", args={"command": "pytest -q\n  tests/"})
    assert call.summary() == "bash(pytest -q tests/)"


def test_summary_is_cut_to_width() -> None:
    call = ToolCall(id="1", name="write", args={"path": "x" * 100})
    summary = call.summary(width=10)
    assert summary == "write(xxxxxxxxx…)"


def test_summary_without_arguments() -> None:
    assert ToolCall(id="1", name="todo", args={}).summary() == "todo()"


def test_a_list_argument_is_summarised_by_its_length() -> None:
    steps = [{"content": "a", "status": "pending"}, {"content": "b", "status": "pending"}]
    assert ToolCall(id="1", name="todo_write", args={"todos": steps}).summary() == "todo_write(2 items)"
    assert ToolCall(id="1", name="todo_write", args={"todos": steps[:1]}).summary() == "todo_write(1 item)"
