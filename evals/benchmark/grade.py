"""Grading: a task's `tests/test.sh` run against a workspace, its reward read back.

    result = grade(task, workspace)   # Grade(reward=1.0, passed=True, output=..., error=None)

The verifier runs on this machine with only a whitelisted environment (`clean_environment` plus
`APP_DIR`, `TESTS_DIR`, `REWARD_DIR`): it never sees the runner's keys. It is run from its own
folder in the repository, so the agent cannot have changed it; it writes `reward.txt` into a
temporary folder outside the workspace.

Where bubblewrap is installed the verifier runs in a sandbox of its own: of the host only the
system's folders (read-only), the workspace and that temporary folder; no network; a pid
namespace whose first process (`verifier_init.py`) scores 0 a run in which a process test.sh
started outlived it, or ended after the reward was written. A seccomp filter (`seccomp.py`)
keeps what the tests run from tampering with the verifier's own processes.
"""

import contextlib
import fcntl
import json
import logging
import os
import platform
import shutil
import signal
import stat
import struct
import subprocess
import tempfile
import threading
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path, PurePosixPath
from typing import IO

from evals.benchmark.seccomp import tamper_filter
from evals.benchmark.tasks import Task
from evals.benchmark.verifier_init import OUTLIVED
from evals.benchmark.workspace import clean_environment

logger = logging.getLogger(__name__)

OUTPUT_CAP = 20_000
"""The most characters of the verifier's output kept (its tail)."""

VERIFIER_INIT = Path(__file__).with_name("verifier_init.py")
SYSTEM_FOLDERS = ("/usr", "/bin", "/sbin", "/lib", "/lib32", "/lib64", "/libx32", "/etc")
"""All of the host the verifier sees, read-only, besides the workspace, its tests and the scratch folder."""
CONTAINER_TESTS = PurePosixPath("/tests")
CONTAINER_REWARDS = PurePosixPath("/logs/verifier")
"""Harbor's paths of the tests and of the reward folder in a trial's container (its `EnvironmentPaths`)."""
READER_GRACE_S = 5.0
"""How long the output is still read once the verifier has exited and its group was killed."""


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
    bwrap = shutil.which("bwrap")
    if bwrap is None and task.harbor_layout:
        return Grade(0.0, False, "", f"{task.name} names Harbor's paths ({task.workdir}, /tests): grading needs bwrap")
    with _scratch_folder() as scratch:
        home, rewards = Path(scratch, "home"), Path(scratch, "verifier")
        home.mkdir()
        rewards.mkdir()
        env = clean_environment(home, APP_DIR=str(workspace), TESTS_DIR=str(task.tests_dir), REWARD_DIR=str(rewards))
        command, seccomp_fd = ["bash", str(task.tests_dir / "test.sh")], None
        if bwrap is not None:  # the verifier sees Harbor's paths: the workspace at /app, its tests at /tests…
            env.update(APP_DIR=task.workdir, TESTS_DIR=str(CONTAINER_TESTS), REWARD_DIR=str(CONTAINER_REWARDS))
            command = ["bash", str(CONTAINER_TESTS / "test.sh")]
            seccomp_fd = _seccomp_file()
            command = verifier_sandbox(
                bwrap, command, task=task, workspace=workspace, scratch=Path(scratch), seccomp_fd=seccomp_fd
            )
        try:
            returncode, output = run_verifier(
                command,
                cwd=workspace,
                env=env,
                timeout=task.verifier_timeout_s,
                pass_fds=() if seccomp_fd is None else (seccomp_fd,),
            )
        finally:
            if seccomp_fd is not None:
                os.close(seccomp_fd)
        if returncode is None:
            return Grade(0.0, False, output, f"verifier timed out after {task.verifier_timeout_s:.0f}s")
        reward, error = read_rewards(rewards)
    if returncode == OUTLIVED and bwrap is not None:
        return Grade(0.0, False, output, "a process the verifier started outlived it or wrote after it")
    if error is None and returncode != 0:
        logger.info("%s: test.sh exited %s (reward %s)", task.name, returncode, reward)
        reward, error = 0.0, f"the verifier exited {returncode} (a verifier always exits 0)"
    return Grade(reward, error is None and reward >= 1.0, output, error)


