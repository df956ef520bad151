"""Progress lines on stderr, made visible."""

import pytest

from decode.runtime.progress import Progress


def test_a_line_cannot_act_on_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    Progress()("title \x1b]0;owned\x07 done")
    assert "\x1b" not in capsys.readouterr().err
