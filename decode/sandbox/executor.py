"""`SandboxExecutor`: the executor seam over a sandbox backend.

Tools see one `CommandExecutor`, whichever backend runs underneath. This class adds what every
sandbox needs once: the environment built from nothing (`decode/sandbox/environment.py`), the
protected paths no file tool may write (`decode/sandbox/protected.py`), and file operations. When
the backend bind-mounts the Workspace at the same path (`host_workspace`), they are the local
executor's direct I/O on this machine: no path translation, no command per read. Otherwise (a
remote sandbox) they are the seam's defaults, built on `run`.
"""

import errno
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from decode.entities.executor import CommandExecutor, DirEntry, EntryKind, ExecRequest, ExecResult, FileStat, Process
from decode.processes.local import LocalExecutor, local_realpath
from decode.sandbox.protected import protected_name
from decode.sandbox.types import SandboxBackend, SandboxMode


class SandboxExecutor(CommandExecutor):
    """Files and commands of a Workspace inside a sandbox (see the module docstring)."""

    def __init__(self, backend: SandboxBackend, *, env: Mapping[str, str], network: bool = False) -> None:
        self.backend = backend
        self.workspace = backend.workspace
        self.env = dict(env)
        self.network = network
        """Every command may reach the network (`DECODE_SANDBOX_NETWORK`), not only those given it."""
        self.started = False
        # Direct I/O on the bind-mounted directory, with the sandbox's environment (for `which`).
        host = backend.host_workspace
        self._local = LocalExecutor(host, env=self.env) if host is not None else None

    @property
    def mode(self) -> SandboxMode:
        return self.backend.mode

    async def start(self) -> None:
        """Bring the backend up (once); `SandboxError` when it cannot."""
        if not self.started:
            await self.backend.start()
            self.started = True

    async def close(self) -> None:
        """Stop what still runs inside and release the sandbox."""
        await self.backend.close()
        self.started = False

    async def run(self, request: ExecRequest) -> ExecResult:
        await self.start()
        request = request.with_defaults(cwd=self.workspace, env=self.env)
        return await self.backend.run(replace(request, network=request.network or self.network))

    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        await self.start()
        return await self.backend.spawn(argv, cwd=cwd or self.workspace, env=self.env if env is None else env)

    # File operations: the local executor's when the Workspace is bind-mounted, else the defaults.

    async def realpath(self, path: Path) -> Path:
        return await (self._local.realpath(path) if self._local else super().realpath(path))

    async def stat(self, path: Path) -> FileStat | None:
        return await (self._local.stat(path) if self._local else super().stat(path))

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        return await (self._local.stat_many(paths) if self._local else super().stat_many(paths))

    async def list_dir(self, path: Path) -> list[DirEntry]:
        return await (self._local.list_dir(path) if self._local else super().list_dir(path))

    async def list_tree(self, root: Path) -> list[tuple[str, EntryKind]]:
        return await (self._local.list_tree(root) if self._local else super().list_tree(root))

    async def read_bytes(self, path: Path, start: int = 0, size: int | None = None) -> bytes:
        if self._local:
            return await self._local.read_bytes(path, start, size)
        return await super().read_bytes(path, start, size)

    async def read_many(self, paths: Sequence[Path]) -> dict[Path, bytes]:
        return await (self._local.read_many(paths) if self._local else super().read_many(paths))

    async def write_atomic(self, path: Path, data: bytes) -> None:
        await self._refuse_protected(path)
        if self._local:
            self._local.more_roots = self.more_roots  # `--add-dir` folders: roots too
            await self._local.write_atomic(path, data)  # confined: no symlink below the root followed
        else:
            await super().write_atomic(path, data)

    async def which(self, program: str) -> str | None:
        # bwrap's commands see the host's programs; a container's are its image's (`command -v` inside).
        host_programs = self._local is not None and self.mode is SandboxMode.BWRAP
        return await (self._local.which(program) if self._local and host_programs else super().which(program))

    async def _refuse_protected(self, path: Path) -> None:
        """A `PermissionError` when `path`, as written or with its symlinks followed, is protected."""
        real = await (local_realpath(path) if self._local else super().realpath(path))
        roots: tuple[Path, ...] = (self.workspace,)
        roots += self.more_roots  # `--add-dir` folders: their entries are protected as the Workspace's
        for candidate in (Path(path), real):
            if (name := next(filter(None, (protected_name(root, candidate) for root in roots)), None)) is not None:
                message = f"{name} is protected in a sandbox: neither tools nor commands may write it"
                raise PermissionError(errno.EACCES, message, str(path))
