"""A run for programs: its progress keeps `-q` to warnings and errors, and keeps the first error."""

import pytest

from decode.runtime.formatted_run import FormattedProgress


def test_quiet_keeps_only_warnings_and_errors_and_the_first_error_is_kept(capsys: pytest.CaptureFixture[str]) -> None:
    progress = FormattedProgress(quiet=True)
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
