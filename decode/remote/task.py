"""One remote task: `decode run --output-format json --repo URL` in a scratch directory.

This is what the Modal function `run_task` calls in its container, and what tests and the lesson
call here: the same code either way. `decode run --repo` clones the repository into a Workspace
and hands the work back as branch `decode/<session-id>`; this adds the size of that branch's diff
against the commit the clone started at, read from decode's Hand-back Repository.

The repository URL may carry a push credential (`https://x-access-token:TOKEN@host/…`): it is
never logged, and any text that comes back with it has it replaced by `***`.
"""

import json
import logging
import os
import re
import subprocess
import sys
import tempfile
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.config.safe_git import safe_git

logger = logging.getLogger(__name__)

RUN_TIMEOUT_S = 3600
"""The longest one `decode run` may take (the Modal function's own timeout is a little longer)."""
_USERINFO = re.compile(r"(?<=://)[^/@\s]+@")
_SHORTSTAT = re.compile(r"(\d+) (file|insertion|deletion)")
GIT_TOKEN = "DECODE_REMOTE_GIT_TOKEN"
_DROPPED_ENV = ("MODAL_TOKEN_ID", "MODAL_TOKEN_SECRET", GIT_TOKEN)
"""Modal's credentials and the push token: the run needs none of them, so its commands never see them."""


@dataclass(frozen=True)
class RunOptions:
    """The `decode run` options a remote run passes on (None: decode's default)."""

    model: str | None = None
    max_requests: int | None = None
    permission_mode: str | None = "accept-edits"
    """Headless and unattended: edits go through, anything else that would ask is refused."""
    agent: str | None = None

    def argv(self) -> list[str]:
        args: list[str] = []
        for flag, value in (
            ("--model", self.model),
            ("--max-requests", self.max_requests),
            ("--permission-mode", self.permission_mode),
            ("--agent", self.agent),
        ):
            if value is not None:
                args += [flag, str(value)]
        return args


def with_token(repo: str, token: str | None) -> str:
    """An `https://` URL with no credential gets `token` (from the Modal Secret, `DECODE_REMOTE_GIT_TOKEN`)
    inside the container only, so the caller never sends it as an argument; anything else as it is."""
    if not token or not repo.startswith("https://") or _USERINFO.search(repo):
        return repo
    return f"https://x-access-token:{token}@{repo.removeprefix('https://')}"


def redact(text: str) -> str:
    """`text` with the user:password (or token) of every URL in it replaced by `***`."""
    return _USERINFO.sub("***@", text)


def decode_argv(repo: str, options: RunOptions) -> list[str]:
    """The command line of the run; the task comes on stdin (`-`), so no task can pass for an option."""
    return [sys.executable, "-m", "decode", "run", "--output-format", "json", "--repo", repo, *options.argv(), "-"]


def diff_size(workdir: Path, session_id: str, branch: str) -> dict[str, int]:
    """Files, insertions and deletions of `branch` against its Workspace's base (zeros when there is none)."""
    workspace = workdir / ".decode" / "workspaces" / session_id
    size = {"files": 0, "insertions": 0, "deletions": 0}
    try:
        base = json.loads(workspace.with_name(f"{session_id}.json").read_text(encoding="utf-8"))["base"]
    except (OSError, ValueError, KeyError):
        return size
    git_dir = workspace.with_name(f"{session_id}.git")
    done = subprocess.run(
        safe_git(
            f"--git-dir={git_dir}",
            "diff",
            "--no-ext-diff",
            "--no-textconv",
            "--shortstat",
            base or "--root",
            f"refs/heads/{branch}",
        ),
        capture_output=True,
        text=True,
        check=False,
    )
    for count, word in _SHORTSTAT.findall(done.stdout):
        size[{"file": "files", "insertion": "insertions", "deletion": "deletions"}[word]] = int(count)
    return size


def run_remote_task(
    task: str, repo: str, options: RunOptions | None = None, workdir: Path | None = None
) -> dict[str, Any]:
    """Run `task` on a clone of `repo`; the run's result object plus `diff` (its branch's size).

    A run that prints no result object (it could not start) comes back as one with `is_error`.
    """
    options = options or RunOptions()
    env = {key: value for key, value in os.environ.items() if key not in _DROPPED_ENV}
    with tempfile.TemporaryDirectory(prefix="decode-remote-") as scratch:
        where = workdir or Path(scratch)
        logger.info("decode run on %s", redact(repo))
        done = subprocess.run(
            decode_argv(with_token(repo, os.environ.get(GIT_TOKEN)), options),
            input=task,
            capture_output=True,
            text=True,
            cwd=where,
            env=env,
            timeout=RUN_TIMEOUT_S,
            check=False,
        )
        try:
            result: dict[str, Any] = json.loads(done.stdout)
        except ValueError:
            tail = redact(done.stderr.strip().splitlines()[-1] if done.stderr.strip() else "no output")
            result = {"type": "result", "is_error": True, "exit_code": done.returncode, "error": tail, "handback": None}
        handback = result.get("handback")
        branch = handback.get("branch") if isinstance(handback, dict) else None
        empty = {"files": 0, "insertions": 0, "deletions": 0}
        result["diff"] = diff_size(where, result.get("session_id", ""), branch) if branch else empty
    if isinstance(result.get("error"), str):
        result["error"] = redact(result["error"])
    return result
