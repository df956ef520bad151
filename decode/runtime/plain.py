"""The answer for a pipe or a file: text with no terminal control sequence left in it.

`decode run "…" > answer.txt` and `decode run "…" | tee log` send the model's answer somewhere that
a terminal may read later (`cat answer.txt`, the `tee`'s own terminal). A model told to by a prompt
injection can write `ESC ] 52 ; c ; …BEL` (set the clipboard), `ESC ] 0 ; … BEL` (retitle the
window) or `ESC [ 2 J` (clear the screen); such bytes would act when that terminal shows them.

On a terminal, `decode run` shows them as pictures (`decode.visible`). On a pipe, `plain()` takes
them out whole, payload included, as a reader of the text wants: every escape sequence (CSI, OSC,
DCS and the other string sequences, two-character escapes), their 8-bit C1 forms, and every other
control character but newline and tab. `\\r\\n` becomes `\\n`. `decode run --raw` writes the answer
as the model wrote it (to a pipe or a file only: a terminal still gets `visible()`).

It also takes out the invisible characters that change what a reader sees without showing
themselves: the bidirectional controls (U+202E turns `txt.exe` around, "Trojan Source"), the
zero-width space, word joiner, invisible operators and byte-order mark, and the tag characters (U+E0000…, which spell
ASCII no one sees: a hidden prompt for the next model that reads the file). The zero-width
joiner and non-joiner stay: emoji sequences (👩‍💻) and Persian or Indic spelling need them, and
they reorder or hide nothing. (Tag characters also draw regional flags such as 🏴 England's: those
become a plain black flag.)
"""

import re

_SEQUENCE = re.compile(
    # CSI: ESC [ or its C1 form, parameter and intermediate bytes, one final byte (bounded repeats).
    r"(?:\x1b\[|\x9b)[\x30-\x3f]{0,256}[\x20-\x2f]{0,16}[\x40-\x7e]?"
    # OSC, DCS, SOS, PM, APC: up to BEL or the string terminator (ESC \ or ST), or to the end.
    r"|(?:\x1b[\]PX^_]|[\x90\x98\x9d\x9e\x9f])[^\x07\x1b\x9c]{0,65536}(?:\x07|\x1b\\|\x9c)?"
    # Any other escape: ESC, intermediates, one final byte (`ESC c` resets the terminal, `ESC ( B`…).
    r"|\x1b[\x20-\x2f]{0,16}[\x30-\x7e]?"
)
_CONTROL = re.compile(
    "[\x00-\x08\x0b-\x1f\x7f-\x9f"  # C0 controls but tab and newline, DEL, C1 controls
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"  # bidi marks, embeddings, overrides, isolates
    "\u200b\u2060-\u2064\ufeff\U000e0000-\U000e007f]"  # zero-width space, word joiner, invisible operators, BOM, tags
)
"""What is left after the sequences: control characters and the invisible format characters."""


def plain(text: str) -> str:
    """`text` without terminal control sequences, control or invisible characters (newline and tab stay)."""
    if text.isprintable():  # the common case, checked in C
        return text
    return _CONTROL.sub("", _SEQUENCE.sub("", text.replace("\r\n", "\n")))