@contextlib.contextmanager
def _scratch_folder() -> Iterator[str]:
    """A temporary folder for the verifier's home and reward, removed however the verifier left it.

    Code the tests ran may have made folders in it read-only, or nested thousands deep (which
    `shutil.rmtree` cannot remove: it recurses): `chmod -R` and `rm -rf` walk it without recursing
    into symlinks.
    """
    scratch = tempfile.mkdtemp(prefix="decode-grade-")
    try:
        yield scratch
    finally:
        subprocess.run(["chmod", "-R", "u+rwx", scratch], capture_output=True, check=False)
        subprocess.run(["rm", "-rf", "--", scratch], capture_output=True, check=False)
        if os.path.lexists(scratch):
            logger.warning("could not remove the verifier's scratch folder %s", scratch)


def run_verifier(
    command: list[str], *, cwd: Path, env: dict[str, str], timeout: float, pass_fds: tuple[int, ...] = ()
) -> tuple[int | None, str]:
    """Run `command`; its exit status (None if it timed out and was killed) and its output's tail.

    Only the last `OUTPUT_CAP` characters are ever held, however much the verifier prints.
    """
    # Its own process group, so a timeout kills what the tests started too; not its own session:
    # decode's process tracking, when this process runs sandboxed commands (verify), takes a
    # child in a session of its own for one of their leftovers.
    process = subprocess.Popen(
        command,
        cwd=cwd,
        env=env,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        process_group=0,
        pass_fds=pass_fds,
    )
    tail = bytearray()
    reader = threading.Thread(target=_keep_tail, args=(process.stdout, tail), daemon=True)
    reader.start()
    try:
        returncode: int | None = process.wait(timeout=timeout)
    except subprocess.TimeoutExpired:
        returncode = None
    with contextlib.suppress(ProcessLookupError):  # nothing it left behind may write a reward later
        os.killpg(process.pid, signal.SIGKILL)
    process.wait()
    reader.join(timeout=READER_GRACE_S)  # unsandboxed, a leftover in another session may hold the pipe
    return returncode, bytes(tail).decode("utf-8", "replace")[-OUTPUT_CAP:]


def _keep_tail(stream: IO[bytes], tail: bytearray) -> None:
    """Read `stream` to its end, keeping only its last bytes in `tail`."""
    with stream:
        while chunk := stream.read(65536):
            tail += chunk
            del tail[: -4 * OUTPUT_CAP]  # 4 bytes a character at most


def verifier_sandbox(
    bwrap: str, command: list[str], *, task: Task, workspace: Path, scratch: Path, seccomp_fd: int | None = None
) -> list[str]:
    """The bwrap command line that runs the verifier's `command` (see the module docstring).

    The folders sit where Harbor's container has them: the workspace at the task's working
    directory (`/app`), its tests at `/tests` (read-only), the reward folder at `/logs/verifier`.

    `seccomp_fd` is an open file holding `tamper_filter()`, loaded for every process in it.
    """
    from decode.sandbox.bwrap import KERNEL_PROC_PATHS  # here: a trial's container grades without decode

    args = [bwrap]
    for system in SYSTEM_FOLDERS:  # the machine's programs, nothing of its users
        args += ["--ro-bind-try", system, system]
    args += ["--dev", "/dev", "--proc", "/proc", "--tmpfs", "/tmp", "--tmpfs", "/run"]
    for kernel in KERNEL_PROC_PATHS:
        args += ["--ro-bind-try", kernel, kernel]
    args += [
        "--ro-bind",
        str(VERIFIER_INIT),
        str(VERIFIER_INIT),
        "--ro-bind",
        str(task.tests_dir),
        str(CONTAINER_TESTS),
    ]
    args += ["--bind", str(workspace), task.workdir, "--bind", str(scratch), str(scratch)]
    args += ["--bind", str(scratch / "verifier"), str(CONTAINER_REWARDS)]
    args += ["--unshare-pid", "--as-pid-1", "--unshare-net", "--unshare-ipc", "--cap-drop", "ALL"]
    args += ["--die-with-parent", "--new-session", "--chdir", task.workdir]
    if seccomp_fd is not None:
        args += ["--seccomp", str(seccomp_fd)]
    return [*args, "--", "python3", "-I", "-B", str(VERIFIER_INIT), str(CONTAINER_REWARDS), *command]


