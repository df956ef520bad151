"""Quote removal and bracket matching on a word's raw text."""

from decode.permissions.shell_quotes import ansi_c, closing, matching, unescape, unescape_double_quoted


def test_unquoted_and_double_quoted_escapes_are_bash_s() -> None:
    assert unescape("r\\m") == "rm"
    assert unescape("a\\\nb") == "ab"
    assert unescape_double_quoted('\\$x \\" \\n') == '$x " \\n'  # `\n` is no escape inside ""


def test_ansi_c_strings_decode_or_give_up() -> None:
    assert ansi_c("\\x72m") == "rm"
    assert ansi_c("é") is None


def test_brackets_and_quotes_close_where_bash_closes_them() -> None:
    assert matching("{a,'}'}b", 0) == 6
    assert matching("$(a (b) c)", 1) == 9
    assert matching("{unclosed", 0) == len("{unclosed")
    assert closing('a\\"b"c', 0, '"') == 4
