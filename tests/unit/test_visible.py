"""`visible()`: text decode did not write cannot act on the terminal."""

import pytest

from decode.visible import visible

ATTACKS = {
    "clipboard (OSC 52, BEL)": "\x1b]52;c;cm0gLXJmIH4=\x07",
    "clipboard (OSC 52, ST)": "\x1b]52;c;cm0gLXJmIH4=\x1b\\",
    "window title": "\x1b]0;owned\x07",
    "colour and cursor (CSI)": "\x1b[2J\x1b[31mred\x1b[H",
    "8-bit CSI": "\x9b2J",
    "carriage return overwrite": "rm -rf /\rls -l    ",
    "backspaces": "evil\x08\x08\x08\x08good",
    "bell": "ding\x07",
    "bidi override": "file\u202egnp.exe",
    "bidi isolate": "x\u2067y\u2069",
    "bidi marks": "a\u200eb\u200fc\u061cd",
    "NUL and DEL": "a\x00b\x7f",
}


BIDI_CONTROLS = "\u061c\u200e\u200f\u202a\u202b\u202c\u202d\u202e\u2066\u2067\u2068\u2069"
"""Every Unicode bidirectional control (UAX #9): each reorders what a terminal shows."""


@pytest.mark.parametrize("text", ATTACKS.values(), ids=ATTACKS.keys())
def test_no_control_character_survives(text: str) -> None:
    shown = visible(text)
    assert all(char in "\n\t" or (char.isprintable() and char not in BIDI_CONTROLS) for char in shown)
    assert len(shown) == len(text)  # one visible character for each: styles laid over it stay put


def test_escape_sequences_stay_readable() -> None:
    assert visible("\x1b]0;owned\x07") == "␛]0;owned␇"
    assert visible("over\rwrite") == "over␍write"


def test_ordinary_text_newlines_tabs_and_unicode_are_unchanged() -> None:
    text = "def f():\n\treturn 'héllo ✓ 日本'\n"
    assert visible(text) is text


def test_windows_line_endings_become_newlines() -> None:
    assert visible("one\r\ntwo\r\n") == "one\ntwo\n"


@pytest.mark.parametrize("char", BIDI_CONTROLS)
def test_every_bidi_control_is_shown_not_obeyed(char: str) -> None:
    assert visible(f"file{char}gnp.exe") == "file\ufffdgnp.exe"


def test_zero_width_joiners_stay_so_emoji_stay_whole() -> None:
    assert visible("coder \U0001f469\u200d\U0001f4bb\n") == "coder \U0001f469\u200d\U0001f4bb\n"


def test_a_lone_surrogate_never_reaches_the_terminal() -> None:
    shown = visible("caf\udce9.txt")  # a name that is not UTF-8, as Python hands it over
    assert shown == "caf\ufffd.txt"  # one character for one: styles laid over it stay put
    shown.encode("utf-8")
