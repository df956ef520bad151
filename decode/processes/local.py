"""The local executor: the Workspace is a directory on this machine, commands run here.

The first implementation of the executor seam (`decode/entities/executor.py`). It implements the
two required methods with real processes and overrides every file operation with direct I/O,
which is many times faster than a command per call. With no sandbox, what the agent does is
exactly what you would do in that directory yourself.
"""

import asyncio
import errno
import os
import shutil
import stat as stat_module
import sys
from collections.abc import Mapping, Sequence
from pathlib import Path

from decode.entities.executor import (
    READ_MANY_MAX_BYTES,
    READ_MANY_TOTAL_BYTES,
    CommandExecutor,
    DirEntry,
    EntryKind,
    ExecRequest,
    ExecResult,
    FileStat,
    Process,
)
from decode.files import write_atomic

# [lesson 05]
from decode.processes.environment import inherited_environment
from decode.processes.run import run_process
from decode.processes.spawn import spawn_process

# [before lesson 05]
# inherited_environment = os.environ.copy  # what commands inherit: all of this process's environment
# [/lesson 05]


def _kind(mode: int) -> EntryKind:
    if stat_module.S_ISREG(mode):
        return EntryKind.FILE
    if stat_module.S_ISDIR(mode):
        return EntryKind.DIR
    if stat_module.S_ISLNK(mode):
        return EntryKind.SYMLINK
    return EntryKind.OTHER


def _entry_kind(entry: os.DirEntry[str]) -> EntryKind:
    if entry.is_symlink():
        return EntryKind.SYMLINK
    if entry.is_dir(follow_symlinks=False):
        return EntryKind.DIR
    if entry.is_file(follow_symlinks=False):
        return EntryKind.FILE
    return EntryKind.OTHER


async def local_realpath(path: Path) -> Path:
    """`path` with every symlink followed, on this machine (missing tail components kept).

    A symlink loop is an `OSError` (`ELOOP`), as `realpath -m` reports it: `os.path.realpath`
    alone would hand the loop back unresolved, for the next `stat` or `open` to fail on.
    """
    real = os.path.realpath(path)  # noqa: ASYNC240 (microseconds: see LocalExecutor)
    try:
        info = os.lstat(real)
    except (FileNotFoundError, NotADirectoryError):
        return Path(real)  # a missing tail is kept as it is
    except OSError as exc:
        if exc.errno != errno.ENAMETOOLONG:
            raise
        return Path(real)  # resolved, just too long to use: the caller says so
    if stat_module.S_ISLNK(info.st_mode):  # still a link after resolving: a loop
        raise OSError(errno.ELOOP, os.strerror(errno.ELOOP), str(path))
    return Path(real)


INLINE_READ_BYTES = 256 * 1024
"""Reads up to this size run on the event loop itself (see `LocalExecutor`)."""


class LocalExecutor(CommandExecutor):
    """Files and commands of a Workspace on the local machine."""

    def __init__(self, workspace: Path, *, env: Mapping[str, str] | None = None) -> None:
        self.workspace = workspace.resolve()
        # The one place the agent's commands inherit the process environment (from lesson 05 on,
        # without decode's own credentials).
        self.env = inherited_environment() if env is None else dict(env)

    async def run(self, request: ExecRequest) -> ExecResult:
        request = request.with_defaults(cwd=self.workspace, env=self.env)
        # [lesson 05]
        return await run_process(request)
        # [before lesson 05]
        # started, p, (cwd, env) = asyncio.get_running_loop().time(), asyncio.subprocess.PIPE, request.place()
        # process = await asyncio.create_subprocess_exec(*request.argv, cwd=cwd, env=env, stdin=p, stdout=p, stderr=p)
        # try:
        #     out, err = await asyncio.wait_for(process.communicate(request.stdin), request.timeout)
        # except TimeoutError:  # the program is killed, but not what it started in the background
        #     process.kill()
        #     return ExecResult(exit_code=None, duration_s=asyncio.get_running_loop().time() - started, timed_out=True)
        # request.on_stdout(out)
        # request.on_stderr(err)
        # return ExecResult(exit_code=process.returncode, duration_s=asyncio.get_running_loop().time() - started)
        # [/lesson 05]

    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        # [lesson 05]
        return await spawn_process(argv, cwd=cwd or self.workspace, env=self.env if env is None else env)
        # [before lesson 05]
        # from typing import cast
        #
        # pipe, environment = asyncio.subprocess.PIPE, self.env if env is None else env
        # process = await asyncio.create_subprocess_exec(
        #     *argv, cwd=cwd or self.workspace, env=environment, stdin=pipe, stdout=pipe, stderr=pipe
        # )
        # return cast(Process, process)  # asyncio types the pipes as optional; all three are set here
        # [/lesson 05]

    # A stat, a realpath or a read of a page of a file takes microseconds here, less than a hop to
    # a worker thread (which on a busy machine costs milliseconds); whole files, many files and
    # writes, which can take long, go to one.

    async def realpath(self, path: Path) -> Path:
        return await local_realpath(path)

    async def stat(self, path: Path) -> FileStat | None:
        try:
            info = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        return FileStat(kind=_kind(info.st_mode), size=info.st_size, mtime_ns=info.st_mtime_ns, mode=info.st_mode)

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        return [_stat_or_none(path) for path in paths]

    async def list_dir(self, path: Path) -> list[DirEntry]:
        with os.scandir(path) as scan:
            return [DirEntry(entry.name, _entry_kind(entry)) for entry in scan]

    async def list_tree(self, root: Path) -> list[tuple[str, EntryKind]]:
        return await asyncio.to_thread(_list_tree, root)

    async def read_bytes(self, path: Path, start: int = 0, size: int | None = None) -> bytes:
        if size is not None and size <= INLINE_READ_BYTES:
            return _read_bytes(path, start, size)
        return await asyncio.to_thread(_read_bytes, path, start, size)

    async def read_many(self, paths: Sequence[Path]) -> dict[Path, bytes]:
        return await asyncio.to_thread(_read_many, paths)

    async def write_atomic(self, path: Path, data: bytes) -> None:
        # Confined: no symlink below the Workspace root is followed, whatever a command running
        # meanwhile does to the tree (a directory swapped for a link after the path was checked).
        # [lesson 17]
        root = next((folder for folder in self.more_roots if path.is_relative_to(folder)), self.workspace)
        await asyncio.to_thread(write_atomic, path, data, root=root)  # an `--add-dir` folder is a root too
        # [before lesson 17]
        # await asyncio.to_thread(write_atomic, path, data, root=self.workspace)
        # [/lesson 17]

    async def which(self, program: str) -> str | None:
        # The PATH commands get (the user's) decides, never decode's own venv first: a user's
        # `pylsp` sees their project's packages, the one in decode's venv does not (ADR-0095).
        found = shutil.which(program, path=self.env.get("PATH"))
        if found is None and program in BUNDLED_PROGRAMS:
            return bundled_program(program)
        return found


