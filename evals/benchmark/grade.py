"""Grading: a task's `tests/test.sh` run against a workspace, its reward read back.

    result = grade(task, workspace)   # Grade(reward=1.0, passed=True, output=..., error=None)

The verifier runs on this machine with only a whitelisted environment (`clean_environment` plus
`APP_DIR`, `TESTS_DIR`, `REWARD_DIR`): it never sees the runner's keys. It is run from its own
folder in the repository, so the agent cannot have changed it; it writes `reward.txt` into a
temporary folder outside the workspace.
"""

import contextlib
import logging
import os
import signal
import subprocess
import tempfile
from dataclasses import dataclass
from pathlib import Path

from evals.benchmark.tasks import Task
from evals.benchmark.workspace import clean_environment

logger = logging.getLogger(__name__)

OUTPUT_CAP = 20_000
"""The most characters of the verifier's output kept (its tail)."""


@dataclass(frozen=True)
class Grade:
    """What the verifier said: the reward (0..1), pass or not, its output, and what went wrong."""

    reward: float
    passed: bool
    output: str
    error: str | None = None


def grade(task: Task, workspace: Path) -> Grade:
    """Run `task`'s verifier against `workspace`, killed at the task's verifier timeout.

    A verifier that exits non-zero or by a signal scores 0 (code it ran may have written the
    reward, then killed it); so does a workspace whose `.git` points this machine's git elsewhere.
    """
    if (why := _tampered_git(workspace)) is not None:
        return Grade(0.0, False, "", why)
    with tempfile.TemporaryDirectory(prefix="decode-grade-") as scratch:
        home, rewards = Path(scratch, "home"), Path(scratch, "verifier")
        home.mkdir()
        env = clean_environment(home, APP_DIR=str(workspace), TESTS_DIR=str(task.tests_dir), REWARD_DIR=str(rewards))
        # Its own process group, so a timeout kills what the tests started too; not its own session:
        # decode's process tracking, when this process runs sandboxed commands (verify), takes a
        # child in a session of its own for one of their leftovers.
        process = subprocess.Popen(
            ["bash", str(task.tests_dir / "test.sh")],
            cwd=workspace,
            env=env,
            stdin=subprocess.DEVNULL,
            stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT,
            process_group=0,
        )
        try:
            raw, _ = process.communicate(timeout=task.verifier_timeout_s)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            raw, _ = process.communicate()
            output = raw.decode("utf-8", "replace")[-OUTPUT_CAP:]
            return Grade(0.0, False, output, f"verifier timed out after {task.verifier_timeout_s:.0f}s")
        with contextlib.suppress(ProcessLookupError):  # nothing it left behind may write a reward later
            os.killpg(process.pid, signal.SIGKILL)
        output = raw.decode("utf-8", "replace")[-OUTPUT_CAP:]
        reward, error = read_reward(rewards / "reward.txt")
    if error is None and process.returncode != 0:
        logger.info("%s: test.sh exited %s (reward %s)", task.name, process.returncode, reward)
        reward, error = 0.0, f"the verifier exited {process.returncode} (a verifier always exits 0)"
    return Grade(reward, error is None and reward >= 1.0, output, error)


def _tampered_git(workspace: Path) -> str | None:
    """Why the workspace's `.git` must not be read by git here, or None.

    The grader runs git on this machine in the agent's repository. The sandbox keeps `.git/config`
    and `.git/hooks` read-only, but `commondir` (or a `.git` file) would make git read a config the
    agent wrote, whose `core.fsmonitor` or `uploadpack` git runs.
    """
    git = workspace / ".git"
    if git.is_symlink() or git.is_file():
        return "the workspace's .git is a link or a file: not graded"
    if (git / "commondir").exists() or (git / "config.worktree").exists():
        return "the workspace's .git points git at another config (commondir): not graded"
    return None


def read_reward(path: Path) -> tuple[float, str | None]:
    """The reward in `path` (a number in 0..1), or 0 and why it could not be read."""
    try:
        text = path.read_text(encoding="utf-8").strip()
    except FileNotFoundError:
        return 0.0, "the verifier wrote no reward.txt"
    except (OSError, UnicodeDecodeError) as exc:
        return 0.0, f"reward.txt unreadable: {exc}"
    try:
        reward = float(text)
    except ValueError:
        return 0.0, f"reward.txt is not a number: {text[:80]!r}"
    if not 0.0 <= reward <= 1.0:
        return 0.0, f"reward.txt is out of range 0..1: {reward}"
    return reward, None
