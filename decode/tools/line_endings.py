"""A file's text as the model sees it, written back with each line's own ending.

`read` shows lines without their endings, so the model quotes `\\n` text even from a file whose
lines end with `\\r\\n`, or with either (a file edited on two systems). `edit` finds the quote in
the text as the model saw it (`SeenText.text`: every `\\r\\n` read as `\\n`) and writes each line
back with the ending it had: the lines an edit leaves keep theirs; the lines of the replacement
take, one by one, the endings of the lines they replace, and any extra line the file's most
common ending. A file with one kind of ending keeps it, as before.
"""

import bisect
import re
from dataclasses import dataclass

_ENDING = re.compile("\r?\n")


@dataclass(frozen=True)
class SeenText:
    """`text`: the file with `\\n` endings; `endings`: what each `\\n` of it is on disk, in order."""

    text: str
    endings: tuple[str, ...]
    newlines: tuple[int, ...]  # where each `\n` of `text` is, for finding a stretch's endings

    @classmethod
    def of(cls, disk: str) -> "SeenText":
        """The text of a file (as decoded, endings as on disk) as the model sees it."""
        endings = tuple(match.group() for match in _ENDING.finditer(disk))
        text = disk.replace("\r\n", "\n")
        return cls(text, endings, tuple(index for index, char in enumerate(text) if char == "\n"))

    def dominant(self) -> str:
        """The ending most lines have (a tie goes to the first line's): the one new lines get."""
        crlf = self.endings.count("\r\n")
        if crlf * 2 == len(self.endings):
            return self.endings[0] if self.endings else "\n"
        return "\r\n" if crlf * 2 > len(self.endings) else "\n"

    def _endings_in(self, start: int, end: int) -> tuple[str, ...]:
        first, last = bisect.bisect_left(self.newlines, start), bisect.bisect_left(self.newlines, end)
        return self.endings[first:last]

    def _on_disk(self, start: int, end: int) -> str:
        """`text[start:end]` with its own endings."""
        lines = self.text[start:end].split("\n")
        endings = self._endings_in(start, end)
        return "".join(line + ending for line, ending in zip(lines, endings, strict=False)) + lines[-1]

    def replace(self, old: str, new: str, count: int | None = None) -> str:
        """The file's text (endings as on disk) with `old` replaced by `new` (`count` times at most).

        `old` and `new` are as the model sees text: `\\r\\n` in them counts as `\\n`.
        """
        old, new = old.replace("\r\n", "\n"), new.replace("\r\n", "\n")
        pieces: list[str] = []
        at, done = 0, 0
        while (count is None or done < count) and (found := self.text.find(old, at)) != -1:
            pieces.append(self._on_disk(at, found))
            replaced = self._endings_in(found, found + len(old))
            lines = new.split("\n")
            extra = self.dominant()
            endings = [replaced[i] if i < len(replaced) else extra for i in range(len(lines) - 1)]
            pieces.append("".join(line + ending for line, ending in zip(lines, endings, strict=False)) + lines[-1])
            at, done = found + len(old), done + 1
        pieces.append(self._on_disk(at, len(self.text)))
        return "".join(pieces)
