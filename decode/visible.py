"""Text decode did not write, made safe for a terminal: every control character shown, none obeyed.

Model text, tool output, file names and error messages can hold escape sequences: `ESC ] 52 ;…`
sets the clipboard, `ESC ] 0 ;…` retitles the window, `\\r` and backspaces overwrite what a line
seemed to say, and bidirectional overrides reorder it. Front ends pass such text through `visible()`
before it reaches the terminal, so only decode's own styling is ever interpreted there.

Each control character except newline and tab becomes one visible character: its Unicode
"control picture" (`ESC` is `␛`, `BEL` is `␇`, `CR` is `␍`), or `�` for C1 controls and
bidirectional controls (overrides, embeddings, isolates and marks) and lone surrogates, which no
terminal can be sent (tool results spell them `\\xNN` before they get here). The text stays readable,
keeps its length (so styles laid over it stay put), and nothing in it acts. `\r\n` line endings
become `\n` first. Zero-width characters are left as they are: they neither act nor reorder, and
emoji need the joiner.
"""

import re

# C0 controls but \t and \n, DEL, C1 controls, and every bidirectional control: the embeddings,
# overrides and isolates, and the marks (LRM, RLM, ALM) that also move neutral characters around.
# Lone surrogates too: no terminal can be sent one (a name that is not UTF-8, `escaped_bytes.py`).
_CONTROLS = re.compile("[\x00-\x08\x0b-\x1f\x7f-\x9f\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069\ud800-\udfff]")


def _picture(match: re.Match[str]) -> str:
    code = ord(match.group())
    if code < 0x20:
        return chr(0x2400 + code)  # ␀ … ␟
    if code == 0x7F:
        return "\u2421"  # ␡
    return "\ufffd"  # C1 controls, bidi overrides and lone surrogates have no picture: �


def visible(text: str) -> str:
    """`text` with every control character but newline and tab made visible (see the module docstring)."""
    if text.isprintable():  # the common case, checked in C
        return text
    return _CONTROLS.sub(_picture, text.replace("\r\n", "\n"))
