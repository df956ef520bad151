"""The git state of the Workspace, for the model: a repository or not, the branch, a short status.

`git_instructions` runs one `git status --porcelain=v2 --branch` through the executor, where the
Workspace is (a sandbox's too), and turns it into a few lines:

    Git: branch main (upstream origin/main, 1 ahead), 3 changed files (paths from the repository root):
      M  calc.py
      ?  notes.txt

`GitStatus` is what the agent asks (`decode.agent.factory.TURN_FACTS`): it starts that status at
the first request of a turn, in the background, and waits for it at most `GRACE_S` (a small
repository's status is in by then; a repository whose last status took longer is not waited for).
Until this turn's status is in, a request carries the last one, saying when it was taken, or says
that one is being taken; the turn's later requests carry the new one once git has given it. A
turn of 200 tool calls pays for one `git status`, not 200, and no request waits for a slow one.
A status that git could not give in time is not asked for again until the repository's index or
HEAD changes (their `stat`): a huge repository pays the time bound once, not every turn (ADR-0100).

It never blocks long (`TIMEOUT_S`, then it says git did not answer) and never says much
(`MAX_FILES` files listed, the output read up to `MAX_BYTES`). No git, or no repository, is said
in one line. The command changes nothing: `--no-optional-locks` leaves the index alone (the
user's own git commands never find it locked). It runs nothing the repository's config names
(fsmonitor, a filter driver, a hook: `decode.config.safe_git`): the config is read first, every
program it names is switched off on the status's command line, and nested repositories are not
entered (`--ignore-submodules=dirty`: a submodule's new commit shows, its own files are not read).
"""

import asyncio
import os
import time
from dataclasses import dataclass
from pathlib import Path

from pydantic_ai import RunContext

from decode.config.safe_git import LIST_CONFIG, SAFE_OPTIONS, UnsafeConfig, safe_git
from decode.entities.deps import AgentDeps
from decode.entities.executor import ExecRequest, OutputCallback

TIMEOUT_S = 1.0
MAX_FILES = 20
MAX_BYTES = 64_000

STATUS = (
    "--no-optional-locks",
    "status",
    "--porcelain=v2",
    "--branch",
    "--untracked-files=normal",
    "--ignore-submodules=dirty",
)
"""The subcommand; `safe_git` puts the options that switch off the repository's programs before it."""
_ENV = ["env", "LC_ALL=C"]


async def git_instructions(ctx: RunContext[AgentDeps]) -> str:
    """The Workspace's git state, as the instructions of this request carry it."""
    listed = await _git(ctx, ["git", *SAFE_OPTIONS, *LIST_CONFIG])
    if isinstance(listed, _Said):
        return listed
    try:
        if listed.cut:  # a key past the cut could name a program
            raise UnsafeConfig(f"the repository's config is over {MAX_BYTES} bytes")
        argv = safe_git(*STATUS, listing=listed)
    except UnsafeConfig as exc:
        return f"Git: unknown (git status was not run: {exc})."
    status = await _git(ctx, argv)
    if isinstance(status, _Said):
        return status
    return describe_status(status, cut=status.cut)


Stamp = tuple[tuple[int, int, int], ...]
"""What the index and HEAD files were (inode, size, mtime in ns): a commit, a checkout or an add changes it."""

GRACE_S = 0.5
"""The longest a turn's first request waits for the status being taken (a small repository's is in
long before): not at all for a repository whose last status took longer."""
QUICK_S = 0.05
"""A repository whose last status took longer is not waited for while its index and HEAD are as they
were then: the turn starts with that status, dated, and the new one comes with a later request."""


@dataclass
class _Taken:
    text: str
    stamp: Stamp | None
    started: float
    """When git was started (`time.time()`): the state the text describes is from then on."""
    took: float
    given_up: bool


class GitStatus:
    """The git state, taken once per turn in the background (see the module docstring); one per agent."""

    def __init__(self) -> None:
        self._taken: _Taken | None = None
        self._taking: asyncio.Task[_Taken] | None = None
        self._run_id: str | None = None
        self._turn_started = 0.0
        self._stamp: Stamp | None = None
        self._slow = False
        """Whether the last status took longer than `GRACE_S`: the next is not waited for."""

    async def instructions(self, ctx: RunContext[AgentDeps]) -> str:
        """The newest git state there is: this turn's once git has given it, else the last one, dated."""
        self._collect()
        if self._run_id is None or ctx.run_id != self._run_id:  # a new turn
            self._run_id, self._turn_started = ctx.run_id, time.time()
            self._start(ctx)
        taking = self._taking
        if taking is not None and not taking.done() and self._worth_waiting():
            await asyncio.wait({taking}, timeout=GRACE_S)  # never cancels it: it goes on for a later request
            self._slow = not taking.done()
        self._collect()
        return self._text()

    def _collect(self) -> None:
        """Keep the status being taken, if git has given it."""
        taking = self._taking
        if taking is not None and taking.done():
            self._taking = None
            if not taking.cancelled():  # cancelled: its event loop was closed (a `decode run` before)
                self._taken = taking.result()
                self._slow = self._taken.took > GRACE_S

    def _start(self, ctx: RunContext[AgentDeps]) -> None:
        """Start taking the status, unless one is under way or git gave up on this unchanged repository."""
        if self._taking is not None and not self._taking.done():
            if self._taking.get_loop() is asyncio.get_running_loop():
                return  # started in an earlier turn: it is shown with its time when it is in
            self._taking = None
        stamp = self._stamp = repository_stamp(ctx.deps.executor.workspace)
        taken = self._taken
        if taken is not None and taken.given_up and stamp is not None and stamp == taken.stamp:
            return  # git gave up on this repository and nothing has changed since
        self._taking = asyncio.create_task(_take(ctx, stamp), name="git status")

    def _worth_waiting(self) -> bool:
        """Whether to wait (`GRACE_S`) for this turn's status, rather than start with the last one, dated."""
        if self._slow:  # the last status took longer than the wait
            return False
        taken = self._taken
        if taken is None or taken.given_up or taken.stamp is None or taken.stamp != self._stamp:
            return True  # nothing to show for this index and HEAD (a commit, a checkout, an add since)
        return taken.took <= QUICK_S  # a quick repository's own status is worth a few milliseconds

    def _text(self) -> str:
        taken = self._taken
        if taken is None:
            return _TAKING
        if taken.started >= self._turn_started or taken.given_up:
            return taken.text
        when = time.strftime("%H:%M:%S", time.gmtime(taken.started))
        refresh = "; a new one is being taken" if self._taking is not None else ""
        return taken.text.replace("Git:", f"Git (as of {when} UTC, before this turn{refresh}):", 1)


