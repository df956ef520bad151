"""A running tool's output echoed under its call, at most `max_lines` lines of it."""

import pytest

from decode.entities.events import ToolOutputDelta
from decode.runtime.echo import OutputEcho
from decode.runtime.progress import Progress


def test_the_first_lines_are_echoed_indented_then_an_ellipsis(capsys: pytest.CaptureFixture[str]) -> None:
    echo = OutputEcho(Progress(), max_lines=2)
    echo(ToolOutputDelta(call_id="c1", text="one\ntwo\nthree\n"))
    echo(ToolOutputDelta(call_id="c2", text="half a line"))
    echo.end_line()
    assert capsys.readouterr().err.splitlines() == ["  │ one", "  │ two", "  │ …", "  │ half a line"]
