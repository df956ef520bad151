"""The executor seam: the one door through which tools touch the Workspace.

No tool calls `open()` or `subprocess` itself, whether it reads files, runs programs or talks to
a server. It asks `deps.executor`, a `CommandExecutor`. A backend implements two methods:

- `run(request)`: run a program to completion, its output streamed to callbacks. One `ExecRequest`
  says what to run, where and how, and passes whole through every backend below (a sandbox's,
  then `run_process`), as httpx passes one `Request` through its transports;
- `spawn(argv, …)`: start a long-lived program with open stdin/stdout pipes (an LSP server).

Every file operation has a default built on `run` with the command-line tools of any GNU/Linux
image (coreutils' `realpath`, `stat`, `tail`, `mv`, findutils' `find` and `xargs`, GNU `tar`), one
command however many paths it is given, so a sandbox in a container or on another machine needs
nothing else (BusyBox and BSD tools lack some of the flags used: such a backend overrides those
operations). The local executor (`decode/processes/local.py`) overrides them all with direct I/O.
Every method is async, so a remote backend never blocks the event loop.

Paths are absolute paths *as the executor sees them*, under `executor.workspace`.
"""

import asyncio
import io
import os
import secrets
import stat as stat_module
from abc import ABC, abstractmethod
from collections.abc import Callable, Collection, Mapping, Sequence
from dataclasses import KW_ONLY, dataclass, replace
from enum import StrEnum
from pathlib import Path
from typing import Protocol

OutputCallback = Callable[[bytes], None]
"""Receives a running program's output, chunk by chunk, as it arrives."""

FILE_OP_TIMEOUT_S = 60.0
READ_MANY_MAX_BYTES = 16 << 20
"""`read_many` leaves out a file larger than this (16 MiB): it reads `.gitignore` files, the files a
search reads whole and the documents a language server has open, never a planted multi-gigabyte file."""
READ_MANY_TOTAL_BYTES = 64 << 20
"""`read_many` leaves out the files that would take it past this much in one call (64 MiB): a
repository's forty 16 MiB `.gitignore` files (they compress to nothing in git) cost 64 MiB, not 640."""


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
class ExecRequest:
    """One program to run to completion: what `CommandExecutor.run` takes, passed whole to the
    backends below it. A later lesson adds a field here, not a parameter to every backend.

    `stdin` is fed then closed. Output goes to the callbacks as it comes. Past `timeout` seconds
    the program is killed (the result says `timed_out`).
    """

    argv: Sequence[str]
    _: KW_ONLY
    timeout: float
    on_stdout: OutputCallback
    on_stderr: OutputCallback
    cwd: Path | None = None
    """None: the Workspace."""
    env: Mapping[str, str] | None = None
    """None: the executor's command environment. Otherwise the whole environment: nothing else passes."""
    stdin: bytes | None = None
    network: bool = False  # may reach the network where a backend isolates it (a sandbox)  # [lesson 17]

    def with_defaults(self, *, cwd: Path, env: Mapping[str, str]) -> "ExecRequest":
        """This request with the executor's `cwd` and `env` where it leaves them unset."""
        return replace(self, cwd=self.cwd or cwd, env=self.env if self.env is not None else env)

    def place(self) -> tuple[Path, Mapping[str, str]]:
        """Where it runs and with what environment, once an executor has filled them in (`with_defaults`)."""
        if self.cwd is None or self.env is None:
            raise ValueError("a request reaches a backend with its cwd and env set (`ExecRequest.with_defaults`)")
        return self.cwd, self.env


