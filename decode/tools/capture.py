"""Capturing a command's output in bounded memory: head, tail, and the whole of it on disk.

A command may print 50 MB. The model sees at most the limit (30,000 characters by default): the
head and the tail. Holding all of it in memory to cut it afterwards would not be bounded, so the
capture keeps only the head and a rolling tail, and past the limit streams the raw bytes to a
file under `.decode/tool-output/`, whose path the model gets.
"""

import codecs
from pathlib import Path
from typing import BinaryIO

from decode.tools.truncate import head_tail, new_output_path, omission_note, shown_path


class OutputCapture:
    """Feed it chunks of bytes; `render()` gives the model's view of all of them."""

    def __init__(self, limit: int, *, harness_home: Path, label: str) -> None:
        self.limit = limit
        self.harness_home = harness_home
        self.label = label
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._text = ""  # everything so far, until it outgrows the limit
        self._head = ""
        self._tail = ""
        self._raw = bytearray()  # the bytes of `_text`, in case they must go to the file
        self._file: BinaryIO | None = None
        self.path: Path | None = None
        self.total_chars = 0

    def feed(self, chunk: bytes) -> None:
        text = self._decoder.decode(chunk)
        self.total_chars += len(text)
        if self._file is not None:
            self._file.write(chunk)
            self._tail = (self._tail + text)[-(self.limit // 2) :]
            return
        self._text += text
        self._raw.extend(chunk)
        if len(self._text) > self.limit:
            self._spill()

    def _spill(self) -> None:
        self.path = new_output_path(self.harness_home, self.label)
        self._file = self.path.open("wb")
        self._file.write(self._raw)
        self._head, self._tail = head_tail(self._text, self.limit)
        self._text, self._raw = "", bytearray()

    def close(self) -> None:
        """Flush the decoder and the file; call once the command has finished."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self.total_chars += len(rest)
            if self._file is None:
                self._text += rest
            else:
                self._tail = (self._tail + rest)[-(self.limit // 2) :]
        if self._file is not None:
            self._file.close()

    def render(self) -> str:
        """All of the output if it fitted; otherwise head, a note naming the saved file, and tail."""
        if self.path is None:
            return self._text
        omitted = self.total_chars - len(self._head) - len(self._tail)
        return (
            self._head + omission_note(omitted, self.total_chars, shown_path(self.harness_home, self.path)) + self._tail
        )
