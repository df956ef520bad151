"""Checkpoints: what each turn's file tools changed, kept so `/undo` and `/rewind` can put it back.

The first time a turn's `write` or `edit` is about to change a file, the session's `Checkpoints`
keeps the file as it was: its bytes (stored once, by SHA-256, beside the Session Log) and its mode
bits, or that it did not exist. After the write it notes what the tool wrote (a hash), so a later
rewind can tell a file the user has changed since. When the turn is recorded, its changes go into
its turn line (`TurnFields.changes`), so a resumed session can still undo it:

    .decode/sessions/20261130T081502Z_3f2a9c1b.jsonl      the Session Log
    .decode/sessions/20261130T081502Z_3f2a9c1b.files/     the files as they were, by content hash

Some files are never kept, and say why (`FileChange.unkept`): a file larger than
`DECODE_CHECKPOINT_MAX_FILE_BYTES` (rewinding leaves it as it is and names it), a file outside the
Workspace, and a file the Permission Gate hides from searches (a secret such as `.env`). What
`bash` changes is not tracked at all (a command may touch anything); git state never is.
"""

from __future__ import annotations

import asyncio
import errno
import hashlib
import logging
import os
import secrets
import stat
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic import BaseModel

from decode.config.harness_home import make_parent_dirs, private_open

if TYPE_CHECKING:
    from decode.entities.executor import CommandExecutor
    from decode.entities.search_filter import SearchFilter

logger = logging.getLogger(__name__)

STORE_SUFFIX = ".files"
"""The folder beside a Session Log that holds its checkpoints: `<log name without .jsonl>.files/`."""
DEFAULT_MAX_FILE_BYTES = 2 << 20


class FileChange(BaseModel):
    """One file a turn's file tools changed: how it was before the turn, and what the turn wrote."""

    path: str
    """The absolute path, as the executor sees it."""
    existed: bool
    """Whether the file existed before the turn (False: the turn created it; undoing removes it)."""
    before: str | None = None
    """The SHA-256 of its content before the turn (in the store), None when it was not kept."""
    mode: int | None = None
    """Its permission bits before the turn."""
    after: str | None = None
    """The SHA-256 of what the turn last wrote (None: the write failed)."""
    unkept: str = ""
    """Why its content before the turn was not kept ("" when it was): it cannot be restored."""


@dataclass
class TurnMark:
    """A turn of the conversation, for `/rewind`: where it starts in the history, its prompt, its changes."""

    start: int
    """How many messages the history held before the turn (rewinding to it keeps that many)."""
    prompt: str
    changes: list[FileChange] = field(default_factory=list)


def digest(data: bytes) -> str:
    return hashlib.sha256(data).hexdigest()


def _read_blob(blob: Path, limit: int) -> bytes:
    """The bytes of the plain file `blob`, at most `limit` of them (`OSError` past that): no link, no FIFO."""
    descriptor = os.open(blob, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC)
    with os.fdopen(descriptor, "rb") as file:
        info = os.fstat(descriptor)
        if not stat.S_ISREG(info.st_mode) or info.st_size > limit:
            raise OSError(errno.EFBIG, f"not a kept file of at most {limit} bytes", str(blob))
        return file.read(limit + 1)


def store_for(log_path: Path) -> Path:
    """The checkpoint store of the Session Log at `log_path`."""
    return log_path.with_suffix(STORE_SUFFIX)