BUNDLED_PROGRAMS = frozenset({"rg"})
"""Programs decode installs with itself (the `ripgrep` package's `rg`), found beside decode's Python
when the PATH has none (decode started by its full path, its venv not on PATH)."""


def bundled_program(program: str) -> str | None:
    """`program` in the folder of decode's own Python, if it is there and can run."""
    bundled = Path(sys.executable).parent / program
    return str(bundled) if bundled.is_file() and os.access(bundled, os.X_OK) else None


def _stat_or_none(path: Path) -> FileStat | None:
    """`stat` for listings: anything that cannot be looked at (a loop, a name too long) is not there."""
    try:
        info = os.stat(path)
    except (OSError, ValueError):
        return None
    return FileStat(kind=_kind(info.st_mode), size=info.st_size, mtime_ns=info.st_mtime_ns, mode=info.st_mode)


def open_regular(path: Path) -> int:
    """A descriptor for reading the regular file at `path`; an `OSError` for anything else.

    Opened non-blocking and checked after opening (not before), so a FIFO or a device swapped in
    after a tool looked is refused too, instead of blocking this thread forever.
    """
    fd = os.open(path, os.O_RDONLY | os.O_NONBLOCK | os.O_NOCTTY | os.O_CLOEXEC)
    try:
        mode = os.fstat(fd).st_mode
        if stat_module.S_ISDIR(mode):
            raise IsADirectoryError(errno.EISDIR, os.strerror(errno.EISDIR), str(path))
        if not stat_module.S_ISREG(mode):
            raise OSError(errno.EINVAL, "Not a regular file (a pipe, socket or device)", str(path))
        os.set_blocking(fd, True)
    except BaseException:
        os.close(fd)
        raise
    return fd


def _read_bytes(path: Path, start: int, size: int | None) -> bytes:
    with open(open_regular(path), "rb") as handle:
        handle.seek(start)
        return handle.read(-1 if size is None else size)


def _read_many(paths: Sequence[Path]) -> dict[Path, bytes]:
    found: dict[Path, bytes] = {}
    total = 0
    for path in paths:
        limit = min(READ_MANY_MAX_BYTES, READ_MANY_TOTAL_BYTES - total)
        try:
            with open(open_regular(path), "rb") as handle:
                data = handle.read(limit + 1)  # a file still growing stops here too
        except (OSError, ValueError):
            continue
        if len(data) <= limit:
            found[path] = data
            total += len(data)
    return found


def _list_tree(root: Path) -> list[tuple[str, EntryKind]]:
    """`list_tree` on this machine: a walk that lists `.git` but does not enter it."""
    found: list[tuple[str, EntryKind]] = []
    stack = [""]
    while stack:
        relative = stack.pop()
        try:
            with os.scandir(root / relative if relative else root) as scan:
                entries = [(entry.name, _entry_kind(entry)) for entry in scan]
        except OSError:
            continue  # unreadable: ripgrep skips it quietly too
        for name, kind in entries:
            path = f"{relative}/{name}" if relative else name
            found.append((path, kind))
            if kind is EntryKind.DIR and name != ".git":
                stack.append(path)
    return found
