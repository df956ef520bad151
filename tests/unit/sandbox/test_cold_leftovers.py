"""The cold sandbox's report of what its command left: the argv around the command, the report file."""

from pathlib import Path

import pytest

from decode.sandbox.cold_leftovers import WRAPPER, LeftReport, left_report

ARGS = ["bwrap", "--ro-bind", "/", "/", "--unshare-pid", "--chdir", "/w", "--", "bash", "-c", "echo -- x"]


def test_the_report_is_bound_in_and_the_command_runs_under_the_shell() -> None:
    report = LeftReport(Path("/tmp/decode-left-x"))
    assert report.argv(ARGS) == [
        *ARGS[:7],
        *("--bind", "/tmp/decode-left-x", "/tmp/decode-left-x"),
        "--",
        *("/bin/sh", "-c", WRAPPER, "sh", "/tmp/decode-left-x"),
        *("bash", "-c", "echo -- x"),  # the command's own `--` untouched
    ]


def test_without_a_pid_namespace_of_its_own_the_shell_is_never_used() -> None:
    # `kill -9 -1` outside one would reach every process the user may signal.
    with pytest.raises(ValueError, match="pid namespace"):
        LeftReport(Path("/tmp/r")).argv(["bwrap", "--", "bash", "-c", "--unshare-pid"])


def test_the_report_file_says_whether_something_was_left_and_is_removed() -> None:
    with left_report() as report:
        assert report.path.exists()
        assert not report.left()
        report.path.write_text("L\n")
        assert report.left()
    assert not report.path.exists()
    assert not report.left()  # gone: nothing to say
