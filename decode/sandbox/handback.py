"""The hand-back: the Workspace's work, as branch `decode/<session-id>`, pushed to the source.

At `/ship`, when the REPL exits and when `decode run --repo` finishes. All of it runs host-side,
with the host's git and, for the push only, the host's credentials; the sandbox never holds them.

1. The Hand-back Repository (`.decode/workspaces/<id>.git`, bare, decode's own) borrows the
   Workspace's objects (`objects/info/alternates`): the model's own commits come as they are.
2. The Workspace's HEAD is read from its files (`read_head`), its files staged into a private
   index (`add -A` with the Workspace as work tree) and committed with `commit-tree`, in the
   `private` environment: no hook, no fsmonitor, no filter or config of the Workspace's, or even
   the user's, runs on what the agent wrote (`decode.sandbox.host_git`).
3. The branch is pushed to the source, a path or a URL. Pushing a new branch to a non-bare
   repository leaves its working tree, index, HEAD and other branches as they were.

A second hand-back in the same session continues the branch (a fast-forward, never a force).
Nothing to ship (no commit, no change) does nothing. A push that fails keeps the branch in the
Hand-back Repository, and the report says where and how to push it by hand.
"""

import asyncio
import logging
import shlex
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path

from decode.entities.executor import CommandExecutor
from decode.sandbox.bundle import fetch_snapshot, is_remote
from decode.sandbox.host_git import GitError, checked, git
from decode.sandbox.protected import PROTECTED
from decode.sandbox.workspace import Workspace, WorkspaceError, read_head

logger = logging.getLogger(__name__)

SHOWN = 20
"""Commits and files listed in a report; the rest are counted."""
_IDENTITY = ("decode", "decode@localhost")
"""The committer when the host's git names none (`user.name`, `user.email`)."""


class Outcome(StrEnum):
    SHIPPED = "shipped"
    """The branch is in the source."""
    NOTHING = "nothing"
    """Nothing to ship: no commit and no change since the clone (or since the last hand-back)."""
    KEPT = "kept"
    """Committed, but the push failed: the branch is kept in the Hand-back Repository."""
    FAILED = "failed"
    """Not even committed (the Workspace is unreadable, git is missing…): the Workspace is as it was."""


@dataclass(frozen=True)
class HandBack:
    """What a hand-back did, for the REPL and `decode run` to report."""

    workspace: Workspace
    outcome: Outcome
    tip: str = ""
    commits: tuple[str, ...] = ()
    """`abc1234 subject` of each commit on the branch beyond the clone's base, newest first."""
    commit_count: int = 0
    files: tuple[str, ...] = ()
    """`M path` of each file the branch changes against the base."""
    error: str = ""
    already: bool = False
    """NOTHING because the branch already holds everything, shipped before in this session."""

    def report(self) -> list[str]:
        """The lines a user reads: what was shipped where, or why not and where the work is."""
        ws = self.workspace
        if self.outcome is Outcome.NOTHING:
            if self.already:
                return [f"hand-back: nothing new to ship ({ws.branch} in {ws.source} has it all)"]
            return [f"hand-back: nothing to ship (no commit and no change in the Workspace {ws.path})"]
        if self.outcome is Outcome.FAILED:
            return [f"hand-back failed: {self.error}", f"  the work stays in the Workspace {ws.path}"]
        verb = "shipped" if self.outcome is Outcome.SHIPPED else "committed (not pushed)"
        lines = [
            f"hand-back: {verb} {ws.branch} — {_count(self.commit_count, 'commit')}, {_count(len(self.files), 'file')}"
        ]
        lines += [f"  {commit}" for commit in self.commits]
        if self.commit_count > len(self.commits):
            lines.append(f"  … and {self.commit_count - len(self.commits)} more commits")
        lines += [f"    {file}" for file in self.files[:SHOWN]]
        if len(self.files) > SHOWN:
            lines.append(f"    … and {len(self.files) - SHOWN} more files")
        if self.outcome is Outcome.SHIPPED:
            lines.append(f"  pushed to {ws.source} (its working tree, index and HEAD are untouched)")
        else:
            repo = ws.handback_repository
            lines += [
                f"  the push to {ws.source} failed: {self.error}",
                f"  the branch {ws.branch} is kept in {repo}",
                f"  push it yourself: git --git-dir={shlex.quote(str(repo))} push {shlex.quote(ws.source)} {ws.branch}",
            ]
        return lines