_TAKING = "Git: the status is being taken (a later request will carry it)."


async def _take(ctx: RunContext[AgentDeps], stamp: Stamp | None) -> _Taken:
    started = time.time()
    text = await git_instructions(ctx)
    return _Taken(text, stamp, started, time.time() - started, given_up=text.startswith(_GAVE_UP))


def repository_stamp(workspace: Path) -> Stamp | None:
    """The stat of the index and HEAD of the repository `workspace` is in; None: none found here."""
    for folder in (workspace, *workspace.parents):
        dot_git = folder / ".git"
        try:
            if dot_git.is_file():  # a worktree or a submodule: `gitdir: PATH`
                line = dot_git.read_text(encoding="utf-8", errors="replace").strip()
                dot_git = (folder / line.removeprefix("gitdir:").strip()).resolve()
            elif not dot_git.is_dir():
                continue
            stats = [os.stat(dot_git / name) for name in ("index", "HEAD")]
        except OSError:
            return None  # no index yet (a new repository), or unreadable: not cached
        return tuple((st.st_ino, st.st_size, st.st_mtime_ns) for st in stats)
    return None


_GAVE_UP = "Git: status unavailable"


class _Said(str):
    """What `_git` says instead of git's output: the line the instructions carry."""

    __slots__ = ()


class _Output(str):
    """git's output, and whether it was cut at `MAX_BYTES`."""

    cut: bool = False


async def _git(ctx: RunContext[AgentDeps], argv: list[str]) -> _Output | _Said:
    """The output of git `argv`, run by the executor, or the line that says why there is none."""
    out, err = bytearray(), bytearray()

    def keep(buffer: bytearray) -> OutputCallback:
        return lambda chunk: buffer.extend(chunk[: max(0, MAX_BYTES - len(buffer))])

    try:
        request = ExecRequest([*_ENV, *argv], timeout=TIMEOUT_S, on_stdout=keep(out), on_stderr=keep(err))
        result = await ctx.deps.executor.run(request)
    except OSError as exc:
        return _Said(f"Git: unknown (git status could not run: {exc}).")
    if result.timed_out:
        return _Said(f"{_GAVE_UP} (git status did not answer within {TIMEOUT_S:g} s).")
    errors = err.decode("utf-8", errors="replace")
    if result.exit_code == 127:
        return _Said("Git: git is not installed here.")
    if result.exit_code != 0:
        if "not a git repository" in errors:
            return _Said("Git: the working directory is not in a git repository.")
        last = errors.strip().splitlines()[-1:] or [f"exit code {result.exit_code}"]
        return _Said(f"Git: unknown (git status failed: {last[0][:200]}).")
    output = _Output(out.decode("utf-8", errors="replace"))
    output.cut = len(out) >= MAX_BYTES
    return output


def describe_status(porcelain: str, *, cut: bool = False) -> str:
    """The lines of `git status --porcelain=v2 --branch` as a short text (see the module docstring)."""
    head, upstream, ahead_behind, files = "", "", "", []
    lines = porcelain.splitlines()
    for line in lines[:-1] if cut else lines:  # a cut output's last line may be cut too
        if line.startswith("# branch.head "):
            head = line.removeprefix("# branch.head ")
        elif line.startswith("# branch.upstream "):
            upstream = line.removeprefix("# branch.upstream ")
        elif line.startswith("# branch.ab "):
            ahead, behind = (int(n) for n in line.removeprefix("# branch.ab ").replace("+", "").split())
            ahead_behind = ", ".join(
                part for part in (f"{ahead} ahead" if ahead else "", f"{-behind} behind" if behind else "") if part
            )
        elif line[:2] in {"1 ", "2 ", "u "}:
            fields = line.split(" ", 10 if line[0] == "u" else 9 if line[0] == "2" else 8)
            path = fields[-1].split("\t")[0]  # a rename: the new path, then a tab and the old one
            files.append(f"{fields[1].replace('.', ' ')} {path}")  # XY: staged, then unstaged
        elif line.startswith("? "):
            files.append(f"?? {line[2:]}")
    branch = "detached HEAD" if head in {"", "(detached)"} else f"branch {head}"
    tracking = f"upstream {upstream}" + (f", {ahead_behind}" if ahead_behind else "") if upstream else ""
    text = f"Git: {branch}" + (f" ({tracking})" if tracking else "")
    if not files:
        return text + ", nothing to commit (working tree clean)." if not cut else text + "."
    count = f"{len(files)}{'+' if cut else ''} changed file{'s' if len(files) != 1 else ''}"
    listed = [f"  {entry}" for entry in files[:MAX_FILES]]
    if len(files) > MAX_FILES:
        listed.append(f"  … and {len(files) - MAX_FILES}{'+' if cut else ''} more")
    return "\n".join([f"{text}, {count} (paths from the repository root):", *listed])
