"""The executor seam: the one door through which tools touch the Workspace.

File tools, bash, language servers and MCP servers never call `open()` or `subprocess`
themselves. They ask `deps.executor`, a `CommandExecutor`. A backend implements two methods:

- `run(argv, …)`: run a program to completion, its output streamed to callbacks;
- `spawn(argv, …)`: start a long-lived program with open stdin/stdout pipes (an LSP server).

Every file operation has a default built on `run` with POSIX tools (`realpath`, `stat`, `find`,
`tail`, `tar`, `mv`), one command however many paths it is given, so a sandbox in a container or
on another machine needs nothing else. The local executor (`decode/tools/local.py`) overrides them
with direct I/O. Every method is async, so a remote backend never blocks the event loop.

Paths are absolute paths *as the executor sees them*, under `executor.workspace`.
"""

import asyncio
import io
import tarfile
from abc import ABC, abstractmethod
from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Protocol

OutputCallback = Callable[[bytes], None]
"""Receives a running program's output, chunk by chunk, as it arrives."""

FILE_OP_TIMEOUT_S = 60.0


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


class Process(Protocol):
    """A long-lived program started by `spawn`: write to `stdin`, read `stdout` and `stderr`."""

    stdin: asyncio.StreamWriter
    stdout: asyncio.StreamReader
    stderr: asyncio.StreamReader

    @property
    def returncode(self) -> int | None: ...

    async def wait(self) -> int:
        """Wait for the program to end; its exit code."""
        ...

    def kill(self) -> None:
        """End the program and everything it started, now."""
        ...


