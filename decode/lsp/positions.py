"""Where a position is: the tool's 1-based lines and columns, LSP's 0-based UTF-16 ones.

The model counts like `read` shows a file: line 1 is the first line, column 1 the first
character (a Unicode code point). LSP counts from 0, and its `character` counts UTF-16 code
units (the default encoding every server supports): a character outside the Basic Multilingual
Plane (an emoji, `𝔘`) is two units. Getting that wrong points every request after such a character
on a line at the wrong symbol.
"""

import re
from typing import TypedDict

_LINE_BREAK = re.compile(r"\r\n|\r|\n")  # LSP's line endings; `str.splitlines` knows more


class Position(TypedDict):
    """An LSP position: 0-based line, 0-based UTF-16 offset into it."""

    line: int
    character: int


def utf16_length(text: str) -> int:
    """How many UTF-16 code units `text` takes."""
    return len(text) + sum(1 for char in text if ord(char) > 0xFFFF)


def to_lsp(line_text: str, line: int, column: int) -> Position:
    """The LSP position of 1-based `line` and 1-based code-point `column` on a line reading `line_text`.

    A column past the end of the line means its end (as servers read it anyway).
    """
    if line < 1 or column < 1:
        raise ValueError("lines and columns count from 1")
    return {"line": line - 1, "character": utf16_length(line_text[: column - 1])}


def from_lsp(line_text: str, position: Position) -> tuple[int, int]:
    """1-based (line, code-point column) of an LSP position on a line reading `line_text`.

    An offset inside a surrogate pair (which a server should never send) lands on its character.
    """
    units = max(position["character"], 0)
    column = 0
    for char in line_text:
        width = 2 if ord(char) > 0xFFFF else 1
        if units < width:
            break
        units -= width
        column += 1
    return position["line"] + 1, column + 1


def line_at(text: str, line: int) -> str:
    """The 1-based `line` of `text` without its line ending ("" past the end)."""
    lines = _LINE_BREAK.split(text)
    return lines[line - 1] if 1 <= line <= len(lines) else ""


def line_count(text: str) -> int:
    """How many lines `text` has, as an editor counts them (a final line break ends the last one)."""
    lines = _LINE_BREAK.split(text)
    return len(lines) - 1 if lines[-1] == "" else len(lines)
