"""The executor seam: the one door through which tools touch the Workspace.

File tools and `bash` never call `open()` or `subprocess` themselves. They ask `deps.executor`,
a `CommandExecutor`, to stat, list, read and write files and to run programs. The local executor
(`local.py`) does that on this machine; the sandbox lesson adds executors that do the same inside
a container or a remote sandbox, and no tool changes.

The interface is small on purpose: whatever a backend can do with a shell and a file API.
Paths are absolute paths *as the executor sees them*, under `executor.workspace`.
"""

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import BinaryIO, Protocol

OutputCallback = Callable[[bytes], None]
"""Receives a running program's output, chunk by chunk, as it arrives."""


class EntryKind(StrEnum):
    FILE = "file"
    DIR = "dir"
    SYMLINK = "symlink"
    OTHER = "other"  # sockets, fifos, devices


@dataclass(frozen=True)
class DirEntry:
    """One name in a directory listing (symlinks are reported as such, not followed)."""

    name: str
    kind: EntryKind


@dataclass(frozen=True)
class FileStat:
    """What tools need to know about a path: its kind, size, modification time and mode bits."""

    kind: EntryKind
    size: int
    mtime_ns: int
    mode: int

    @property
    def is_file(self) -> bool:
        return self.kind is EntryKind.FILE

    @property
    def is_dir(self) -> bool:
        return self.kind is EntryKind.DIR


@dataclass(frozen=True)
class ExecResult:
    """How a program ended. Its output went to the callbacks given to `run()`.

    `exit_code` is None when decode killed the program (`timed_out`); `stopped_leftovers` says
    background processes it left holding the output were stopped after it exited.
    """

    exit_code: int | None
    duration_s: float
    timed_out: bool = False
    stopped_leftovers: bool = False


class CommandExecutor(Protocol):
    """Where tools act: files and programs of one Workspace."""

    workspace: Path
    """The Workspace root, resolved (symlinks followed), as this executor sees it."""

    def realpath(self, path: Path) -> Path:
        """`path` with every symlink followed (missing tail components kept as they are)."""
        ...

    def stat(self, path: Path) -> FileStat | None:
        """The file or directory at `path` (symlinks followed), or None if nothing is there."""
        ...

    def list_dir(self, path: Path) -> list[DirEntry]:
        """The entries of a directory, in no particular order."""
        ...

    def open_read(self, path: Path) -> BinaryIO:
        """Open a file for reading bytes; the caller reads what it needs and closes it."""
        ...

    def write_atomic(self, path: Path, data: bytes) -> None:
        """Replace (or create) a file in one step, creating parent directories; an existing
        file keeps its mode. Readers see the old content or the new, never half of it."""
        ...

    def which(self, program: str) -> str | None:
        """The executable that `program` names here, or None when there is none."""
        ...

    async def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float,  # noqa: ASYNC109 (the process group must die with it, not just this task)
        on_stdout: OutputCallback,
        on_stderr: OutputCallback,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
    ) -> ExecResult:
        """Run a program to completion (stdin closed) in its own process group.

        Output goes to the callbacks as it comes. Past `timeout` seconds, or when the calling task
        is cancelled, the whole process group is killed. `cwd` defaults to the Workspace, `env` to
        the executor's command environment (which carries none of decode's secrets).
        """
        ...
