"""Capturing a command's output in bounded memory: head, tail, and the whole of it on disk.

A command may print 50 MB. The model sees at most the limit (30,000 characters by default): the
head and the tail. Holding all of it in memory to cut it afterwards would not be bounded, so the
capture keeps only the head and a rolling tail, and past the limit streams the raw bytes to a
file under `.decode/tool-output/`, whose path the model gets. When that file cannot be written
(a read-only or full disk), the model still gets head and tail, and a note saying why the rest
is not kept. decode's own keys never reach that file, nor head and tail (`decode.config.redaction`):
the bytes are redacted as they stream, holding back the few that may be the start of a key.
"""

import codecs
from pathlib import Path
from typing import BinaryIO

from decode.config.harness_home import private_open
from decode.config.redaction import NO_REDACTION, Redactor
from decode.tools.truncate import head_tail, new_output_path, omission_note, shown_path, unsaved_note


class OutputCapture:
    """Feed it chunks of bytes; `render()` gives the model's view of all of them."""

    def __init__(self, limit: int, *, harness_home: Path, label: str, redactor: Redactor = NO_REDACTION) -> None:
        self.limit = limit
        self.harness_home = harness_home
        self.label = label
        self.redactor = redactor
        self._redaction = redactor.stream()
        self._margin = redactor.longest  # the rolling tail keeps this much more, where a key may be cut
        self._decoder = codecs.getincrementaldecoder("utf-8")(errors="replace")
        self._text = ""  # everything so far, until it outgrows the limit
        self._head = ""
        self._tail = ""
        self._raw = bytearray()  # the bytes of `_text`, in case they must go to the file
        self._file: BinaryIO | None = None
        self.path: Path | None = None
        self.unsaved = ""
        """Why the full output could not be saved, when it could not."""
        self._spilled = False
        self.total_chars = 0

    def feed(self, chunk: bytes) -> None:
        text = self._decoder.decode(chunk)
        self.total_chars += len(text)
        if self._spilled:
            if self._file is not None:
                self._write(self._redaction.feed(chunk))
            self._tail = (self._tail + text)[-(self.limit // 2 + self._margin) :]
            return
        self._text += text
        self._raw.extend(chunk)
        if len(self._text) > self.limit:
            self._spill()

    def _spill(self) -> None:
        self._spilled = True
        try:
            self.path = new_output_path(self.harness_home, self.label)
            self._file = private_open(self.path)  # 0600: command output may hold secrets
        except OSError as exc:
            self.path, self.unsaved = None, exc.strerror or str(exc)
        else:
            self._write(self._redaction.feed(bytes(self._raw)))
        self._head, self._tail = head_tail(self.redactor.text(self._text), self.limit)
        self._text, self._raw = "", bytearray()

    def _write(self, data: bytes) -> None:
        assert self._file is not None
        try:
            self._file.write(data)
        except OSError as exc:  # the disk filled up meanwhile: what is saved stays, the note says so
            self.unsaved = exc.strerror or str(exc)
            self._file.close()
            self._file = None

    def close(self) -> None:
        """Flush the decoder and the file; call once the command has finished."""
        rest = self._decoder.decode(b"", final=True)
        if rest:
            self.total_chars += len(rest)
            if not self._spilled:
                self._text += rest
            else:
                self._tail = (self._tail + rest)[-(self.limit // 2 + self._margin) :]
        if self._file is not None:
            self._write(self._redaction.end())
        if self._file is not None:
            try:
                self._file.close()
            except OSError as exc:
                self.unsaved = exc.strerror or str(exc)
            self._file = None

    def render(self) -> str:
        """All of the output if it fitted; otherwise head, a note naming the saved file, and tail."""
        if not self._spilled:
            return self._text
        tail = self._safe_tail()
        omitted = self.total_chars - len(self._head) - len(tail)
        if self.path is None or self.unsaved:
            return self._head + unsaved_note(omitted, self.total_chars, self.unsaved) + tail
        return self._head + omission_note(omitted, self.total_chars, shown_path(self.harness_home, self.path)) + tail

    def _safe_tail(self) -> str:
        """The tail, redacted before it is cut: its first `_margin` characters may end a key whose
        start fell off, so they go, and the rest is cut to the tail's size."""
        if not self.redactor:
            return self._tail
        return self.redactor.text(self._tail)[self._margin :][-(self.limit // 2) :]
