"""What `echo` and `printf` print into a pipe, near enough to find the commands in it."""

from decode.permissions.shell_output import printed, printf


def test_printf_fills_each_directive_and_repeats_the_format() -> None:
    assert printf(("%s %s\n", "rm", "-rf")) == "rm -rf\n"
    assert printf(("%s;", "a", "b")) == "a;b;"
    assert printf(("--", "100%%")) == "100%"


def test_echo_printf_and_cat_of_known_input_print_known_text() -> None:
    assert printed(("echo", "-n", "rm", "x"), None) == "rm x"
    assert printed(("printf", "%s", "rm"), None) == "rm"
    assert printed(("cat",), "rm x\n") == "rm x\n"


def test_anything_else_prints_something_unknown() -> None:
    assert printed(("ls",), None) is True
    assert printed(("echo", None), None) is True
    assert printed(("cat",), None) is True