def _count(n: int, noun: str) -> str:
    return f"{n} {noun}" + ("" if n == 1 else "s")


async def hand_back(workspace: Workspace, executor: CommandExecutor | None = None) -> HandBack:
    """Commit the Workspace's work onto its branch and push it to the source (the steps above).

    `executor`: the session's, needed only when its Workspace is remote (`decode.sandbox.bundle`).
    Never raises for what can go wrong out there (a push refused, a Workspace left unreadable by
    the agent): the outcome says it."""
    try:
        tip, already_shipped = await commit_workspace(workspace, executor if is_remote(executor) else None)
    except (GitError, WorkspaceError, OSError) as exc:
        logger.warning("hand-back of %s failed: %s", workspace.path, exc)
        return HandBack(workspace, Outcome.FAILED, error=str(exc))
    if tip is None:
        return HandBack(workspace, Outcome.NOTHING, already=already_shipped)
    repo = workspace.handback_repository
    try:
        commits, count, files = await _summary(repo, workspace.base, tip)
    except GitError as exc:  # the branch exists: only the report is poorer
        logger.warning("cannot list what %s holds: %s", workspace.branch, exc)
        commits, count, files = (), 0, ()
    ref = f"refs/heads/{workspace.branch}"
    # push_url: the credential `--repo` gave, in host git's argv only (the Workspace's origin has none).
    pushed = await git(
        "push", "--porcelain", "--no-verify", "--", workspace.push_url, f"{ref}:{ref}", git_dir=repo, private=False
    )
    if not pushed.ok:
        logger.warning("push of %s to %s failed: %s", workspace.branch, workspace.source, pushed.why())
        return HandBack(workspace, Outcome.KEPT, tip, commits, count, files, error=pushed.why())
    await git("update-ref", f"refs/shipped/{workspace.branch}", tip, git_dir=repo)
    return HandBack(workspace, Outcome.SHIPPED, tip, commits, count, files)


async def commit_workspace(workspace: Workspace, remote: CommandExecutor | None = None) -> tuple[str | None, bool]:
    """The branch's new tip, committed in the Hand-back Repository (None: nothing to ship), and
    whether that "nothing" is because the branch was shipped already. `remote`: the executor of a
    Workspace that is not on this machine. Raises `GitError`, `WorkspaceError`."""
    repo = workspace.handback_repository
    if remote is not None:  # the host clone holds the base; the rest comes in a bundle
        await _prepare(repo, workspace.path / ".git" / "objects")
        head, tree = await fetch_snapshot(remote, workspace)
    else:
        head = await asyncio.to_thread(read_head, workspace.path / ".git")  # first: it refuses a linked `.git`
        await _prepare(repo, workspace.path / ".git" / "objects")
        if head is not None and not (await git("cat-file", "-e", f"{head}^{{commit}}", git_dir=repo)).ok:
            raise WorkspaceError(f"the Workspace's HEAD {head[:12]} is not a commit in its repository")
        tree = await _stage(repo, workspace.path, head)
    ref = f"refs/heads/{workspace.branch}"
    previous = await _resolve(repo, ref)
    if previous is None:
        head_tree = await _tree(repo, head) if head else await _empty_tree(repo)
        if tree == head_tree:
            if (head or "") == workspace.base:
                return None, False
            tip = head  # the model's own commits, nothing uncommitted on top
        else:
            tip = await _commit(repo, tree, [head] if head else [], workspace)
    else:
        contained = head is None or await _is_ancestor(repo, head, previous)
        if contained and tree == await _tree(repo, previous):
            if await _resolve(repo, f"refs/shipped/{workspace.branch}") == previous:
                return None, True
            return previous, False  # committed before, never pushed: push it now
        # Continue the branch: the Workspace's newer commits (if any) come in as a second parent.
        tip = await _commit(repo, tree, [previous, *([] if contained or head is None else [head])], workspace)
    if tip is None:
        return None, False
    checked(await git("update-ref", ref, tip, previous or "", git_dir=repo), f"cannot move {workspace.branch}")
    return tip, False


async def _prepare(repo: Path, objects: Path) -> None:
    """The Hand-back Repository: made once (bare), and pointed at the Workspace's objects each time."""
    if not await asyncio.to_thread((repo / "HEAD").is_file):
        checked(await git("init", "--bare", "--quiet", str(repo), cwd=repo.parent), f"cannot create {repo}")
    await asyncio.to_thread(_borrow, repo, objects)


