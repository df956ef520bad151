"""The File Checkpoint seam: what `write` and `edit` tell before and after they change a file.

Lesson 11's Session keeps each turn's changes (`decode/context/checkpoints.py`) so `/undo` and
`/rewind` can put the files back; the tools only know this small protocol, on `deps.checkpoint`.
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Protocol

if TYPE_CHECKING:
    from decode.entities.deps import AgentDeps
    from decode.entities.executor import CommandExecutor
    from decode.entities.search_filter import SearchFilter


class FileCheckpoint(Protocol):
    """Keeps files as they were before a turn's file tools change them."""

    async def before_write(self, executor: CommandExecutor, hidden: SearchFilter, path: Path) -> None:
        """`path` is about to change: keep it as it is (unless the gate hides it, or it is too large)."""
        ...

    def wrote(self, path: Path, data: bytes) -> None:
        """`data` was written to `path`."""
        ...


async def write_kept(deps: AgentDeps, path: Path, data: bytes) -> None:
    """`deps.executor.write_atomic(path, data)`, the file kept first by `deps.checkpoint` (if any)."""
    if deps.checkpoint is not None:
        await deps.checkpoint.before_write(deps.executor, deps.search_filter, path)
    await deps.executor.write_atomic(path, data)
    if deps.checkpoint is not None:
        deps.checkpoint.wrote(path, data)
