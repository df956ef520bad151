"""The `edit` tool: replace an exact piece of a file with new text.

The model quotes the text to change (`old_string`) and what to put instead. The quote must match
exactly once (or `replace_all` says to change every match), so an edit never lands somewhere the
model did not mean. The file must have been read in this session and be unchanged since (the
Read Ledger). The quote is matched as `read` showed the file; each line keeps its ending
(`line_endings.py`) and the byte-order mark is kept.

When the quote matches nowhere, the model gets the closest lines of the file, numbered, so it can
see what it got wrong (usually indentation, or text it remembered instead of read). A quote that
matches nowhere or more than once, like a refused path, is an answer the model reads, not a failed
attempt (`paths.py`); an empty quote, or one equal to its replacement, is a malformed call.
"""

import difflib

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.line_endings import SeenText
from decode.tools.lsp import check_before_edit, new_errors_note
from decode.tools.paths import Refusal, describe_os_error, display_path, resolve_path, stat_path
from decode.tools.read import missing_file_message
from decode.tools.text import decode_text
from decode.tools.write import require_read_first

# Past this many lines the closest-lines search would be slow; the model gets a plain message.
HINT_MAX_LINES = 20_000


def _line_of(text: str, index: int) -> int:
    return text.count("\n", 0, index) + 1


def closest_lines(text: str, quote: str) -> tuple[int, list[str]] | None:
    """The run of lines in `text` most like `quote` (first line number, lines), if any is close."""
    lines = text.splitlines()
    want = quote.strip("\n").splitlines() or [quote]
    if not lines or len(lines) > HINT_MAX_LINES:
        return None
    size = min(len(want), len(lines))
    target = "\n".join(line.strip() for line in want)
    best, best_score = 0, 0.0
    matcher = difflib.SequenceMatcher(None, autojunk=False)
    matcher.set_seq2(target)  # the quote's index is built once, not per window
    for start in range(len(lines) - size + 1):
        matcher.set_seq1("\n".join(line.strip() for line in lines[start : start + size]))
        # Cheap upper bounds first: most windows are nothing like the quote.
        if matcher.real_quick_ratio() <= best_score or matcher.quick_ratio() <= best_score:
            continue
        if (score := matcher.ratio()) > best_score:
            best, best_score = start, score
    if best_score < 0.5:
        return None
    return best + 1, lines[best : best + size]


def _no_match_message(shown: str, text: str, quote: str) -> str:
    message = f"old_string was not found in {shown}."
    if (found := closest_lines(text, quote)) is not None:
        first, lines = found
        numbered = "\n".join(f"{first + i:>6}\t{line}" for i, line in enumerate(lines))
        message += f" The closest text is at line {first}:\n{numbered}\n"
    return message + " Copy old_string exactly from the file (indentation included), or read it again."


async def edit(
    ctx: RunContext[AgentDeps], path: str, old_string: str, new_string: str, replace_all: bool = False
) -> str:
    """Replace exact text in a file. The file must have been read first.

    old_string must match exactly (whitespace included) and only once, unless replace_all.
    Give enough surrounding lines to make it unique.

    Args:
        path: File path, relative to the working directory.
        old_string: The exact text to replace.
        new_string: The text to put instead.
        replace_all: Replace every occurrence instead of exactly one.
    """
    executor = ctx.deps.executor
    real = await resolve_path(executor, path)
    shown = display_path(executor, real)
    stat = await stat_path(executor, real, shown)
    if stat is None:
        raise Refusal(await missing_file_message(ctx.deps, path) + " To create a file, use write.")
    if stat.is_dir:
        raise Refusal(f"{shown} is a directory; give a file path.")
    if not stat.is_file:
        raise Refusal(f"{shown} is not a regular file (a pipe, socket or device); edit changes files only.")
    if not old_string:
        raise ModelRetry("old_string is empty: quote the text to replace (to create a file, use write).")
    if old_string == new_string:
        raise ModelRetry("old_string and new_string are the same: there is nothing to change.")
    require_read_first(ctx.deps.read_ledger, real, stat, shown)
    try:
        text, style = decode_text(await executor.read_bytes(real))
    except UnicodeDecodeError:
        raise Refusal(f"{shown} is not UTF-8 text; edit cannot change it safely.") from None
    except OSError as exc:
        raise Refusal(f"Could not read {shown}: {describe_os_error(exc)}.") from None

    # Matched as `read` showed the file (`\r\n` as `\n`); each line is written back with its own ending.
    seen = SeenText.of(text)
    old = old_string.replace("\r\n", "\n")
    count = seen.text.count(old)
    if count == 0:
        raise Refusal(_no_match_message(shown, seen.text, old_string))
    if count > 1 and not replace_all:
        starts, at = [], seen.text.find(old)
        while at != -1 and len(starts) < 10:
            starts.append(str(_line_of(seen.text, at)))
            at = seen.text.find(old, at + 1)
        raise Refusal(
            f"old_string matches {count} times in {shown} (lines {', '.join(starts)}). Include more surrounding "
            "lines to make it unique, or set replace_all to change every match."
        )
    first_line = _line_of(seen.text, seen.text.find(old))
    updated = seen.replace(old, new_string, None if replace_all else 1)
    check = await check_before_edit(ctx.deps, real, text)  # the errors before, to tell the new ones  # [lesson 16]
    try:
        await executor.write_atomic(real, style.encode(updated))
    except (OSError, ValueError) as exc:
        raise Refusal(f"Could not write {shown}: {describe_os_error(exc)}.") from None
    if (new_stat := await stat_path(executor, real, shown)) is not None:
        ctx.deps.read_ledger.record(real, new_stat)
    if replace_all and count > 1:
        message = f"Edited {shown}: replaced {count} occurrences."
    else:
        message = f"Edited {shown}: replaced 1 occurrence at line {first_line}."
    message += await new_errors_note(check, updated)  # [lesson 16]
    return message


EDIT = ToolSpec("edit", edit, ToolTraits(ToolKind.FILE_EDIT, rules=("Edit",), path="path"))
