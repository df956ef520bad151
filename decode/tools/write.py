"""The `write` tool: create a file, or replace one the agent has read.

The write is atomic (a temporary file beside the target, then a rename), so an interrupted write
never leaves half a file. Parent directories are created. Replacing a file keeps its mode bits,
its line endings and its byte-order mark, and needs the file read first (the Read Ledger), so
the model never overwrites work it has not seen. A refusal (outside the Workspace, not read first,
changed since, a directory) is an answer the model reads, not a failed attempt (`paths.py`).
"""

from pathlib import Path

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.executor import FileStat
from decode.entities.ledger import ReadLedger, require_fresh
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.lsp import check_before_edit, new_errors_note
from decode.tools.paths import Refusal, describe_os_error, display_path, resolve_path, stat_path
from decode.tools.text import TextStyle

STYLE_SNIFF_BYTES = 64 * 1024


def require_read_first(ledger: ReadLedger, path: Path, stat: FileStat, shown: str) -> None:
    """`require_fresh`, as a refusal the model reads rather than a failed attempt (`paths.py`)."""
    try:
        require_fresh(ledger, path, stat, shown)
    except ModelRetry as exc:
        raise Refusal(exc.message) from None


async def write(ctx: RunContext[AgentDeps], path: str, content: str) -> str:
    """Create or overwrite a file with `content`; parent directories are created.

    To change part of a file, prefer edit. Overwriting an existing file requires reading it first.

    Args:
        path: File path, relative to the working directory.
        content: The complete new content of the file.
    """
    executor = ctx.deps.executor
    real = await resolve_path(executor, path)
    shown = display_path(executor, real)
    stat = await stat_path(executor, real, shown)
    style = TextStyle()
    if stat is not None:
        if stat.is_dir:
            raise Refusal(f"{shown} is a directory; give a file path.")
        if not stat.is_file:
            raise Refusal(f"{shown} is not a regular file (a pipe, socket or device); write replaces files only.")
        require_read_first(ctx.deps.read_ledger, real, stat, shown)
        try:
            style = TextStyle.of(await executor.read_bytes(real, 0, STYLE_SNIFF_BYTES))
        except OSError as exc:
            raise Refusal(f"Could not read {shown}: {describe_os_error(exc)}.") from None
    check = await check_before_edit(ctx.deps, real)  # the errors before, to tell the new ones  # [lesson 16]
    try:
        await executor.write_atomic(real, style.encode(style.to_file_newlines(content)))
    except (OSError, ValueError) as exc:
        raise Refusal(f"Could not write {shown}: {describe_os_error(exc)}.") from None
    new_stat = await stat_path(executor, real, shown)
    if new_stat is not None:
        ctx.deps.read_ledger.record(real, new_stat)
    lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    verb = "Replaced" if stat is not None else "Created"
    message = f"{verb} {shown} ({lines:,} line{'' if lines == 1 else 's'})."
    message += await new_errors_note(check, style.to_file_newlines(content))  # [lesson 16]
    return message


WRITE = ToolSpec("write", write, ToolTraits(ToolKind.FILE_EDIT, rules=("Write", "Edit"), path="path"))
