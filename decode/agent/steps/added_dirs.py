"""The `--add-dir` step (lesson 17): folders besides the Workspace that the file tools may use.

Claude Code's "additional working directories". Each folder is given to the executor (`read`,
`write`, `edit`, `grep` and `glob` resolve paths in it as in the Workspace) and to the Permission
Gate (the mode judges a file there as one in the Workspace: reads run, writes ask in `default`
mode). Deny and ask rules, files that hold secrets (`.env`) and protected paths (`.git`,
`.decode`, `.claude`) stay what they are everywhere. Only the command line adds a folder: nothing
a repository holds can.

In a bwrap sandbox the folders are bound in, writable, as the Workspace is (their protected paths
read-only, their `.env` files hidden). docker and modal cannot take them yet: the run is refused
with one line (exit 2), never run with folders the sandbox cannot see.
"""

from decode.agent.build import Build
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError
from decode.sandbox.workspace import discard_workspace


def add_dirs(b: Build) -> None:
    """Give `--add-dir`'s folders to the executor, the sandbox and the gate."""
    folders = b.options.add_dirs
    if not folders:
        return
    if isinstance(b.executor, SandboxExecutor):
        from decode.sandbox.bwrap import BwrapBackend  # only a sandboxed session loads it

        backend = b.executor.backend
        if not isinstance(backend, BwrapBackend):
            if b.workspace is not None:
                discard_workspace(b.workspace)  # a `--repo` clone made for a run that does not start
            raise SandboxError(
                f"--add-dir cannot be used with --sandbox {b.executor.mode} yet: its sandbox cannot see "
                "folders outside the Workspace (use --sandbox bwrap or none)"
            )
        backend.added = folders
    b.executor.more_roots = folders
    b.gate.more_roots = tuple(str(folder) for folder in folders)
