"""Progress lines on stderr: made visible, `-q` keeps warnings and errors, the first error kept."""

import pytest

from decode.runtime.progress import Progress


def test_quiet_keeps_only_warnings_and_errors_and_the_first_error_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    progress = Progress()
    progress.quiet = True
    progress("→ read(a.txt)")
    progress.warning("careful")
    progress.error("first")
    progress.error("second")
    assert capsys.readouterr().err.splitlines() == [
        "decode: warning: careful",
        "decode: error: first",
        "decode: error: second",
    ]
    assert progress.first_error == "first"


def test_a_line_cannot_act_on_the_terminal(capsys: pytest.CaptureFixture[str]) -> None:
    Progress()("title \x1b]0;owned\x07 done")
    assert "\x1b" not in capsys.readouterr().err
