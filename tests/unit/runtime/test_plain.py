"""`plain()`: the answer for a pipe, with every terminal control sequence taken out whole."""

import pytest

from decode.runtime.plain import plain


@pytest.mark.parametrize(
    ("text", "expected"),
    [
        ("plain text, é 中\tand a tab\n", "plain text, é 中\tand a tab\n"),
        ("copy\x1b]52;c;cm0gLXJmIH4=\x07 this", "copy this"),  # OSC 52 ended by BEL
        ("title\x1b]0;owned\x1b\\ here", "title here"),  # OSC ended by ESC \
        ("link \x1b]8;;https://evil.example\x1b\\text\x1b]8;;\x1b\\", "link text"),  # OSC 8 hyperlink
        ("\x1b[31mred\x1b[0m \x1b[1;32mgreen\x1b[m", "red green"),  # SGR colours
        ("clear\x1b[2J\x1b[H!", "clear!"),  # erase the screen, move the cursor
        ("\x1b[?1049hscreen", "screen"),  # private CSI (alternate screen)
        ("dcs\x1bPq#0;2;0;0;0\x1b\\ done", "dcs done"),  # DCS (sixel) with its payload
        ("apc\x1b_Gpayload\x1b\\!", "apc!"),  # APC (kitty graphics)
        ("reset\x1bc now \x1b(B ok", "reset now  ok"),  # two-character and charset escapes
        ("c1 \x9b31mred\x9b0m \x9d0;t\x9c!", "c1 red !"),  # 8-bit CSI and OSC ... ST
        ("bell\x07 bs\x08\x08 del\x7f nul\x00 vt\x0b ff\x0c", "bell bs del nul vt ff"),
        ("windows\r\nline\rover", "windows\nlineover"),
        ("cut off \x1b]52;c;abc", "cut off "),  # an OSC that never ends takes the rest
        ("\u202eevil", "\u202eevil"),  # not a terminal control: bidi marks are shown text
    ],
)
def test_control_sequences_are_taken_out_case_by_case(text: str, expected: str) -> None:
    assert plain(text) == expected


def test_huge_unterminated_sequences_leave_no_escape_behind() -> None:
    # Every repeat is bounded: the rest of an overlong payload stays as inert text, without its ESC.
    for text in ("\x1b]" + "a" * 300_000, "\x1b[" + "1;" * 300_000, "\x1bP" + "\x1b" * 300_000):
        assert "\x1b" not in plain(text)