class CommandExecutor(ABC):
    """Where tools act: the files and programs of one Workspace (see the module docstring)."""

    workspace: Path
    """The Workspace root, resolved (symlinks followed), as this executor sees it."""

    @abstractmethod
    async def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float,  # noqa: ASYNC109 (the process group must die with it, not just this task)
        on_stdout: OutputCallback,
        on_stderr: OutputCallback,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> ExecResult:
        """Run a program to completion in its own process group; `stdin` is fed then closed.

        Output goes to the callbacks as it comes. Past `timeout` seconds, or when the calling task
        is cancelled, everything the program started is killed. `cwd` defaults to the Workspace,
        `env` to the executor's command environment (which carries none of decode's secrets).
        """

    @abstractmethod
    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        """Start a long-lived program with pipes for stdin, stdout and stderr."""

    # File operations: defaults built on `run`. Errors are `OSError`s, as local I/O raises them.

    async def realpath(self, path: Path) -> Path:
        """`path` with every symlink followed (missing tail components kept as they are)."""
        out = await self._output(["realpath", "-m", "--", str(path)])
        return Path(out.decode("utf-8", errors="surrogateescape").rstrip("\n"))

    async def stat(self, path: Path) -> FileStat | None:
        """The file or directory at `path` (symlinks followed), or None if nothing is there."""
        return (await self.stat_many([path]))[0]

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        """`stat` of each path, in one round trip."""
        if not paths:
            return []
        script = 'for p; do stat -L --printf "%F\\t%s\\t%.9Y\\t%f\\n" -- "$p" 2>/dev/null || echo missing; done'
        out = await self._output(["sh", "-c", script, "sh", *map(str, paths)])
        return [_parse_stat(line) for line in out.decode().splitlines()]

    async def list_dir(self, path: Path) -> list[DirEntry]:
        """The entries of a directory, in no particular order."""
        out = await self._output(["find", str(path), "-mindepth", "1", "-maxdepth", "1", "-printf", "%y\\t%f\\0"])
        return [_parse_entry(item) for item in out.split(b"\0") if item]

    async def list_tree(self, root: Path) -> list[tuple[str, EntryKind]]:
        """Every path under `root` (relative, posix) with its kind, in one round trip.

        `.git` directories are listed but not entered; symlinks are not followed.
        """
        argv = ["find", str(root), "-mindepth", "1", "-name", ".git", "-prune", "-printf", "%y\\t%P\\0"]
        out = await self._output([*argv, "-o", "-printf", "%y\\t%P\\0"])
        entries = (_parse_entry(item) for item in out.split(b"\0") if item)
        return [(entry.name, entry.kind) for entry in entries]

    async def read_bytes(self, path: Path, start: int = 0, size: int | None = None) -> bytes:
        """Up to `size` bytes of a file from byte `start` (all the rest when `size` is None)."""
        if size is None:
            return await self._output(["tail", "-c", f"+{start + 1}", "--", str(path)])
        # `head` closes the pipe early, so `tail`'s exit code says nothing: check the file first.
        script = 'head -c 0 -- "$2" || exit 1; tail -c "+$1" -- "$2" | head -c "$3"'
        return await self._output(["sh", "-c", script, "sh", str(start + 1), str(path), str(size)])

    async def read_many(self, paths: Sequence[Path]) -> dict[Path, bytes]:
        """The whole content of each readable file, in one round trip (unreadable ones left out)."""
        if not paths:
            return {}
        names = [str(path).lstrip("/") for path in paths]
        out = bytearray()
        await self.run(
            ["tar", "-c", "-f", "-", "-C", "/", "--ignore-failed-read", "--", *names],
            timeout=FILE_OP_TIMEOUT_S,
            on_stdout=out.extend,
            on_stderr=lambda _chunk: None,
        )
        found: dict[Path, bytes] = {}
        with tarfile.open(fileobj=io.BytesIO(bytes(out)), mode="r:") as archive:
            for member in archive:
                if member.isfile() and (handle := archive.extractfile(member)) is not None:
                    found[Path("/" + member.name)] = handle.read()
        return found

    async def write_atomic(self, path: Path, data: bytes) -> None:
        """Replace (or create) a file in one step, creating parent directories; an existing
        file keeps its mode. Readers see the old content or the new, never half of it."""
        script = (
            'set -e; mkdir -p -- "$(dirname -- "$1")"; t="$(dirname -- "$1")/.$(basename -- "$1").$$.decode-tmp"; '
            'cat > "$t"; if [ -e "$1" ]; then chmod --reference="$1" -- "$t"; fi; mv -f -- "$t" "$1"'
        )
        await self._output(["sh", "-c", script, "sh", str(path)], stdin=data)

    async def which(self, program: str) -> str | None:
        """The executable that `program` names here, or None when there is none."""
        try:
            out = await self._output(["sh", "-c", 'command -v -- "$1"', "sh", program])
        except OSError:
            return None
        return out.decode().strip() or None

    async def _output(self, argv: Sequence[str], *, stdin: bytes | None = None) -> bytes:
        """Run a file-operation command and return its stdout; a failure is an `OSError`."""
        out, err = bytearray(), bytearray()
        result = await self.run(
            argv, timeout=FILE_OP_TIMEOUT_S, on_stdout=out.extend, on_stderr=err.extend, stdin=stdin
        )
        if result.exit_code != 0:
            message = err.decode("utf-8", errors="replace").strip().splitlines()
            raise OSError(message[-1] if message else f"{argv[0]} failed")
        return bytes(out)


_KINDS = {"regular file": EntryKind.FILE, "regular empty file": EntryKind.FILE, "directory": EntryKind.DIR}
_FIND_KINDS = {b"f": EntryKind.FILE, b"d": EntryKind.DIR, b"l": EntryKind.SYMLINK}


def _parse_stat(line: str) -> FileStat | None:
    if line == "missing":
        return None
    kind, size, mtime, mode = line.split("\t")
    seconds, _, fraction = mtime.partition(".")
    mtime_ns = int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")[:9] or 0)
    return FileStat(kind=_KINDS.get(kind, EntryKind.OTHER), size=int(size), mtime_ns=mtime_ns, mode=int(mode, 16))


def _parse_entry(item: bytes) -> DirEntry:
    kind, _, name = item.partition(b"\t")
    return DirEntry(name.decode("utf-8", errors="surrogateescape"), _FIND_KINDS.get(kind, EntryKind.OTHER))
