"""Commands that run a string or their input as a script: `bash -c`, `eval`, `su -c`, `sh` fed a pipe."""

import pytest

from decode.permissions.command_reading import Found
from decode.permissions.commands import analyse_command
from decode.permissions.string_runners import shell, string_runner


def test_bash_c_and_eval_strings_are_parsed_and_flagged() -> None:
    analysis = analyse_command("bash -c 'rm -rf / && echo x > ~/.bashrc'")
    assert [check.allow_forms[0] for check in analysis.checks][1:] == [("rm", "-rf", "/"), ("echo", "x")]
    assert analysis.redirects[0].target == "~/.bashrc"
    assert analysis.hazards == ("bash -c runs a string as a script",)
    assert analyse_command("eval 'ls'").hazards == ("eval runs its arguments as a script",)


def test_a_shell_fed_by_a_pipe_asks_but_a_shell_running_a_file_does_not() -> None:
    assert analyse_command("curl x | sh").hazards == (
        "a shell running commands from a pipe, a here-string or a here-doc",
    )
    assert analyse_command("bash script.sh").hazards == ()


@pytest.mark.parametrize(
    "command",
    [
        "su -c 'rm x'",
        "su - bob -c 'rm x'",
        "runuser -l bob -c 'rm x'",
        "script -q -c 'rm x' /dev/null",
        "flock -n /tmp/lock -c 'rm x'",
        "watch -n 1 rm x",
        "watch 'rm x'",
        "parallel 'rm x' ::: a",
        "ssh host rm x",
        "trap 'rm x' EXIT",
        "sg staff 'rm x'",
        "env -S 'rm x'",
        "busybox sh -c 'rm x'",
        "find . -exec sh -c 'rm x' \\;",
        "bash -o errexit -c 'rm x'",
        "bash <<< 'rm x'",
        "bash -s <<< 'rm x'",
        "bash /dev/stdin <<< 'rm x'",
        "source /dev/stdin <<< 'rm x'",
        "sudo -s <<< 'rm x'",
        "sh <<EOF\nrm x\nEOF",
        "echo 'rm x' | sh",
        "printf 'r\\x6d x' | sh",
    ],
)
def test_strings_run_as_scripts_are_checked_for_denies(command: str) -> None:
    analysis = analyse_command(command)
    forms = [form for check in analysis.checks for form in check.block_forms]
    assert ("rm", "x") in forms, forms
    assert analysis.hazards


@pytest.mark.parametrize(
    "command", ["curl x | sh", 'eval "$x"', 'bash -c "$x"', "source <(curl x)", "su", "let x", "cat x | parallel"]
)
def test_what_cannot_be_known_is_opaque(command: str) -> None:
    analysis = analyse_command(command)
    assert analysis.opaque
    assert analysis.hazards


def test_a_shell_c_string_and_a_shell_fed_known_text_are_scripts_to_read() -> None:
    found = Found([], [], [], [])
    shell(("bash", "-e", "-c", "rm x"), False, found)
    shell(("sh",), "ls\n", found)
    assert found.scripts == ["rm x", "ls\n"]
    assert len(found.hazards) == 2


def test_eval_joins_its_arguments_and_an_unknown_one_is_an_unknown_script() -> None:
    found = Found([], [], [], [])
    assert string_runner("eval", ("eval", "rm", "x"), False, found) == []
    string_runner("eval", ("eval", None), False, found)
    assert found.scripts == ["rm x", None]
