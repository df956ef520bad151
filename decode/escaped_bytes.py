"""Bytes that are not UTF-8, carried in text as `\\xNN`, so JSON and a terminal can hold them.

Linux lets a file name be any bytes. Python hands a name that is not UTF-8 over as text with lone
surrogates (`b"caf\\xe9.txt"` becomes `"caf\\udce9.txt"`, the `surrogateescape` handler), and such
text cannot be encoded as UTF-8: a session log line, a provider's request and the terminal all
refuse it. `escape_bytes` spells each such byte `\\xNN`, as Python writes bytes and bash reads
them in `$'caf\\xe9.txt'`; `unescape_bytes` turns that spelling back into the name the file system
knows. Any other lone surrogate (a provider's JSON may carry `\\ud800`) becomes `\\uXXXX`.
Decision: docs/adr/0092-names-that-are-not-utf-8-are-spelled-with-x-escapes.md.
"""

import os
import re

_LONE_SURROGATE = re.compile("[\ud800-\udfff]")
_BYTE_ESCAPE = re.compile(r"\\x([89a-fA-F][0-9a-fA-F])")


def _spelled(match: re.Match[str]) -> str:
    code = ord(match.group())
    if 0xDC80 <= code <= 0xDCFF:  # a byte 0x80-0xFF that surrogateescape carried
        return f"\\x{code - 0xDC00:02x}"
    return f"\\u{code:04x}"


def escape_bytes(text: str) -> str:
    """`text` with every lone surrogate spelled out (`\\xe9`, `\\ud800`): text UTF-8 can encode."""
    if text.isascii():  # the common case, checked in C
        return text
    return _LONE_SURROGATE.sub(_spelled, text)


def unescape_bytes(text: str) -> str | None:
    """The name `escape_bytes` spelled as `text`, or None when `text` spells no such name.

    Only bytes that are not UTF-8 come back: `caf\\xc3\\xa9` is not `café`, since `escape_bytes`
    would never have written it so. A name spelled that way is its own literal text.
    """
    if "\\x" not in text:
        return None
    restored = _BYTE_ESCAPE.sub(lambda match: chr(0xDC00 + int(match.group(1), 16)), text)
    if restored == text or os.fsdecode(os.fsencode(restored)) != restored:
        return None  # nothing to restore, or some of it would be valid UTF-8
    return restored