def _borrow(repo: Path, objects: Path) -> None:
    alternates = repo / "objects" / "info" / "alternates"
    alternates.parent.mkdir(parents=True, exist_ok=True)
    alternates.write_text(f"{objects.resolve()}\n", encoding="utf-8")


async def _stage(repo: Path, work_tree: Path, head: str | None) -> str:
    """The tree of the Workspace's files as they are now, staged in a private index from HEAD."""
    index = {"GIT_INDEX_FILE": str(repo / "decode-index")}
    base = [head] if head else ["--empty"]
    checked(await git("read-tree", *base, git_dir=repo, extra_env=index), "cannot read the Workspace's HEAD")
    skipped = [f":(exclude){name}" for name in await asyncio.to_thread(_placeholders, work_tree)]
    added = await git("add", "--all", "--", ".", *skipped, git_dir=repo, work_tree=work_tree, extra_env=index)
    checked(added, "cannot stage the Workspace's files")
    return checked(await git("write-tree", git_dir=repo, extra_env=index), "cannot write the Workspace's tree")


def _placeholders(work_tree: Path) -> list[str]:
    """Protected names that are empty files: while a sandboxed process runs, bwrap keeps such
    placeholders (bound over with `/dev/null`) where they did not exist; they are not the work."""
    names = [name for name in PROTECTED if "/" not in name]
    return [
        name
        for name in names
        if (path := work_tree / name).is_file() and not path.is_symlink() and not path.stat().st_size
    ]


async def _commit(repo: Path, tree: str, parents: list[str], workspace: Workspace) -> str:
    name, email = await _identity(repo)
    who = {"GIT_AUTHOR_NAME": name, "GIT_AUTHOR_EMAIL": email, "GIT_COMMITTER_NAME": name}
    who["GIT_COMMITTER_EMAIL"] = email
    message = (
        f"decode: the work of session {workspace.session_id}\n\nCommitted by decode when it handed the Workspace back."
    )
    args = [arg for parent in parents for arg in ("-p", parent)]
    done = await git("commit-tree", tree, *args, "-m", message, git_dir=repo, extra_env=who)
    return checked(done, "cannot commit the Workspace's changes")


async def _identity(repo: Path) -> tuple[str, str]:
    """The host's `user.name` and `user.email` (its global config: the user's, not the Workspace's)."""
    values = []
    for key, fallback in zip(("user.name", "user.email"), _IDENTITY, strict=True):
        found = await git("config", "--get", key, git_dir=repo, private=False)
        values.append(found.stdout.strip() if found.ok and found.stdout.strip() else fallback)
    return values[0], values[1]


async def _resolve(repo: Path, ref: str) -> str | None:
    found = await git("rev-parse", "--verify", "--quiet", ref, git_dir=repo)
    return found.stdout.strip() if found.ok else None


async def _tree(repo: Path, commit: str) -> str:
    return checked(await git("rev-parse", f"{commit}^{{tree}}", git_dir=repo), f"cannot read commit {commit[:12]}")


async def _empty_tree(repo: Path) -> str:
    return checked(await git("hash-object", "-t", "tree", "/dev/null", git_dir=repo), "cannot hash the empty tree")


async def _is_ancestor(repo: Path, commit: str, descendant: str) -> bool:
    return (await git("merge-base", "--is-ancestor", commit, descendant, git_dir=repo)).ok


async def _summary(repo: Path, base: str, tip: str) -> tuple[tuple[str, ...], int, tuple[str, ...]]:
    """The branch's commits beyond `base` (the newest `SHOWN`, and how many) and the files it changes."""
    since = [f"^{base}"] if base else []
    count = int(checked(await git("rev-list", "--count", tip, *since, git_dir=repo), "cannot count commits"))
    log = await git("log", f"-n{SHOWN}", "--format=%h %s", tip, *since, "--", git_dir=repo)
    start = base or await _empty_tree(repo)
    diff = await git("diff", "--no-ext-diff", "--no-textconv", "--name-status", start, tip, "--", git_dir=repo)
    files = tuple(" ".join(line.split("\t")) for line in checked(diff, "cannot list the files").splitlines())
    return tuple(checked(log, "cannot list commits").splitlines()), count, files
