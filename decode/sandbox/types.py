"""The sandbox seam: what every backend (bwrap, docker, modal) provides, and nothing more.

A backend only starts, runs, spawns and closes. Environment, protected paths and file operations
live once in `SandboxExecutor` (`decode/sandbox/executor.py`), so no backend type leaks upward.
"""

from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Protocol

from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.sandbox.modes import SandboxMode


class SandboxError(Exception):
    """A sandbox that cannot start or run; the message says why and what to do."""


def refuse_nul(argv: Sequence[str], env: Mapping[str, str], cwd: Path) -> None:
    """A `ValueError` naming the part of a command that holds a NUL byte: the kernel takes each
    argument, variable and path as a C string, so no sandbox can pass one on whole."""
    for at, arg in enumerate(argv):
        if "\0" in arg:
            raise ValueError(f"argument {at} of the command ({arg[:40]!r}) holds a NUL byte, which no command line can")
    for name, value in env.items():
        if "\0" in name or "\0" in value:
            raise ValueError(f"the environment variable {name[:40]!r} holds a NUL byte, which no environment can")
    if "\0" in str(cwd):
        raise ValueError(f"the working directory {str(cwd)[:40]!r} holds a NUL byte, which no path can")


class SandboxBackend(Protocol):
    """One kind of sandbox. Constructed cheaply (no I/O); `preflight()` and `start()` do the work.

    `workspace` is the Workspace as commands inside see it; `host_workspace` the same directory on
    this machine when it is bind-mounted (bwrap, docker: then file operations are direct host I/O),
    None when the Workspace is remote (modal: file operations run as commands inside).
    """

    mode: SandboxMode
    workspace: Path
    host_workspace: Path | None

    def preflight(self) -> None:
        """Check, synchronously and quickly, that this backend can run here; `SandboxError` if not.

        Called when the loop is built, so `decode --sandbox X` refuses at once: never a fall back."""
        ...

    async def start(self) -> None:
        """Bring the sandbox up (a container, a Modal sandbox); `SandboxError` if it cannot."""
        ...

    async def run(self, request: ExecRequest) -> ExecResult:
        """Run a program inside to completion (see `CommandExecutor.run`); the request's `cwd` and
        `env` are set (`env` is the whole environment: nothing else passes), and its `network` lets
        this one command reach the network."""
        ...

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        """Start a long-lived program inside with pipes (an LSP or MCP server); no network."""
        ...

    async def close(self) -> None:
        """Stop everything still running inside and release the sandbox; safe to call twice."""
        ...
