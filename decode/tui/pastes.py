"""Long pastes, collapsed: `[Pasted text #1 +95 lines]` in the input line and the transcript.

A terminal tells decode what was pasted, as one piece (bracketed paste). A paste of more than
`COLLAPSE_LINES` lines would fill the input line and, once sent, the transcript; instead the
input line gets a short placeholder, and the text itself is kept here. When the line is sent,
`expand()` puts every placeholder's text back: the model gets the whole paste, the transcript's
echo of the prompt shows the placeholder again (`collapsed()`), and so does a message handed back
to the input line. A placeholder the user types by hand, or one from
another session, names no paste of this one and stays as typed.
"""

from __future__ import annotations

import re

COLLAPSE_LINES = 10
"""A paste of more lines than this is shown collapsed."""

_PLACEHOLDER = re.compile(r"\[Pasted text #(\d+) \+\d+ lines\]")


def placeholder(number: int, lines: int) -> str:
    """`[Pasted text #1 +95 lines]`."""
    return f"[Pasted text #{number} +{lines} lines]"


class Pastes:
    """The long pastes of one REPL session, by their number."""

    def __init__(self) -> None:
        self._texts: dict[int, str] = {}
        self._shown: dict[str, str] = {}  # a paste's text -> its placeholder

    def collapse(self, data: str) -> str:
        """What the input line gets for a paste: `data` itself, or a placeholder when it is long."""
        text = data.replace("\r\n", "\n").replace("\r", "\n")  # what a terminal sends for Enter
        lines = len(text.splitlines())
        if lines <= COLLAPSE_LINES:
            return text
        number = len(self._texts) + 1
        self._texts[number] = text
        self._shown[text] = placeholder(number, lines)
        return self._shown[text]

    def expand(self, line: str) -> str:
        """`line` with each placeholder of this session replaced by the text it stands for."""
        if not self._texts:
            return line
        return _PLACEHOLDER.sub(lambda match: self._texts.get(int(match.group(1)), match.group(0)), line)

    def collapsed(self, text: str) -> str:
        """`text` as the transcript shows it: each paste of this session in it back to its placeholder."""
        for paste, shown in self._shown.items():
            text = text.replace(paste, shown)
        return text
