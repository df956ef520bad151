"""Streamed Markdown, one finished block at a time: what the Renderer prints and what stays live.

The model's answer arrives a few characters at a time. Printing it as it comes would mean
redrawing a paragraph each time it grows, so the answer is cut into blocks instead: a paragraph
ends at a blank line, a code block at its closing fence. `split_blocks` says what is finished;
the rest is the live area's, of which `tail` keeps the last lines.
"""

from __future__ import annotations

import re

from rich.console import Console, RenderableType
from rich.segment import SegmentLines

# A fence opens with three or more backticks or tildes (indented at most three spaces) and is
# closed by a line of the same character, at least as long, with nothing after it.
_FENCE = re.compile(r"^ {0,3}(`{3,}|~{3,})")


def _closes(fence: str, opener: re.Match[str] | None, line: str) -> bool:
    """Whether `line` closes `fence`: the same character, at least as many, nothing after."""
    if opener is None:
        return False
    run = opener.group(1)
    return run[0] == fence[0] and len(run) >= len(fence) and not line[opener.end() :].strip()


def split_blocks(text: str) -> tuple[str, str]:
    """Split streamed Markdown into (finished blocks, the block still being written).

    A block is finished by a blank line outside a code fence, or by the line that closes a fence.
    An unterminated last line is never finished: the model may still be writing it.
    """
    finished = 0
    position = 0
    fence: str | None = None
    for line in text.splitlines(keepends=True):
        if not line.endswith("\n"):
            break
        position += len(line)
        opener = _FENCE.match(line)
        if fence is None:
            if opener:
                fence = opener.group(1)
            elif not line.strip():
                finished = position
        elif _closes(fence, opener, line):
            fence = None
            finished = position
    return text[:finished], text[finished:]


def tail(text: str, lines: int) -> str:
    """The last `lines` lines of a block, keeping an opening code fence so it still renders as code."""
    all_lines = text.splitlines(keepends=True)
    if len(all_lines) <= lines:
        return text
    head = all_lines[0] if _FENCE.match(all_lines[0]) else ""
    return head + "".join(all_lines[-lines:])


def markdown(text: str) -> RenderableType:
    """`text` as Rich Markdown."""
    # Imported on first use: rich.markdown pulls in markdown-it and pygments, which the first
    # prompt does not need (the REPL's warm-up thread imports it in the background).
    from rich.markdown import Markdown

    return Markdown(text)


def trimmed(console: Console, renderable: RenderableType) -> RenderableType:
    """`renderable` without blank lines above and below it (Rich pads lists and code blocks).

    Blocks are printed one at a time, so the Renderer puts exactly one blank line between them.
    """
    lines = console.render_lines(renderable, pad=False)
    while lines and not "".join(segment.text for segment in lines[0]).strip():
        lines.pop(0)
    while lines and not "".join(segment.text for segment in lines[-1]).strip():
        lines.pop()
    return SegmentLines(lines, new_lines=True)
