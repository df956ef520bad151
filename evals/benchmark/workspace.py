"""A task's workspace: what the agent starts in, built fresh for every trial.

    workspace = prepare(task, tmp_path / "ws")

A copy of `environment/seed/`, then `environment/setup.sh` run in it (git history, big generated
files: what cannot be a plain file in this repository), as the Dockerfile Harbor builds does.
A task in Harbor's own layout (no `seed/`) gets what its Dockerfile's `COPY` lines put in its
working directory instead; copies elsewhere in the image are left out (logged).
Task scripts run with `clean_environment()`: nothing of the runner's own environment (its keys
above all) reaches them.
"""

import glob
import logging
import posixpath
import shutil
import subprocess
import tempfile
from pathlib import Path

from evals.benchmark.dockerfile import read_dockerfile
from evals.benchmark.tasks import Task

logger = logging.getLogger(__name__)

SAFE_PATH = "/usr/local/bin:/usr/bin:/bin"
SETUP_TIMEOUT_S = 300.0


class WorkspaceError(RuntimeError):
    """A workspace that could not be built (the task's setup.sh failed)."""


def workspace_path(parent: Path, name: str) -> Path:
    """Where a workspace named `name` goes under `parent`: `parent/.decode/workspaces/name`.

    That is where decode puts the Workspaces it clones for a session (`--repo`), and there the
    sandbox lets commands write `.git` (its `config` and `hooks` stay read-only;
    `decode.sandbox.protected`). In the user's own checkout `.git` is read-only, since their git
    would run what the agent planted; a benchmark workspace is a throw-away copy like a clone,
    and its git tasks (commit, rebase, merge) need a writable `.git`.
    """
    return parent / ".decode" / "workspaces" / name


def clean_environment(home: Path, **extra: str) -> dict[str, str]:
    """The whole environment of a task script: a safe PATH, an empty HOME, a UTF-8 locale, `extra`."""
    return {"PATH": SAFE_PATH, "HOME": str(home), "LANG": "C.UTF-8", **extra}


def prepare(task: Task, into: Path) -> Path:
    """Build `task`'s workspace at `into` (which must not exist yet); returns it, resolved.

    Put it at `workspace_path(...)` when the agent or solution runs in a sandbox.
    """
    into = Path(into)
    into.parent.mkdir(parents=True, exist_ok=True)
    if task.harbor_layout:
        into.mkdir()
        copy_build_context(task, into)
    else:
        shutil.copytree(task.seed, into, symlinks=True)
    if task.setup_script.is_file():
        with tempfile.TemporaryDirectory(prefix="decode-setup-home-") as home:
            try:
                done = subprocess.run(
                    ["bash", str(task.setup_script)],
                    cwd=into,
                    env=clean_environment(Path(home)),
                    capture_output=True,
                    text=True,
                    timeout=SETUP_TIMEOUT_S,
                    check=False,
                )
            except subprocess.TimeoutExpired as exc:
                raise WorkspaceError(f"{task.name}: setup.sh timed out after {SETUP_TIMEOUT_S:.0f}s") from exc
        if done.returncode != 0:
            tail = (done.stdout + done.stderr)[-2000:]
            raise WorkspaceError(f"{task.name}: setup.sh exited {done.returncode}:\n{tail}")
    logger.debug("prepared %s in %s", task.name, into)
    return into.resolve()


def copy_build_context(task: Task, into: Path) -> None:
    """Do the Dockerfile's local copies that land in the working directory, into `into`."""
    context = (task.path / "environment").resolve()
    for copy in read_dockerfile(context).copies:
        relative = posixpath.relpath(copy.target, task.workdir)
        if relative == ".." or relative.startswith("../"):
            logger.info("%s: %s goes to %s, outside %s: not copied", task.name, copy.source, copy.target, task.workdir)
            continue
        sources = sorted(glob.glob(glob.escape(str(context)) + "/" + copy.source.lstrip("/")))
        if not sources:
            raise WorkspaceError(f"{task.name}: the Dockerfile copies {copy.source}, which environment/ lacks")
        for source in map(Path, sources):
            if not source.resolve().is_relative_to(context):
                raise WorkspaceError(f"{task.name}: the Dockerfile copies {copy.source}, outside environment/")
            target = into / relative
            if source.is_dir():
                shutil.copytree(source, target, symlinks=True, dirs_exist_ok=True)
                continue
            if copy.into_folder:
                target = target / source.name
            target.parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, target)
