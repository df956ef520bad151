"""The Workspace: a clone of the user's repository that the agent works in, under the Harness Home.

`decode --repo PATH|URL` (or `SANDBOX_REPO`) clones the source, host-side with the host's git
and credentials, into `.decode/workspaces/<session-id>/`; the executor (and the sandbox) then works
there and never sees the source. Beside the clone, out of the sandbox's reach:

    .decode/workspaces/<session-id>/       the Workspace (the sandbox's writable directory)
    .decode/workspaces/<session-id>.json   where it came from, and the commit it started at
    .decode/workspaces/<session-id>.git/   the Hand-back Repository (`decode.sandbox.handback`)

Resuming the session reuses its Workspace. Without `--repo` there is no clone: the executor
works on the launch directory itself, and nothing is handed back.
"""

import json
import logging
import os
import re
import shutil
from dataclasses import dataclass, field, replace
from datetime import UTC, datetime
from pathlib import Path

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.sandbox.host_git import git_sync, scrub, without_credential
from decode.sandbox.types import SandboxError

logger = logging.getLogger(__name__)

WORKSPACES_DIR = HARNESS_DIR / "workspaces"
BRANCH_PREFIX = "decode/"
_SCP_LIKE = re.compile(r"^[\w.-]+@[\w.-]+:")  # git@github.com:owner/repo.git
_SHA = re.compile(r"^(?:[0-9a-f]{40}|[0-9a-f]{64})$")
_REF = re.compile(r"^refs/(?:[A-Za-z0-9_.+-]+/)*[A-Za-z0-9_.+-]+$")


class WorkspaceError(SandboxError):
    """The Workspace cannot be made or read; the message says why and what to do."""


@dataclass(frozen=True)
class Workspace:
    """A clone the agent works in, and what the hand-back needs to know about it."""

    path: Path
    """The clone: the executor's (and the sandbox's) working directory."""
    source: str
    """What it was cloned from and is handed back to: an absolute path or a URL, with no credential
    in it (`without_credential`): it is written down, in the record and as the clone's `origin`."""
    session_id: str
    base: str
    """The commit the clone started at ("" when the source had none): nothing beyond it, nothing to ship."""
    fresh: bool = field(default=False, compare=False)
    """Cloned just now (not a resumed session's): `discard_workspace` may remove it if the session never starts."""
    remote: str = field(default="", compare=False, repr=False)
    """`--repo` as given, credential and all, when that differs from `source`: held in memory only, on
    the host, for host git's push; never written in the Workspace, its record or a log."""

    @property
    def push_url(self) -> str:
        """Where the hand-back pushes: `remote` if there is one (its credential), else `source`."""
        return self.remote or self.source

    @property
    def branch(self) -> str:
        """The branch the work comes back on: `decode/<session-id>`."""
        return f"{BRANCH_PREFIX}{self.session_id}"

    @property
    def handback_repository(self) -> Path:
        """decode's own git directory beside the clone: the sandbox never sees it."""
        return self.path.with_name(f"{self.path.name}.git")

    @property
    def record(self) -> Path:
        return self.path.with_name(f"{self.path.name}.json")


def is_url(repo: str) -> bool:
    """A URL git understands (`https://…`, `ssh://…`, `git@host:path`), not a local path."""
    return "://" in repo or bool(_SCP_LIKE.match(repo))


def resolve_source(repo: str, home: Path) -> str:
    """`--repo` as the source to clone: a URL as given, a path made absolute (relative to `home`)."""
    repo = repo.strip()
    if not repo:
        raise WorkspaceError("--repo is empty: give a repository's path or URL")
    if is_url(repo):
        return repo
    path = (home / Path(repo).expanduser()).resolve()
    if not path.is_dir():
        raise WorkspaceError(f"--repo {repo}: no such directory")
    # git would say the repository "does not exist" of a folder that is there but is no repository.
    bare = (path / "HEAD").is_file() and (path / "objects").is_dir()
    if not (path / ".git").exists() and not bare:
        raise WorkspaceError(f"--repo {repo}: {path} is not a git repository (no .git in it)")
    return str(path)


def session_workspace(home: Path, repo: str | None, session_id: str) -> Workspace | None:
    """The Workspace of this session: `repo` cloned (`open_workspace`), or, without `repo`, the one
    it already has (a resumed session goes on in its clone), or None: no clone, no hand-back."""
    if repo:
        return open_workspace(home, repo, session_id)
    return _load(home / WORKSPACES_DIR / session_id)