@dataclass(frozen=True)
class ExecResult:
    """How a program ended. Its output went to the request's callbacks.

    `exit_code` is None when decode killed the program (`timed_out`); `stopped_leftovers` says
    processes it left running (in the background, or holding its output) were stopped after it exited.
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
        """End the program now (and what it started, where the backend can)."""
        ...


class CommandExecutor(ABC):
    """Where tools act: the files and programs of one Workspace (see the module docstring)."""

    workspace: Path
    """The Workspace root, resolved (symlinks followed), as this executor sees it."""
    more_roots: tuple[Path, ...] = ()  # [lesson 17]
    """Folders besides the Workspace the file tools may use (`--add-dir`), resolved, as this executor sees them."""

    @abstractmethod
    async def run(self, request: ExecRequest) -> ExecResult:
        """Run a program to completion (see `ExecRequest`).

        Past the request's timeout (`timed_out`), or when the calling task is cancelled, the program
        is killed. A backend that can also ends what the program started, and stops whatever it left
        running when it exits (`stopped_leftovers`). The request's `cwd` defaults to the Workspace,
        its `env` to the executor's command environment.
        """

    @abstractmethod
    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        """Start a long-lived program with pipes for stdin, stdout and stderr."""

    # File operations: defaults built on `run`. Errors are `OSError`s, as local I/O raises them.
    # Many paths go on stdin, NUL-separated: a command line holds only so much (`ARG_MAX`), and a
    # name may hold any byte but NUL. Commands run with `LC_ALL=C`, so what they print is not
    # translated.

    async def realpath(self, path: Path) -> Path:
        """`path` with every symlink followed (missing tail components kept as they are).

        A symlink loop is left unresolved (`realpath -m`): the `stat` that follows finds nothing
        there. (The local executor reports a loop as an `OSError`.)
        """
        out = await self._output(["realpath", "-m", "--", str(path)])
        return Path(os.fsdecode(out.removesuffix(b"\n")))  # only the one newline realpath adds

    async def stat(self, path: Path) -> FileStat | None:
        """The file or directory at `path` (symlinks followed), or None if nothing is there."""
        return (await self.stat_many([path]))[0]

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        """`stat` of each path, in one round trip."""
        if not paths:
            return []
        # Mode bits in hex, not `%F` (a kind's name, translated in some locales); the name last,
        # so whatever bytes it holds stay in it. xargs exits 123 when a path was missing.
        argv = ["xargs", "-0", "stat", "-L", "--printf", "%f %s %.9Y %n\\0", "--"]
        out = await self._output(argv, stdin=_nul_joined(paths), ok=(0, 123))
        found: dict[bytes, FileStat] = {}
        for record in out.split(b"\0"):
            if record:
                mode, size, mtime, name = record.split(b" ", 3)
                found[name] = _file_stat(int(mode, 16), int(size), _nanoseconds(mtime.decode()))
        return [found.get(os.fsencode(path)) for path in paths]

    async def list_dir(self, path: Path) -> list[DirEntry]:
        """The entries of a directory, in no particular order."""
        # `-H` follows a symlink to a directory, as `os.scandir` does; a file is an error, as there.
        script = (
            'if [ -d "$1" ]; then exec find -H "$1" -mindepth 1 -maxdepth 1 -printf "%y\\t%f\\0"; fi; '
            'if [ -e "$1" ]; then why="Not a directory"; else why="No such file or directory"; fi; '
            'printf "%s: %s\\n" "$1" "$why" >&2; exit 1'
        )
        out = await self._output(["sh", "-c", script, "sh", str(path)])
        return [_parse_entry(item) for item in out.split(b"\0") if item]

    async def list_tree(self, root: Path) -> list[tuple[str, EntryKind]]:
        """Every path under `root` (relative, posix) with its kind, in one round trip.

        `.git` directories are listed but not entered; symlinks are not followed (but `root` is).
        A directory that cannot be read is skipped, as ripgrep skips it (find then exits 1).
        """
        argv = ["find", "-H", str(root), "-mindepth", "1", "-name", ".git", "-prune", "-printf", "%y\\t%P\\0"]
        out = await self._output([*argv, "-o", "-printf", "%y\\t%P\\0"], ok=(0, 1))
        entries = (_parse_entry(item) for item in out.split(b"\0") if item)
        return [(entry.name, entry.kind) for entry in entries]

    async def read_bytes(self, path: Path, start: int = 0, size: int | None = None) -> bytes:
        """Up to `size` bytes of a file from byte `start` (all the rest when `size` is None)."""
        if size is None:
            return await self._output(["tail", "-c", f"+{start + 1}", "--", str(path)])
        # `head` closes the pipe early, so `tail`'s exit code says nothing: read one byte of the
        # file first, which fails as the read would (missing, a directory, no permission).
        script = 'head -c 1 -- "$2" >/dev/null || exit 1; tail -c "+$1" -- "$2" | head -c "$3"'
        return await self._output(["sh", "-c", script, "sh", str(start + 1), str(path), str(size)])

    async def read_many(self, paths: Sequence[Path]) -> dict[Path, bytes]:
        """The whole content of each readable file, in one round trip (unreadable ones left out,
        and files over `READ_MANY_MAX_BYTES` or past `READ_MANY_TOTAL_BYTES` in all).

        Symlinks are followed, as `read_bytes` follows them.
        """
        kept, total = [], 0
        for path, seen in zip(paths, await self.stat_many(paths), strict=True):
            if seen and seen.is_file and seen.size <= min(READ_MANY_MAX_BYTES, READ_MANY_TOTAL_BYTES - total):
                kept.append(path)
                total += seen.size
        paths = kept
        if not paths:
            return {}
        # One tar archive of them all. `-P` keeps the absolute names (never taken for options),
        # `-h` follows symlinks, `--hard-dereference` stores a second name of the same file as a
        # file (not as a link to the first), `--no-recursion` leaves a directory's files out.
        argv = ["tar", "-c", "-f", "-", "-P", "-h", "--hard-dereference", "--no-recursion", "--ignore-failed-read"]
        out = await self._output([*argv, "--null", "-T", "-"], stdin=_nul_joined(paths), ok=(0, 1))
        found: dict[Path, bytes] = {}
        import tarfile  # only backends without direct file access come here

        with tarfile.open(fileobj=io.BytesIO(out), mode="r:") as archive:
            for member in archive:
                if member.isfile() and member.size <= READ_MANY_MAX_BYTES and (handle := archive.extractfile(member)):
                    found[Path(member.name)] = handle.read()
        return found

    async def write_atomic(self, path: Path, data: bytes) -> None:
        """Replace (or create) a file in one step, creating parent directories; an existing
        file keeps its mode. Readers see the old content or the new, never half of it."""
        temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.decode-tmp")
        # `set -C`: the temporary file must be new; the trap removes it whatever fails; `mv -T`
        # refuses to replace a directory (plain `mv` would move the file into it).
        script = (
            'set -eC; trap \'rm -f -- "$3"\' EXIT; mkdir -p -- "$2"; cat > "$3"; '
            'if [ -e "$1" ]; then chmod --reference="$1" -- "$3"; fi; sync -- "$3"; mv -f -T -- "$3" "$1"'
        )
        await self._output(["sh", "-c", script, "sh", str(path), str(path.parent), str(temporary)], stdin=data)

    async def which(self, program: str) -> str | None:
        """The executable that `program` names here, or None when there is none."""
        try:
            out = await self._output(["sh", "-c", 'command -v -- "$1"', "sh", program])
        except OSError:
            return None
        return out.decode().strip() or None

    async def _output(self, argv: Sequence[str], *, stdin: bytes | None = None, ok: Collection[int] = (0,)) -> bytes:
        """Run a file-operation command and return its stdout; another exit code is an `OSError`."""
        out, err = bytearray(), bytearray()
        request = ExecRequest(
            ["env", "LC_ALL=C", *argv],
            timeout=FILE_OP_TIMEOUT_S,
            on_stdout=out.extend,
            on_stderr=err.extend,
            stdin=stdin,
        )
        result = await self.run(request)
        if result.exit_code not in ok:
            message = err.decode("utf-8", errors="replace").strip().splitlines()
            if result.timed_out:
                message.append(f"{argv[0]} timed out after {FILE_OP_TIMEOUT_S:g} s")
            raise OSError(message[-1] if message else f"{argv[0]} failed")
        return bytes(out)


def _nul_joined(paths: Sequence[Path]) -> bytes:
    return b"".join(os.fsencode(path) + b"\0" for path in paths)


def _nanoseconds(stamp: str) -> int:
    """`-1.500000000` (stat's `%.9Y`) in nanoseconds; the sign applies to the fraction too."""
    seconds, _, fraction = stamp.lstrip("-").partition(".")
    nanoseconds = int(seconds) * 1_000_000_000 + int(fraction.ljust(9, "0")[:9])
    return -nanoseconds if stamp.startswith("-") else nanoseconds


def _file_stat(mode: int, size: int, mtime_ns: int) -> FileStat:
    if stat_module.S_ISREG(mode):
        kind = EntryKind.FILE
    elif stat_module.S_ISDIR(mode):
        kind = EntryKind.DIR
    else:
        kind = EntryKind.OTHER  # a symlink is followed: what is left are fifos, sockets, devices
    return FileStat(kind=kind, size=size, mtime_ns=mtime_ns, mode=mode)


_FIND_KINDS = {b"f": EntryKind.FILE, b"d": EntryKind.DIR, b"l": EntryKind.SYMLINK}


def _parse_entry(item: bytes) -> DirEntry:
    kind, _, name = item.partition(b"\t")
    return DirEntry(name.decode("utf-8", errors="surrogateescape"), _FIND_KINDS.get(kind, EntryKind.OTHER))
