"""Wrappers: the command `timeout`, `sudo`, `uv run`… run, read through options the table may not know."""

import pytest

from decode.permissions.command_reading import Found
from decode.permissions.commands import analyse_command
from decode.permissions.wrappers import WRAPPERS, wrapped


def test_a_transparent_wrapper_is_judged_as_the_command_it_wraps() -> None:
    (check,) = analyse_command("timeout 5 nice -n 2 npm test").checks
    assert ("npm", "test") in check.allow_forms
    assert ("npm", "test") in check.block_forms


def test_sudo_is_seen_through_for_denies_but_must_be_named_to_allow() -> None:
    (check,) = analyse_command("sudo -u root /bin/rm -rf /").checks
    assert check.allow_forms == (("sudo", "-u", "root", "/bin/rm", "-rf", "/"),)
    assert ("rm", "-rf", "/") in check.block_forms


@pytest.mark.parametrize(
    "command",
    [
        "sudo --user=root rm x",
        "sudo -u root -- rm x",
        "sudo -E -H rm x",
        "sudo --preserve-env=PATH rm x",
        "doas -u root rm x",
        "xargs --max-args=1 rm x",
        "xargs -I{} rm x",
        "xargs -i rm x",
        "setsid -f rm x",
        "ionice -c 3 rm x",
        "taskset 0x1 rm x",
        "taskset -c 0 rm x",
        "flock /tmp/lock rm x",
        "strace -f -e trace=file rm x",
        "ltrace -o /dev/null rm x",
        "chronic rm x",
        "runuser -u bob -- rm x",
        "unshare -r --mount rm x",
        "watch -x rm x",
        "busybox rm x",
        "nice -10 rm x",
        "nice --adjustment=5 rm x",
        "timeout --signal=TERM -k 1 5 rm x",
        "env -i -u HOME --chdir=/tmp rm x",
        "command -p rm x",
        "exec -a name rm x",
        "stdbuf -oL rm x",
        "coproc rm x",
        "time -p rm x",
        "chroot / rm x",
        "uv run rm x",
        "poetry run rm x",
        "nohup nice sudo rm x",
        "sud? rm x",
        "sudo --an-option-nobody-knows rm x",
    ],
)
def test_every_wrapper_is_seen_through_for_denies(command: str) -> None:
    analysis = analyse_command(command)
    forms = [form for check in analysis.checks for form in check.block_forms]
    assert any(form[:2] == ("rm", "x") for form in forms), forms


def test_an_option_the_table_does_not_know_is_read_both_ways_and_allows_nothing() -> None:
    (check,) = analyse_command("timeout --new-flag 5 npm test").checks
    assert ("npm", "test") in check.block_forms
    assert check.allow_forms == (("timeout", "--new-flag", "5", "npm", "test"),)


def test_wrapped_reads_an_unknown_option_both_ways() -> None:
    found = Found([], [], [], [])
    assert wrapped(("timeout", "--new", "5", "ls"), WRAPPERS["timeout"], "timeout", found) == [("ls",), ()]
    assert wrapped(("nice", "-n", "2", "ls"), WRAPPERS["nice"], "nice", found) == [("ls",)]
    assert found.hazards == []


def test_env_assignments_are_a_hazard_and_an_environment_name_an_unknown_script() -> None:
    found = Found([], [], [], [])
    assert wrapped(("env", "LD_PRELOAD=x", "ls"), WRAPPERS["env"], "env", found) == [("ls",)]
    assert found.hazards
    assert found.scripts == [None]