def open_workspace(home: Path, repo: str, session_id: str) -> Workspace:
    """The session's Workspace: cloned from `repo` now, or the one a resumed session already has.

    `WorkspaceError` when the clone fails (the message is git's) or the session's Workspace is a
    clone of another repository."""
    remote = resolve_source(repo, home)
    source = without_credential(remote)  # what is shown and written down; `remote` only reaches host git
    kept = remote if remote != source else ""
    path = home / WORKSPACES_DIR / session_id
    existing = _load(path)
    if existing is not None:
        if existing.source not in (source, remote):  # (a record from before the credential was left out)
            raise WorkspaceError(
                f"session {session_id}'s Workspace is a clone of {without_credential(existing.source)}, "
                f"not {source}: resume it with that --repo, or start a new session"
            )
        return replace(existing, source=source, remote=kept)
    if path.exists():
        raise WorkspaceError(f"{path} exists but is not a Workspace decode made: move it away and start again")
    try:
        make_parent_dirs(path)  # `.decode/` gets its .gitignore first
    except OSError as exc:  # a `.decode` linked out of the project, a read-only disk
        raise WorkspaceError(f"cannot make the Workspace: {exc}") from None
    # --no-hardlinks: the agent may write to the clone's object files; linked, they would be the source's.
    cloned = git_sync("clone", "--quiet", "--no-hardlinks", "--", remote, str(path), cwd=home)
    if not cloned.ok:
        shutil.rmtree(path, ignore_errors=True)
        raise WorkspaceError(f"could not clone {scrub(repo)}: {cloned.why()}")
    # The clone is host git's own work so far (nothing from the sandbox yet): safe to ask it.
    if kept:  # its `origin` names the source without the credential: the agent reads .git/config
        unset = git_sync("remote", "set-url", "origin", source, cwd=path)
        if not unset.ok:
            shutil.rmtree(path, ignore_errors=True)
            raise WorkspaceError(f"could not clone {source}: {unset.why()}")
    head = git_sync("rev-parse", "--verify", "--quiet", "HEAD^{commit}", cwd=path)
    base = head.stdout.strip() if head.ok else ""
    workspace = Workspace(path, source, session_id, base, fresh=True, remote=kept)
    record = {"source": source, "base": workspace.base, "created_at": datetime.now(UTC).isoformat()}
    workspace.record.write_text(json.dumps(record, indent=2) + "\n", encoding="utf-8")
    logger.info("cloned %s into the Workspace %s (at %s)", source, path, workspace.base[:12] or "no commit")
    return workspace


def discard_workspace(workspace: Workspace) -> None:
    """Remove a Workspace cloned for a session that could not start (its sandbox cannot run here)."""
    if workspace.fresh:
        shutil.rmtree(workspace.path, ignore_errors=True)
        workspace.record.unlink(missing_ok=True)


def _load(path: Path) -> Workspace | None:
    record = path.with_name(f"{path.name}.json")
    if not record.is_file():  # also when `.decode` is not a folder: no Workspace there
        return None
    try:
        data = json.loads(record.read_text(encoding="utf-8"))
    except (OSError, ValueError) as exc:
        raise WorkspaceError(f"cannot read {record}: {exc}") from exc
    if not isinstance(data, dict) or not isinstance(data.get("source"), str):
        raise WorkspaceError(f"{record} is not a Workspace record: move it away and start again")
    if not path.is_dir():
        raise WorkspaceError(f"the Workspace {path} is gone (its record {record} remains)")
    return Workspace(path, data["source"], path.name, str(data.get("base", "")))


# -- reading what the sandbox left, without running git in it -----------------------------------


def read_head(git_dir: Path) -> str | None:
    """The commit the Workspace's HEAD names, read from its files as data (None: no commit yet).

    Its `.git/` was written inside the sandbox: no git command runs there on the host, and no
    name in it may point outside it (`WorkspaceError`)."""
    if git_dir.is_symlink() or not git_dir.is_dir():
        raise WorkspaceError(f"{git_dir} is not a git directory (replaced inside the sandbox?)")
    value = _read_small(git_dir / "HEAD")
    for _ in range(5):  # a symbolic ref may name another one
        if _SHA.match(value):
            return value
        if not value.startswith("ref: "):
            raise WorkspaceError(f"{git_dir}/HEAD is not a commit or a ref: {value[:80]!r}")
        name = value.removeprefix("ref: ").strip()
        if not _REF.match(name) or ".." in name or name.endswith(".lock"):
            raise WorkspaceError(f"{git_dir}/HEAD names an invalid ref: {name[:80]!r}")
        loose = git_dir / name
        if loose.is_file() and not loose.is_symlink():
            value = _read_small(loose)
            continue
        packed = _packed_ref(git_dir, name)
        if packed is None:
            return None  # an unborn branch: no commit yet
        value = packed
    raise WorkspaceError(f"{git_dir}/HEAD: too many symbolic refs")


def _read_small(path: Path) -> str:
    try:
        with open(path, "rb", opener=lambda p, flags: os.open(p, flags | os.O_NOFOLLOW)) as file:
            return file.read(4096).decode("ascii", errors="replace").strip()
    except OSError as exc:
        raise WorkspaceError(f"cannot read {path}: {exc.strerror or exc}") from exc


def _packed_ref(git_dir: Path, name: str) -> str | None:
    path = git_dir / "packed-refs"
    if not path.is_file() or path.is_symlink():
        return None
    for line in path.read_text(encoding="ascii", errors="replace").splitlines():
        sha, _, ref = line.partition(" ")
        if ref.strip() == name and _SHA.match(sha):
            return sha
    return None
