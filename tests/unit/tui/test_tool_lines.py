"""One compact line per tool call: mark, tool and argument, outcome, time."""

import pytest

from decode.entities.tool_calls import ToolResult
from decode.tui.tool_lines import format_duration, outcome, tool_line


@pytest.mark.parametrize(
    ("content", "is_error", "expected"),
    [
        ("", False, "no output"),
        ("42", False, "42"),
        ("a\nb\n\nc", False, "3 lines"),
        ("x" * 200, False, "x" * 59 + "…"),
        ("", True, "failed"),
    ],
)
def test_outcome(content: str, is_error: bool, expected: str) -> None:
    assert outcome(ToolResult(call_id="c", name="t", content=content, is_error=is_error)) == expected


def test_format_duration() -> None:
    assert [format_duration(s) for s in (0.04, 12.0, 125.0)] == ["0.0s", "12.0s", "2m05s"]


def test_tool_line_without_its_call_names_the_tool() -> None:
    line = tool_line(None, ToolResult(call_id="x", name="glob", content="a.py"))
    assert line.plain == "✓ glob() · a.py · 0.0s"
