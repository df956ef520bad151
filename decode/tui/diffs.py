"""File changes as the user reads them: a coloured, numbered diff under each edit, a new file's first lines.

    ✓ edit(calc.py) · +1 -1 at line 5 · 0.0s
        4    def add(a, b):
        5 -      return a - b
        5 +      return a + b

The `edit` tool's call already holds what changed (`old_string` → `new_string`) and its result
says where (`at line 5`), so the diff is computed here, from the call: the tools' answers to the
model stay as they are. Lines the quote shares with its replacement are the context; past
`DIFF_LINES` the diff says how many lines it left out (`/last` shows them all).

`change_preview()` is the same picture before the call runs, for an approval: it reads the file
to number the lines (or to diff a `write` over an existing file), when it can do so cheaply.
"""

from __future__ import annotations

import difflib
import re
import stat
from pathlib import Path
from typing import Any

from rich.text import Text

from decode.tui.tool_views import DIFF_LINES, FIRST_LINES, ToolRun, ToolView, capped
from decode.visible import visible

REMOVED_STYLE = "red"
ADDED_STYLE = "green"
NUMBER_STYLE = "dim"
CONTEXT = 3  # unchanged lines kept around a change
PREVIEW_MAX_BYTES = 1_000_000  # a bigger file is not read for an approval's preview

_AT_LINE = re.compile(r"at line (\d+)\.?$")
_OCCURRENCES = re.compile(r"replaced (\d+) occurrences")


def diff_lines(old: str, new: str, first: int | None = 1) -> tuple[list[Text], int, int]:
    """The changed lines of `old` → `new` with `CONTEXT` lines around them, numbered from `first`.

    Returns (lines, added, removed). A removed line carries its old number, the others their new
    one; `first` None leaves the numbers out (where in the file is not known).
    """
    before, after = old.splitlines(), new.splitlines()
    matcher = difflib.SequenceMatcher(None, before, after, autojunk=False)
    groups = list(matcher.get_grouped_opcodes(CONTEXT))
    last = max(len(before), len(after)) + (first or 1)
    width = len(str(last)) if first is not None else 0
    lines: list[Text] = []
    added = removed = 0
    for number, group in enumerate(groups):
        if number:
            lines.append(Text(f"{'':>{width}} ⋮", style=NUMBER_STYLE))
        for tag, i1, i2, j1, j2 in group:
            if tag == "equal":
                lines += [_line(first, j, " ", after[j], width, "") for j in range(j1, j2)]
                continue
            lines += [_line(first, i, "-", before[i], width, REMOVED_STYLE) for i in range(i1, i2)]
            lines += [_line(first, j, "+", after[j], width, ADDED_STYLE) for j in range(j1, j2)]
            removed += i2 - i1
            added += j2 - j1
    return lines, added, removed


def _line(first: int | None, index: int, sign: str, text: str, width: int, style: str) -> Text:
    number = f"{first + index:>{width}} " if first is not None else ""
    return Text.assemble((number, NUMBER_STYLE), (f"{sign} {visible(text)}", style))


def first_lines(content: str, limit: int | None) -> list[Text]:
    """A new file's lines, numbered (all of them: `capped()` cuts them to `limit`)."""
    lines = content.splitlines()
    width = len(str(len(lines)))
    return [
        Text.assemble((f"{n:>{width}} ", NUMBER_STYLE), (visible(line), ADDED_STYLE)) for n, line in enumerate(lines, 1)
    ]


def _counts(added: int, removed: int) -> str:
    return f"+{added} -{removed}"


def edit_view(run: ToolRun, limit: int | None) -> ToolView | None:
    """An edit that happened: `+1 -1 at line 5`, and the diff."""
    call, result = run.call, run.result
    if call is None or result.is_error or not result.content.startswith("Edited "):
        return None
    old, new = call.args.get("old_string"), call.args.get("new_string")
    if not isinstance(old, str) or not isinstance(new, str):
        return None
    at_line = _AT_LINE.search(result.content.strip())
    first = int(at_line.group(1)) if at_line else None
    lines, added, removed = diff_lines(old, new, first)
    outcome = _counts(added, removed)
    if (occurrences := _OCCURRENCES.search(result.content)) is not None:
        outcome += f" in each of {occurrences.group(1)} places"
    elif first is not None:
        outcome += f" at line {first}"
    return ToolView(
        outcome=outcome, body=capped(lines, DIFF_LINES if limit is not None else None, prefix="    "), in_full=True
    )


def write_view(run: ToolRun, limit: int | None) -> ToolView | None:
    """A file written: `created · 40 lines`, and its first lines."""
    call, result = run.call, run.result
    if call is None or result.is_error:
        return None
    content = call.args.get("content")
    verb = result.content.split(" ", 1)[0]
    if not isinstance(content, str) or verb not in ("Created", "Replaced"):
        return None
    count = len(content.splitlines())
    outcome = f"{verb.lower()} · {count:,} line{'s' if count != 1 else ''}"
    if not content:
        return ToolView(outcome=outcome)
    return ToolView(
        outcome=outcome,
        body=capped(first_lines(content, limit), FIRST_LINES if limit is not None else None, prefix="    "),
    )


def change_preview(tool: str, args: dict[str, Any], workspace: Path, limit: int | None = DIFF_LINES) -> Text | None:
    """What an `edit` or `write` call would change, as a numbered diff, before it runs (for an approval).

    None for other tools and for calls it cannot picture (arguments missing). The file is read
    only if it is a regular file under `PREVIEW_MAX_BYTES`; otherwise the diff has no line numbers.
    """
    path = args.get("path")
    if not isinstance(path, str):
        return None
    current = _read_small(workspace, path)
    if tool == "edit":
        old, new = args.get("old_string"), args.get("new_string")
        if not isinstance(old, str) or not isinstance(new, str) or not old:
            return None
        first = None
        if current is not None and (at := current.find(old)) != -1:
            first = current.count("\n", 0, at) + 1
        lines, _, _ = diff_lines(old, new, first)
        return capped(lines, limit, prefix="    ")
    if tool == "write":
        content = args.get("content")
        if not isinstance(content, str):
            return None
        if current is not None:
            lines, _, _ = diff_lines(current, content, 1)
            return capped(lines, limit, prefix="    ")
        return capped(first_lines(content, limit), FIRST_LINES if limit is not None else None, prefix="    ")
    return None


def _read_small(workspace: Path, name: str) -> str | None:
    """The text of a small regular file in the Workspace, newlines as `\\n`; None for anything else.

    Never a file outside the Workspace, and never a pipe or device (reading one could block).
    """
    try:
        path = (workspace / name).resolve()
        if not path.is_relative_to(workspace.resolve()):
            return None
        info = path.stat()
        if not stat.S_ISREG(info.st_mode) or info.st_size > PREVIEW_MAX_BYTES:
            return None
        return path.read_bytes().decode("utf-8").removeprefix("\ufeff").replace("\r\n", "\n")
    except (OSError, UnicodeDecodeError):
        return None
