from decode.entities.tools import ToolCall


def test_summary_shows_the_key_argument_on_one_line() -> None:
    call = ToolCall(id="1", name="bash", args={"command": "pytest -q\n  tests/"})
    assert call.summary() == "bash(pytest -q tests/)"


def test_summary_is_cut_to_width() -> None:
    call = ToolCall(id="1", name="write", args={"path": "x" * 100})
    summary = call.summary(width=10)
    assert summary == "write(xxxxxxxxx…)"


def test_summary_without_arguments() -> None:
    assert ToolCall(id="1", name="todo", args={}).summary() == "todo()"
