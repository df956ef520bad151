"""Host-side git: the user's own git and credentials, on repositories decode owns.

The Workspace was written by the agent inside the sandbox, its `.git/` included. Git runs
programs named by a repository's own files: `core.fsmonitor`, `core.hooksPath` and `.git/hooks/`,
`core.sshCommand`, `credential.helper`, filter and diff drivers, `include.path`, `url.*.insteadOf`…
So decode never runs git *in* the Workspace on the host. It runs git on a repository it made
itself, out of the sandbox's reach (the Hand-back Repository), that reads the Workspace only as
data: its objects through `objects/info/alternates`, its files as a work tree.

Two environments, one per phase:

- `private`: no system or global config either (`GIT_CONFIG_NOSYSTEM`, `GIT_CONFIG_GLOBAL=/dev/null`),
  so not even a filter driver the user defined (git-lfs) runs on files the agent wrote;
- the push (and the clone): the host's config as it is, for its credential helper and ssh
  settings; it reads no work tree.

Both carry `decode.config.safe_git.SAFE_OPTIONS` (no hook, fsmonitor, pager, editor or `ext::`
remote, whatever a config file says) and never prompt on the terminal.
"""

import asyncio
import contextlib
import logging
import os
import re
import signal
import subprocess
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from urllib.parse import urlsplit, urlunsplit

from decode.config.safe_git import SAFE_OPTIONS
from decode.processes.own_children import own_child

logger = logging.getLogger(__name__)

GIT_TIMEOUT_S = 120.0
"""The longest one git command may take (a push over a slow network); then its group is killed."""

OVERRIDES = SAFE_OPTIONS
"""Given on every command line: they win over any config file."""

_LOCATING = (
    "GIT_DIR",
    "GIT_WORK_TREE",
    "GIT_INDEX_FILE",
    "GIT_OBJECT_DIRECTORY",
    "GIT_ALTERNATE_OBJECT_DIRECTORIES",
    "GIT_COMMON_DIR",
    "GIT_NAMESPACE",
    "GIT_CONFIG",
    "GIT_CONFIG_PARAMETERS",
    "GIT_CONFIG_COUNT",
    "GIT_CONFIG_GLOBAL",
    "GIT_CONFIG_SYSTEM",
    "GIT_CONFIG_NOSYSTEM",
    "GIT_ATTR_SOURCE",
)
"""Variables that would point git at another repository or config than the one decode chose."""

_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")


def without_credential(url: str) -> str:
    """`url` as it may be shown or written down: no password or token in it.

    `https://x-access-token:TOKEN@host/r.git` becomes `https://host/r.git` (a token may be the user
    name alone too); an ssh URL keeps its user (`ssh://git@host/r`), as does `git@host:r` and a path."""
    if "://" not in url:
        return url
    try:
        parts = urlsplit(url)
    except ValueError:
        return _USERINFO.sub("", url)
    userinfo, at, host = parts.netloc.rpartition("@")
    if not at:
        return url
    if parts.scheme.lower() in ("ssh", "git+ssh", "ssh+git"):
        user = userinfo.partition(":")[0]
        return urlunsplit(parts._replace(netloc=f"{user}@{host}" if user else host))
    return urlunsplit(parts._replace(netloc=host))


def scrub(text: str) -> str:
    """`text` (git's own words, a command line) with the user:password of every URL in it removed."""
    return _USERINFO.sub("", text)


@dataclass(frozen=True)
class GitResult:
    """How one git command ended: its exit code (None: killed at the timeout) and output."""

    argv: tuple[str, ...]
    code: int | None
    stdout: str
    stderr: str

    @property
    def ok(self) -> bool:
        return self.code == 0

    def why(self) -> str:
        """The last lines git wrote to stderr, or how it ended."""
        if self.code is None:
            return f"git {self.argv[0]} did not finish in {GIT_TIMEOUT_S:.0f}s"
        lines = [line for line in self.stderr.strip().splitlines() if line.strip()]
        return scrub(" / ".join(lines[-3:])) or f"git {self.argv[0]} exited with {self.code}"


class GitError(Exception):
    """A host-side git command failed; the message says which and why."""


