"""The local executor: the Workspace is a directory on this machine, commands run here.

The first implementation of the executor seam (`executor.py`). With no sandbox, what the agent
does is exactly what you would do in that directory yourself.
"""

import os
import shutil
import stat as stat_module
import sys
import uuid
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import BinaryIO

from decode.tools.environment import command_environment
from decode.tools.executor import DirEntry, EntryKind, ExecResult, FileStat, OutputCallback
from decode.tools.process import run_process


def _kind(mode: int) -> EntryKind:
    if stat_module.S_ISREG(mode):
        return EntryKind.FILE
    if stat_module.S_ISDIR(mode):
        return EntryKind.DIR
    if stat_module.S_ISLNK(mode):
        return EntryKind.SYMLINK
    return EntryKind.OTHER


class LocalExecutor:
    """Files and commands of a Workspace on the local machine."""

    def __init__(self, workspace: Path, *, env: Mapping[str, str] | None = None) -> None:
        self.workspace = workspace.resolve()
        if env is None:
            from decode.config.settings import Settings

            # The one place the agent's commands inherit the process environment.
            env = command_environment(os.environ, Settings.secret_env_names())
        self.env = dict(env)

    def realpath(self, path: Path) -> Path:
        return Path(os.path.realpath(path))

    def stat(self, path: Path) -> FileStat | None:
        try:
            info = os.stat(path)
        except (FileNotFoundError, NotADirectoryError):
            return None
        return FileStat(kind=_kind(info.st_mode), size=info.st_size, mtime_ns=info.st_mtime_ns, mode=info.st_mode)

    def list_dir(self, path: Path) -> list[DirEntry]:
        entries = []
        with os.scandir(path) as scan:
            for entry in scan:
                if entry.is_symlink():
                    kind = EntryKind.SYMLINK
                elif entry.is_dir(follow_symlinks=False):
                    kind = EntryKind.DIR
                elif entry.is_file(follow_symlinks=False):
                    kind = EntryKind.FILE
                else:
                    kind = EntryKind.OTHER
                entries.append(DirEntry(entry.name, kind))
        return entries

    def open_read(self, path: Path) -> BinaryIO:
        return open(path, "rb")  # the caller closes it

    def write_atomic(self, path: Path, data: bytes) -> None:
        path.parent.mkdir(parents=True, exist_ok=True)
        try:
            mode: int | None = stat_module.S_IMODE(os.stat(path).st_mode)
        except FileNotFoundError:
            mode = None
        # The temporary file sits beside the target, so the rename stays on one filesystem.
        temporary = path.with_name(f".{path.name}.{uuid.uuid4().hex[:8]}.decode-tmp")
        # 0o666 and the process umask: a new file gets the mode any editor would give it.
        fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666)
        try:
            with os.fdopen(fd, "wb") as handle:
                handle.write(data)
                handle.flush()
                os.fsync(handle.fileno())
            if mode is not None:
                os.chmod(temporary, mode)
            os.replace(temporary, path)
        except BaseException:
            temporary.unlink(missing_ok=True)
            raise

    def which(self, program: str) -> str | None:
        # The venv's own bin first: the `ripgrep` package installs `rg` there, and the venv may
        # not be on PATH (decode started by its full path).
        bundled = Path(sys.prefix) / "bin" / program
        if bundled.is_file() and os.access(bundled, os.X_OK):
            return str(bundled)
        return shutil.which(program, path=self.env.get("PATH"))

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
        return await run_process(
            argv,
            cwd=cwd or self.workspace,
            env=self.env if env is None else env,
            timeout=timeout,
            on_stdout=on_stdout,
            on_stderr=on_stderr,
        )
