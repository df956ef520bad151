"""`SeenText`: a file's text as `read` shows it, replaced and written back with each line's ending."""

from decode.tools.line_endings import SeenText

MIXED = "one\r\ntwo\nthree\r\nfour\n"


def test_the_model_sees_newlines_only() -> None:
    seen = SeenText.of(MIXED)
    assert seen.text == "one\ntwo\nthree\nfour\n"
    assert seen.endings == ("\r\n", "\n", "\r\n", "\n")


def test_a_replacement_keeps_every_line_s_ending() -> None:
    assert SeenText.of(MIXED).replace("two\nthree", "TWO\nTHREE") == "one\r\nTWO\nTHREE\r\nfour\n"


def test_the_quote_may_carry_crlf_endings_too() -> None:
    assert SeenText.of(MIXED).replace("one\r\ntwo", "ONE\r\nTWO") == "ONE\r\nTWO\nthree\r\nfour\n"


def test_extra_lines_take_the_most_common_ending() -> None:
    assert SeenText.of("a\r\nb\r\nc\n").replace("c", "c\nd") == "a\r\nb\r\nc\r\nd\n"
    assert SeenText.of("a\nb\nc\r\n").replace("a", "a\nz") == "a\nz\nb\nc\r\n"


def test_a_tie_goes_to_the_first_line_s_ending() -> None:
    assert SeenText.of("a\r\nb\n").dominant() == "\r\n"
    assert SeenText.of("a\nb\r\n").dominant() == "\n"
    assert SeenText.of("no newline").dominant() == "\n"


def test_removed_lines_take_their_endings_with_them() -> None:
    assert SeenText.of(MIXED).replace("two\nthree\n", "") == "one\r\nfour\n"


def test_count_limits_the_replacements() -> None:
    seen = SeenText.of("x\r\nx\nx\r\n")
    assert seen.replace("x", "y", 1) == "y\r\nx\nx\r\n"
    assert seen.replace("x", "y") == "y\r\ny\ny\r\n"


def test_a_lone_carriage_return_is_text() -> None:
    seen = SeenText.of("a\rb\r\n")
    assert seen.text == "a\rb\n"
    assert seen.replace("a\rb", "ab") == "ab\r\n"