def _seccomp_file() -> int | None:
    """An open, inheritable file holding `tamper_filter()` for bwrap to read, or None."""
    if (program := tamper_filter()) is None:
        logger.warning("no seccomp filter for %s: verifier processes can be tampered with", platform.machine())
        return None
    fd = os.memfd_create("verifier-seccomp", 0)
    os.write(fd, program)
    os.lseek(fd, 0, os.SEEK_SET)
    return fd


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


def read_rewards(folder: Path) -> tuple[float, str | None]:
    """The reward in the verifier's `folder`: Harbor's `reward.json` when written, else `reward.txt`."""
    if os.path.lexists(folder / "reward.json"):
        return read_reward_json(folder / "reward.json")
    return read_reward(folder / "reward.txt")


def read_reward(path: Path) -> tuple[float, str | None]:
    """The reward in `path` (a number in 0..1), or 0 and why it could not be read.

    A reward test.sh cannot have been the last to write scores 0 too: `reward.txt` a link or not
    a regular file, or it or its folder made read-only, so that test.sh's final `echo 0` failed.
    """
    data, error = _written_last(path)
    if data is None:
        return 0.0, error
    try:
        text = data.decode("utf-8").strip()
        reward = float(text)
    except UnicodeDecodeError as exc:
        return 0.0, f"reward.txt unreadable: {exc}"
    except ValueError:
        return 0.0, f"reward.txt is not a number: {text[:80]!r}"
    return _in_range(reward, path.name)


def read_reward_json(path: Path) -> tuple[float, str | None]:
    """Harbor's `reward.json` (`{"reward": 1.0, ...}`; a lone other key counts too), checked as `read_reward`."""
    data, error = _written_last(path)
    if data is None:
        return 0.0, error
    try:
        rewards = json.loads(data)
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        return 0.0, f"reward.json is not JSON: {exc}"
    if not isinstance(rewards, dict) or not ("reward" in rewards or len(rewards) == 1):
        return 0.0, 'reward.json has no "reward" key'
    reward = rewards.get("reward", next(iter(rewards.values())))
    if isinstance(reward, bool) or not isinstance(reward, int | float):
        return 0.0, f"reward.json's reward is not a number: {reward!r}"
    return _in_range(float(reward), path.name)


def _in_range(reward: float, name: str) -> tuple[float, str | None]:
    if not 0.0 <= reward <= 1.0:  # nan too
        return 0.0, f"{name} is out of range 0..1: {reward}"
    return reward, None


def _written_last(path: Path) -> tuple[bytes | None, str | None]:
    """The first 4 KiB of the reward file, or None and why test.sh cannot have written it last."""
    name = path.name
    try:
        folder = path.parent.lstat()
        fd = os.open(path, os.O_RDONLY | os.O_NOFOLLOW | os.O_NONBLOCK)  # a FIFO must not hang the grader
    except FileNotFoundError:
        return None, f"the verifier wrote no {name}"
    except OSError as exc:
        return None, f"{name} unreadable (a link?): {exc}"
    with open(fd, "rb") as file:
        info = os.fstat(file.fileno())
        if not stat.S_ISDIR(folder.st_mode) or not stat.S_ISREG(info.st_mode):
            return None, f"{name} or its folder is not a regular file or folder: not read"
        if not (info.st_mode & stat.S_IWUSR and folder.st_mode & stat.S_IWUSR and folder.st_mode & stat.S_IXUSR):
            return None, f"{name} or its folder was made read-only: test.sh cannot have written it last"
        if _inode_flags(file.fileno()) & SEALED_FLAGS:
            return None, f"{name} was sealed (verity, immutable or append-only): test.sh cannot have written it last"
        return file.read(4096), None


FS_IOC_GETFLAGS = 0x80086601
SEALED_FLAGS = 0x10 | 0x20 | 0x00100000  # FS_IMMUTABLE_FL, FS_APPEND_FL, FS_VERITY_FL


def _inode_flags(fd: int) -> int:
    """The file's inode flags (`lsattr`), 0 where the filesystem keeps none."""
    try:
        return struct.unpack("<i", fcntl.ioctl(fd, FS_IOC_GETFLAGS, bytes(8))[:4])[0]
    except OSError:
        return 0
