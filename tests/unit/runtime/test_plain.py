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
        ("file\u202egnp.exe", "filegnp.exe"),  # bidi override ("Trojan Source"): it would reverse the rest
        ("a\u202ab\u202bc\u202cd\u202de", "abcde"),  # embeddings, overrides, their end
        ("a\u2066b\u2067c\u2068d\u2069e", "abcde"),  # isolates
        ("a\u200eb\u200fc\u061cd", "abcd"),  # the marks LRM, RLM, ALM
        ("ev\u200bil \ufeffbom \u2060wj", "evil bom wj"),  # zero-width space, byte-order mark, word joiner
        ("ok\U000e0069\U000e0067\U000e006e\U000e006f\U000e0072\U000e0065", "ok"),  # tags spelling "ignore"
        (
            "\U0001f469\u200d\U0001f4bb \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
            "\U0001f469\u200d\U0001f4bb \u0645\u06cc\u200c\u062e\u0648\u0627\u0647\u0645",
        ),  # ZWJ, ZWNJ stay
    ],
)
def test_control_sequences_are_taken_out_case_by_case(text: str, expected: str) -> None:
    assert plain(text) == expected


def test_huge_unterminated_sequences_leave_no_escape_behind() -> None:
    # Every repeat is bounded: the rest of an overlong payload stays as inert text, without its ESC.
    for text in ("\x1b]" + "a" * 300_000, "\x1b[" + "1;" * 300_000, "\x1bP" + "\x1b" * 300_000):
        assert "\x1b" not in plain(text)
