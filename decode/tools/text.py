"""Bytes on disk ↔ text the model sees: binary detection, BOM and line endings.

The model reads and writes plain `\\n` text. A file on disk may start with a UTF-8 byte-order
mark or end its lines with `\\r\\n`; editing it must keep both, or every edit would show up as a
whole-file change in the user's diff.
"""

import codecs
import mimetypes
from dataclasses import dataclass
from pathlib import Path

SNIFF_BYTES = 8192


def binary_kind(path: Path, head: bytes) -> str | None:
    """What a non-text file is (`"image/png"`, `"binary"`), or None when it is text.

    Images, audio and video go by their name unless their first bytes are plain UTF-8 text (a text
    file named `notes.png` is text); anything else with a NUL byte in its first 8 KB is binary, as
    git and grep decide it.
    """
    mime, _ = mimetypes.guess_type(path.name)
    if mime is not None and mime.startswith(("image/", "audio/", "video/")) and not _plain_text(head):
        return mime
    if b"\x00" in head[:SNIFF_BYTES]:
        return f"binary, {mime}" if mime else "binary"
    return None


def _plain_text(head: bytes) -> bool:
    """Is `head` (a file's start, maybe cut inside a character) UTF-8 text with no NUL byte?"""
    if not head or b"\x00" in head:
        return False
    try:
        codecs.getincrementaldecoder("utf-8")().decode(head[:SNIFF_BYTES], final=False)
    except UnicodeDecodeError:
        return False
    return True


@dataclass(frozen=True)
class TextStyle:
    """How a file writes its text: a UTF-8 byte-order mark or not, `\r\n` line endings or `\n`."""

    bom: bool = False
    crlf: bool = False

    @classmethod
    def of(cls, data: bytes) -> "TextStyle":
        """The style of a file's bytes (its first line ending decides `crlf`); the start is enough."""
        first_end = data.find(b"\n")
        return cls(
            bom=data.startswith(codecs.BOM_UTF8), crlf=first_end > 0 and data[first_end - 1 : first_end] == b"\r"
        )

    def to_file_newlines(self, text: str) -> str:
        """The model's `\\n` text with this style's line endings."""
        if not self.crlf:
            return text
        return text.replace("\r\n", "\n").replace("\n", "\r\n")

    def encode(self, text: str) -> bytes:
        """`text` (already in this style's line endings) as bytes, with the BOM if the style has one."""
        data = text.encode("utf-8")
        return codecs.BOM_UTF8 + data if self.bom else data


def decode_text(data: bytes) -> tuple[str, TextStyle]:
    """A file's text (line endings as on disk, BOM removed) and its style.

    Strict UTF-8: a `UnicodeDecodeError` means changing the text would corrupt the file.
    """
    style = TextStyle.of(data)
    body = data[len(codecs.BOM_UTF8) :] if style.bom else data
    return body.decode("utf-8"), style
