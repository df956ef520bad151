"""The work of a remote Workspace (Modal: no directory on this machine), brought home as a git bundle.

Inside the sandbox, through the executor's `run`, git snapshots the Workspace as a commit (its
files staged in a private index, committed on top of its HEAD; nothing of the Workspace is changed
but a ref) and writes a bundle of it to stdout, without the history the host already has (the
clone's base). On the host, `git fetch` reads that bundle *file* into the Hand-back Repository:
data only, no config or hook of the sandbox's comes with it. From there the hand-back goes on as
for a local Workspace: the snapshot's parent is the HEAD, its tree the files.
"""

import asyncio
import shlex
from pathlib import Path

from decode.config.safe_git import SAFE_OPTIONS
from decode.entities.executor import CommandExecutor, ExecRequest
from decode.sandbox.host_git import checked, git
from decode.sandbox.workspace import Workspace, WorkspaceError

SNAPSHOT_REF = "refs/decode/snapshot"
SNAPSHOT_TIMEOUT_S = 300.0
MAX_BUNDLE_BYTES = 1 << 30
"""A bigger bundle is refused: the sandbox's output must not fill this machine's memory."""

# $1: the base commit the host already has ("" for none). Runs in the Workspace, inside, with
# no hook, fsmonitor or pager of the Workspace's (`SAFE_OPTIONS`; its filters run, but only in there).
_SAFE_GIT = f'git() {{ command {shlex.join(["git", *SAFE_OPTIONS])} "$@"; }}\n'
SNAPSHOT_SCRIPT = (
    _SAFE_GIT
    + r"""set -e
GIT_INDEX_FILE="$(mktemp)"; export GIT_INDEX_FILE; trap 'rm -f "$GIT_INDEX_FILE"' EXIT
head=$(git rev-parse --verify --quiet 'HEAD^{commit}') || head=
if [ -n "$head" ]; then git read-tree "$head"; else git read-tree --empty; fi
git add --all >&2
tree=$(git write-tree)
tip=$(git -c user.name=decode -c user.email=decode@localhost commit-tree "$tree" ${head:+-p "$head"} -m snapshot)
git update-ref refs/decode/snapshot "$tip"
exclude=
if [ -n "$1" ] && git cat-file -e "$1^{commit}" 2>/dev/null; then exclude="^$1"; fi
git bundle create - refs/decode/snapshot $exclude
"""
)


def is_remote(executor: CommandExecutor | None) -> bool:
    """The executor's Workspace is not a directory on this machine (a sandbox without `host_workspace`)."""
    backend = getattr(executor, "backend", None)
    return backend is not None and getattr(backend, "host_workspace", None) is None


async def fetch_snapshot(executor: CommandExecutor, workspace: Workspace) -> tuple[str | None, str]:
    """(the remote Workspace's HEAD or None, the tree of its files), fetched into the Hand-back
    Repository as `refs/decode/snapshot`. Raises `WorkspaceError`, `GitError`."""
    out, err = bytearray(), bytearray()

    def collect(chunk: bytes) -> None:
        if len(out) + len(chunk) > MAX_BUNDLE_BYTES:
            raise WorkspaceError(f"the Workspace's bundle is over {MAX_BUNDLE_BYTES >> 20} MiB")
        out.extend(chunk)

    argv = ["sh", "-c", SNAPSHOT_SCRIPT, "snapshot", workspace.base]
    request = ExecRequest(argv, timeout=SNAPSHOT_TIMEOUT_S, on_stdout=collect, on_stderr=err.extend)
    result = await executor.run(request)  # in the Workspace, where it is
    if result.exit_code != 0:
        why = err.decode(errors="replace").strip().splitlines()[-1:] or [f"exit {result.exit_code}"]
        raise WorkspaceError(f"could not snapshot the Workspace inside the sandbox: {why[0]}")
    repo = workspace.handback_repository
    bundle = repo / "decode-snapshot.bundle"
    await asyncio.to_thread(_write, bundle, bytes(out))
    fetched = await git("fetch", "--quiet", "--no-tags", str(bundle), f"+{SNAPSHOT_REF}:{SNAPSHOT_REF}", git_dir=repo)
    checked(fetched, "the Workspace's bundle cannot be read")
    tree = checked(await git("rev-parse", f"{SNAPSHOT_REF}^{{tree}}", git_dir=repo), "no snapshot")
    parent = await git("rev-parse", "--verify", "--quiet", f"{SNAPSHOT_REF}^", git_dir=repo)
    return (parent.stdout.strip() if parent.ok else None), tree


def _write(path: Path, data: bytes) -> None:
    path.write_bytes(data)
