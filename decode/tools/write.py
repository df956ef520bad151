"""The `write` tool: create a file, or replace one the agent has read.

The write is atomic (a temporary file beside the target, then a rename), so an interrupted write
never leaves half a file. Parent directories are created. Replacing a file keeps its mode bits,
its line endings and its byte-order mark, and needs the file read first (the Read Ledger), so
the model never overwrites work it has not seen.
"""

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.ledger import require_fresh
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.paths import display_path, resolve_path
from decode.tools.text import TextStyle

STYLE_SNIFF_BYTES = 64 * 1024


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
    stat = await executor.stat(real)
    style = TextStyle()
    if stat is not None:
        if stat.is_dir:
            raise ModelRetry(f"{shown} is a directory; give a file path.")
        require_fresh(ctx.deps.read_ledger, real, stat, shown)
        try:
            style = TextStyle.of(await executor.read_bytes(real, 0, STYLE_SNIFF_BYTES))
        except OSError as exc:
            return f"Could not read {shown}: {exc.strerror or exc}."
    try:
        await executor.write_atomic(real, style.encode(style.to_file_newlines(content)))
    except OSError as exc:
        return f"Could not write {shown}: {exc.strerror or exc}."
    new_stat = await executor.stat(real)
    if new_stat is not None:
        ctx.deps.read_ledger.record(real, new_stat)
    lines = content.count("\n") + (0 if content.endswith("\n") or not content else 1)
    verb = "Replaced" if stat is not None else "Created"
    return f"{verb} {shown} ({lines:,} line{'' if lines == 1 else 's'})."


WRITE = ToolSpec("write", write, ToolTraits(ToolKind.FILE_EDIT, rules=("Write", "Edit"), path="path"))
