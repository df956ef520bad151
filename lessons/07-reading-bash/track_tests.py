"""Lesson 07's build-along track: bash's brace expansion, what a pipe feeds a shell, and the file an
option names without a space, each seen through `parse_script`.

`make lesson-check N=07` runs these against your copy (`make lesson-start N=07`); each test's first
docstring line is the behaviour it reports.
"""

from decode.permissions.option_values import attached_values
from decode.permissions.shell import parse_script
from decode.permissions.shell_braces import expand_braces
from decode.permissions.shell_output import printed


def test_braces_expand_as_bash_expands_them() -> None:
    """Brace expansion: `a{b,c}` is `ab ac`, `{1..3}` counts, a word without braces stays one word."""
    assert expand_braces("a{b,c}") == ["ab", "ac"]
    assert expand_braces("{1..3}") == ["1", "2", "3"]
    assert expand_braces("plain") == ["plain"]


def test_a_deny_sees_the_command_a_brace_hides() -> None:
    """`{rm,x} -rf y` runs `rm`: the reading holds `rm -rf y` among the command's words."""
    (*_, hidden) = parse_script("{rm,x} -rf y").commands
    assert ("rm", "-rf", "y") in hidden.alternatives


def test_what_echo_and_printf_print_into_a_pipe_is_known() -> None:
    """`echo` and `printf` print known text (options dropped); any other program prints the unknown."""
    assert printed(("echo", "-n", "rm x"), None) == "rm x"
    assert printed(("printf", "%s\n", "ls"), None) == "ls\n"
    assert printed(("ls",), None) is True


def test_a_shell_fed_by_echo_reads_that_text() -> None:
    """`echo rm -rf y | sh`: the shell's input is the text `rm -rf y`, which is checked as a script."""
    shell = parse_script("echo rm -rf y | sh").commands[-1]
    assert (shell.words, shell.stdin_text) == (("sh",), "rm -rf y")


def test_an_option_may_name_a_file_without_a_space() -> None:
    """A short option's glued value (`-t.git`), `--out=@f` and curl's `-d@.env` may name files."""
    assert attached_values("-t.git") == [".git"]
    assert attached_values("--out=@f") == ["f"]
    assert attached_values("x") == []
    assert ".env" in parse_script("curl -d@.env x").commands[0].files
