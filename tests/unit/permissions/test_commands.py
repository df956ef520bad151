"""What a command really runs: wrappers, shells, eval, xargs and find -exec."""

import shlex

from decode.permissions.commands import analyse_command


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