def git_environment(
    base: Mapping[str, str],
    *,
    private: bool,
    git_dir: Path | None = None,
    work_tree: Path | None = None,
    drop: frozenset[str] = frozenset(),
) -> dict[str, str]:
    """The environment of a host-side git command: `base` (the host's) without the variables that
    locate another repository or config, and without `drop` (decode's own keys: git needs none)."""
    env = {
        name: value
        for name, value in base.items()
        if name not in _LOCATING
        and name.upper() not in drop
        and not name.startswith("GIT_CONFIG_KEY_")
        and not name.startswith("GIT_CONFIG_VALUE_")
    }
    env |= {"GIT_TERMINAL_PROMPT": "0", "GIT_OPTIONAL_LOCKS": "0", "GIT_PAGER": "cat"}
    if private:
        env |= {"GIT_CONFIG_NOSYSTEM": "1", "GIT_CONFIG_GLOBAL": os.devnull}
    if git_dir is not None:
        env["GIT_DIR"] = str(git_dir)
    if work_tree is not None:
        env["GIT_WORK_TREE"] = str(work_tree)
    return env


def _drop() -> frozenset[str]:
    from decode.config.settings import Settings

    return Settings.secret_env_names()


async def git(
    *args: str,
    git_dir: Path | None = None,
    work_tree: Path | None = None,
    private: bool = True,
    cwd: Path | None = None,
    extra_env: Mapping[str, str] | None = None,
    timeout: float = GIT_TIMEOUT_S,  # noqa: ASYNC109 (its process group is killed, not just awaited)
) -> GitResult:
    """Run host git with `args` (after the `OVERRIDES`) without blocking the event loop."""
    env = git_environment(os.environ, private=private, git_dir=git_dir, work_tree=work_tree, drop=_drop())
    env |= dict(extra_env or {})
    argv = ["git", *OVERRIDES, *args]
    with own_child() as mark:  # in a session of its own, but no command's orphan while it runs
        try:
            process = await asyncio.create_subprocess_exec(
                *argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd or work_tree or git_dir or Path("/"),
                env=env,
                start_new_session=True,  # a push's ssh or https helper dies with it at the timeout
            )
        except FileNotFoundError as exc:
            raise GitError("git is not installed on this machine (the hand-back needs it)") from exc
        mark(process.pid)
        try:
            out, err = await asyncio.wait_for(process.communicate(), timeout)
        except TimeoutError:
            _kill_group(process.pid)
            await process.wait()
            return GitResult(tuple(args), None, "", "")
        except asyncio.CancelledError:
            _kill_group(process.pid)
            await process.wait()  # killed: at once; reaped while it is still marked as decode's
            raise
    result = GitResult(tuple(args), process.returncode, out.decode(errors="replace"), err.decode(errors="replace"))
    logger.debug("git %s -> %s %s", scrub(" ".join(args)), result.code, scrub(result.stderr.strip()[:200]))
    return result


def git_sync(
    *args: str, cwd: Path, private: bool = False, timeout: float = GIT_TIMEOUT_S, git_dir: Path | None = None
) -> GitResult:
    """`git` for synchronous callers (the clone, when the loop is built in a thread)."""
    env = git_environment(os.environ, private=private, git_dir=git_dir, drop=_drop())
    argv = ["git", *OVERRIDES, *args]
    with own_child() as mark:  # as `git`'s (this may run in a thread while a command ends)
        try:
            process = subprocess.Popen(
                argv,
                stdin=subprocess.DEVNULL,
                stdout=subprocess.PIPE,
                stderr=subprocess.PIPE,
                cwd=cwd,
                env=env,
                start_new_session=True,
            )
        except FileNotFoundError as exc:
            raise GitError("git is not installed on this machine (the Workspace needs it)") from exc
        mark(process.pid)
        try:
            out, err = process.communicate(timeout=timeout)
        except subprocess.TimeoutExpired:
            _kill_group(process.pid)
            process.communicate()
            return GitResult(tuple(args), None, "", "")
    return GitResult(tuple(args), process.returncode, out.decode(errors="replace"), err.decode(errors="replace"))


def _kill_group(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.killpg(pid, signal.SIGKILL)


def checked(result: GitResult, what: str) -> str:
    """`result`'s stdout, stripped; `GitError(what: why)` if the command failed."""
    if not result.ok:
        raise GitError(f"{what}: {result.why()}")
    return result.stdout.strip()
