"""What a command really runs: wrappers, shells, eval, xargs and find -exec."""

import shlex

import pytest

from decode.permissions.commands import analyse_command


def test_a_transparent_wrapper_is_judged_as_the_command_it_wraps() -> None:
    (check,) = analyse_command("timeout 5 nice -n 2 npm test").checks
    assert ("npm", "test") in check.allow_forms
    assert ("npm", "test") in check.block_forms


def test_sudo_is_seen_through_for_denies_but_must_be_named_to_allow() -> None:
    (check,) = analyse_command("sudo -u root /bin/rm -rf /").checks
    assert check.allow_forms == (("sudo", "-u", "root", "/bin/rm", "-rf", "/"),)
    assert ("rm", "-rf", "/") in check.block_forms


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


def test_xargs_runs_its_command_with_words_read_at_run_time() -> None:
    xargs = analyse_command("ls | xargs -n 1 wc -l").checks[1]
    assert ("wc", "-l", None) in xargs.allow_forms
    assert ("wc", "-l") in xargs.block_forms


def test_find_exec_is_a_second_command_and_delete_asks() -> None:
    analysis = analyse_command("find . -name '*.o' -exec rm {} ;")
    assert [check.allow_forms for check in analysis.checks][1] == (("rm", None),)
    assert analyse_command("find . -delete").hazards == ("find -delete removes files",)


def test_variables_set_for_a_command_ask() -> None:
    assert analyse_command("LD_PRELOAD=x.so ls").hazards
    assert analyse_command("env PATH=/tmp ls").hazards
    assert analyse_command("env ls").hazards == ()


def test_nesting_has_a_limit() -> None:
    script = "ls"
    for _ in range(8):
        script = f"bash -c {shlex.quote(script)}"
    assert "scripts nested too deep to follow" in analyse_command(script).hazards


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


def test_an_option_the_table_does_not_know_is_read_both_ways_and_allows_nothing() -> None:
    (check,) = analyse_command("timeout --new-flag 5 npm test").checks
    assert ("npm", "test") in check.block_forms
    assert check.allow_forms == (("timeout", "--new-flag", "5", "npm", "test"),)


def test_command_v_runs_nothing_and_find_writes_ask() -> None:
    (check,) = analyse_command("command -v rm").checks
    assert check.block_forms == (("command", "-v", "rm"),)
    assert analyse_command("find . -fprint out.txt").hazards == ("find -fprint writes a file",)


def test_a_name_only_known_at_run_time_is_a_hazard_even_inside_a_wrapper() -> None:
    assert "the command's name is only known at run time" in analyse_command("r* x").hazards
    assert "the command's name is only known at run time" in analyse_command("sudo $CMD x").hazards
    assert "the command's name is only known at run time" in analyse_command("{ls,-la}").hazards


def test_a_runner_behind_global_options_is_still_unwrapped() -> None:
    # `uv --directory x run CMD` is `uv run CMD`, which runs CMD (issue 25).
    (check,) = analyse_command("uv --directory x run rm -rf /").checks
    assert ("rm", "-rf", "/") in check.block_forms
    assert check.allow_forms == (("uv", "--directory", "x", "run", "rm", "-rf", "/"),)


def test_a_foreign_shell_string_is_a_hazard_behind_wrappers_too() -> None:
    analysis = analyse_command("sudo -u x env pwsh -NoProfile -c 'Remove-Item x'")
    assert analysis.hazards == ("a shell whose language decode does not parse runs a string (pwsh)",)
    assert analysis.opaque
