"""What a command really runs: wrappers, shells, eval, xargs and find -exec."""

import shlex

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