class Checkpoints:
    """The file changes of one session: those of the turn in progress, and the marks of its turns."""

    def __init__(self, store: Path, *, max_bytes: int = DEFAULT_MAX_FILE_BYTES) -> None:
        self.store = store
        self.max_bytes = max_bytes
        self.pending: dict[str, FileChange] = {}
        """The changes of the turn in progress, by path (the first state before the turn wins)."""
        self.marks: list[TurnMark] = []
        """The turns since the last compaction or clear, oldest first (what `/rewind` offers)."""
        self.length = 0
        """How many messages the session's history holds (the next turn's `TurnMark.start`)."""
        self.active = True
        """False: nothing is kept (`decode run --no-session-persistence` writes nothing to disk)."""
        self.earlier_stores: list[Path] = []
        """The stores of the sessions this one was copied from (`--fork-session`, a busy session)."""

    async def before_write(self, executor: CommandExecutor, hidden: SearchFilter, path: Path) -> None:
        """Keep `path` as it is now, unless this turn kept it already (its first state is what undo restores)."""
        key = str(path)
        if key in self.pending or not self.active:
            return
        change = FileChange(path=key, existed=True)
        try:
            # A link on the way out of the Workspace: what is there is not the Workspace's to keep.
            real = await executor.realpath(path)
            if real.is_relative_to(executor.workspace) or not path.is_relative_to(executor.workspace):
                change = await self._kept(executor, hidden, path)
            else:
                change.unkept = "outside the Workspace (through a symbolic link)"
        except OSError as exc:
            logger.warning("checkpoint: could not keep %s: %s", path, exc)
            change.unkept = f"could not be kept ({exc.strerror or exc})"
        self.pending[key] = change

    async def _kept(self, executor: CommandExecutor, hidden: SearchFilter, path: Path) -> FileChange:
        key = str(path)
        if not path.is_relative_to(executor.workspace):
            return FileChange(path=key, existed=True, unkept="outside the Workspace")
        stat = await executor.stat(path)
        if stat is None:
            return FileChange(path=key, existed=False)
        mode = stat.mode & 0o7777
        if await hidden.hidden([path]):
            return FileChange(path=key, existed=True, mode=mode, unkept="a secret file (never kept)")
        if stat.size > self.max_bytes:
            limit = f"{self.max_bytes / (1 << 20):g} MiB" if self.max_bytes >= 1 << 20 else f"{self.max_bytes:,} bytes"
            return FileChange(path=key, existed=True, mode=mode, unkept=f"larger than {limit} (not kept)")
        data = await executor.read_bytes(path)
        before = await asyncio.to_thread(self.keep, data)  # written and fsynced off the event loop
        return FileChange(path=key, existed=True, mode=mode, before=before)

    def wrote(self, path: Path, data: bytes) -> None:
        """The tool wrote `data` to `path` (after `before_write`)."""
        if (change := self.pending.get(str(path))) is not None:
            change.after = digest(data)

    def keep(self, data: bytes) -> str:
        """Store `data` once (0600, in a private folder); its hash."""
        name = digest(data)
        blob = self.store / name
        if not self._holds(blob, data):  # missing, or planted under that name with other bytes
            # A new file of a random name (`xb`: never through a link planted in a store a repository shipped),
            # renamed over whatever is in the blob's place (a link there is replaced, not followed).
            partial = self.store / f".{name}.{secrets.token_hex(8)}.part"
            make_parent_dirs(partial)
            with private_open(partial, "xb") as file:
                file.write(data)
                file.flush()
                os.fsync(file.fileno())
            partial.replace(blob)
        return name

    def load(self, name: str) -> bytes:
        """The content stored as `name` (here, or in a store this session was copied from); `OSError` when
        missing or not what the name says. Never read through a symbolic link, never a FIFO's wait, never
        more than a kept file can hold: a store planted in a repository cannot point elsewhere or lie."""
        limit = max(self.max_bytes, DEFAULT_MAX_FILE_BYTES)
        for store in [*self.earlier_stores, self.store]:
            if not store.is_symlink() and (store / name).is_file():
                try:
                    data = _read_blob(store / name, limit)
                except OSError:
                    continue
                if digest(data) == name:  # a copy whose bytes are not what its name says is no copy
                    return data
        raise FileNotFoundError(f"its kept copy ({name[:12]}…) is missing from {self.store} (or not what it was)")

    @staticmethod
    def _holds(blob: Path, data: bytes) -> bool:
        """Is `blob` a plain file holding exactly `data`?"""
        try:
            return _read_blob(blob, len(data)) == data
        except OSError:
            return False

    def written(self) -> list[FileChange]:
        """The changes of the turn that ends (those whose write happened)."""
        return [change for change in self.pending.values() if change.after is not None]

    def turn_recorded(self, prompt: str, added: int, changes: list[FileChange]) -> None:
        """A turn of `added` messages, with `changes`, went into the log: mark where it starts."""
        self.marks.append(TurnMark(start=self.length, prompt=prompt, changes=changes))
        self.length += added
        self.pending = {}

    def restarted(self, length: int) -> None:
        """A compaction or a clear: the history is new (`length` messages), earlier turns cannot be rewound to."""
        self.marks, self.length = [], length

    def rewound(self, keep: int) -> None:
        """The history was cut back to its first `keep` messages."""
        self.marks = [mark for mark in self.marks if mark.start < keep]
        self.length = keep
