"""The Docker backend: one long-lived container per session, driven by the `docker` CLI (ADR-0064).

What a command inside sees (`container_argv`):

- an image built offline from this machine's programs (`scripts/sandbox-image`), its root
  filesystem read-only, a private `/tmp` (a tmpfs, also `HOME`), no capabilities, no new privileges;
- the Workspace writable at the same path as on the host (file tools then do direct I/O there),
  except the protected paths (`decode/sandbox/protected.py`) that exist and every nested
  repository's `.git`, bound read-only over it, `.decode/` empty (but for `skills/`, `agents/`),
  and the Workspace's `.env` files (and credential folders, in a home Workspace) replaced by
  nothing; a protected path the container created is removed;
- nothing of the user's home but the paths added with `DECODE_SANDBOX_HOME_PATHS`, read-only
  (`decode/sandbox/host_view.py`);
- no network (`--network none`). A command allowed the network runs in a container of its own
  on the host's network (`--network host`, as bwrap's command shares the host's), removed after.

Commands run through `docker exec` under a small wrapper (`decode/sandbox/inside.py`), so a
timeout or an abort kills the process inside the container, not just the client. The container's
first process waits on a pipe from decode: when decode dies, however, the container stops too.
Values of the environment never appear on a command line (`-e NAME` takes the client's value).
"""

import asyncio
import contextlib
import logging
import os
import secrets
import shutil
import subprocess
from collections.abc import Mapping, Sequence
from dataclasses import replace
from pathlib import Path

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.processes.run import run_process
from decode.processes.spawn import SpawnedProcess, spawn_process
from decode.processes.tracking import new_tag
from decode.sandbox.host_view import added_paths, hidden_paths, workspace_view
from decode.sandbox.inside import CONTAINER_PATH, killer, wrapped
from decode.sandbox.protected import protected_paths
from decode.sandbox.types import SandboxError, SandboxMode

logger = logging.getLogger(__name__)
PIPE = asyncio.subprocess.PIPE

PREFLIGHT_TIMEOUT_S = 15.0
START_TIMEOUT_S = 60.0
KILL_TIMEOUT_S = 15.0
BUILD_HINT = "build it offline with `make sandbox-image` (scripts/sandbox-image; see the README's Sandboxes)"


def docker_client_environment(host: Mapping[str, str] | None = None) -> dict[str, str]:
    """What the `docker` client itself needs from the host (`DOCKER_HOST`…): never passed inside."""
    host = os.environ if host is None else host
    return {name: value for name, value in host.items() if name.startswith("DOCKER_")}


def container_argv(
    docker: str,
    image: str,
    name: str,
    *,
    workspace: Path,
    cwd: Path | None = None,
    read_only: Sequence[Path],
    hidden: Sequence[Path],
    network: bool,
    user: str,
    env_names: Sequence[str] = (),
    masked: Sequence[Path] = (),
) -> list[str]:
    """`docker run` for a sandbox container (see the module docstring), up to its image; the command follows.

    `read_only`: host paths mounted read-only at the same path (in the Workspace: on top of it);
    `masked`: folders of the Workspace that are empty and read-only inside (`.decode/`)."""
    args = [docker, "run", "-i", "--rm", "--name", name, "--label", "decode.sandbox=1", "--init"]
    args += ["--network", "host" if network else "none", "--read-only"]
    args += ["--tmpfs", "/tmp:rw,exec,nosuid,nodev,mode=1777"]  # private, writable: `HOME` too
    args += ["--cap-drop", "ALL", "--security-opt", "no-new-privileges", "--pids-limit", "4096", "--user", user]
    args += ["-v", f"{workspace}:{workspace}"]
    git = workspace / ".git"
    if git.is_dir() and git not in read_only:  # a mount point cannot be renamed: no `mv .git x && mkdir .git`
        args += ["-v", f"{git}:{git}"]
    args += [arg for path in read_only for arg in ("-v", f"{path}:{path}:ro")]
    args += [arg for path in masked for arg in ("--tmpfs", f"{path}:ro")]
    for path in hidden:  # a secret file becomes empty, a secret folder (`~/.ssh`, in a home Workspace) too
        args += ["--tmpfs", f"{path}:ro"] if path.is_dir() else ["-v", f"/dev/null:{path}:ro"]
    args += [arg for variable in env_names for arg in ("-e", variable)]
    return [*args, "-w", str(cwd or workspace), image]


class DockerBackend:
    """Commands in a Docker container; the Workspace bind-mounted at its own path."""

    mode = SandboxMode.DOCKER

    def __init__(self, workspace: Path, settings: Settings) -> None:
        self.workspace = workspace
        self.host_workspace: Path | None = workspace
        self.settings = settings
        self.image = settings.sandbox_image
        self.docker = "docker"
        self.name = f"decode-sandbox-{secrets.token_hex(6)}"
        self._keeper: SpawnedProcess | None = None  # `docker run`: the container lives while it does
        self._absent: list[Path] = []  # protected paths that did not exist at the start

    def preflight(self) -> None:
        found = shutil.which("docker")
        if found is None:
            raise SandboxError(
                "--sandbox docker: the `docker` CLI is not on PATH. Install it (Debian/Ubuntu: "
                "`apt install docker.io`), or choose another --sandbox. decode does not run unsandboxed instead."
            )
        self.docker = found
        info = self._check([found, "info", "--format", "{{.ServerVersion}}"])
        if info.returncode != 0:
            raise SandboxError(
                f"--sandbox docker: no Docker engine answers ({_why(info)}). Start one (for example "
                "`dockerd --iptables=false --bridge=none &` as root) or point DOCKER_HOST at it."
            )
        image = self._check([found, "image", "inspect", "--format", "{{.Id}}", self.image])
        if image.returncode != 0:
            raise SandboxError(f"--sandbox docker: the image {self.image} is not in the engine: {BUILD_HINT}.")

    def _check(self, argv: list[str]) -> subprocess.CompletedProcess[bytes]:
        try:
            return subprocess.run(
                argv, capture_output=True, timeout=PREFLIGHT_TIMEOUT_S, check=False, env=docker_client_environment()
            )
        except (OSError, subprocess.TimeoutExpired) as exc:
            raise SandboxError(f"--sandbox docker: `docker` could not run: {exc}") from exc

    def _container(
        self, name: str, *, network: bool, cwd: Path | None = None, env_names: Sequence[str] = ()
    ) -> list[str]:
        read_only, hidden, masked = self._mounts()
        user = f"{os.getuid()}:{os.getgid()}"
        return container_argv(
            self.docker,
            self.image,
            name,
            workspace=self.workspace,
            cwd=cwd,
            read_only=read_only,
            hidden=hidden,
            masked=masked,
            network=network,
            user=user,
            env_names=env_names,
        )

    def _mounts(self) -> tuple[list[Path], list[Path], list[Path]]:
        """Read-only, hidden and masked paths (ADR-0086): nothing of the home but the paths
        the user added, read-only; `.decode/` masked (but for `skills/`, `agents/`); every `.git` read-only.
        Fixed when the container starts: a repository made later stays writable for the session."""
        home = os.environ.get("HOME")
        homes = [Path(os.path.realpath(home))] if home else []
        view = workspace_view(self.workspace, self.settings.env_file.parent)
        masked = [path for path in view.masked if path.is_relative_to(self.workspace)]
        added = [
            path
            for path in added_paths(homes, tuple(self.settings.sandbox_home_paths))
            if not _in(path, [self.workspace])
        ]
        shared = [path for path in view.revealed if _in(path, masked)]
        protected = [path for path in protected_paths(self.workspace) if os.path.lexists(path) and path not in masked]
        hidden = hidden_paths(self.workspace, self.settings.env_file, homes[0] if homes else None)
        hidden = [path for path in hidden if _in(path, [self.workspace, *added])]
        read_only = list(dict.fromkeys([*added, *shared, *protected, *view.read_only]))
        return read_only, hidden, masked

    async def start(self) -> None:
        if self._keeper is not None:
            return
        # Protected directories decode would create anyway exist first, so they are bound read-only.
        with contextlib.suppress(OSError):
            (self.workspace / ".decode").mkdir(exist_ok=True)
            if (self.workspace / ".git").is_dir():
                (self.workspace / ".git" / "hooks").mkdir(exist_ok=True)
        self._absent = [p for p in protected_paths(self.workspace) if not os.path.lexists(p)]  # noqa: ASYNC240 (microseconds)
        # Its first process says it is up, then waits for the end of stdin: decode's exit.
        argv = [*self._container(self.name, network=False), "sh", "-c", "echo ready; read -r _ || :"]
        keeper = await spawn_process(argv, cwd=self.workspace, env=docker_client_environment())
        try:
            line = await asyncio.wait_for(keeper.stdout.readline(), START_TIMEOUT_S)
        except TimeoutError:
            line = b""
        if line.strip() != b"ready":
            keeper.kill()
            error = (await keeper.stderr.read()).decode("utf-8", errors="replace").strip()
            raise SandboxError(f"--sandbox docker: the container did not start: {error or 'no answer'}")
        self._keeper = keeper
        await self._until_running()
        logger.info("sandbox container %s started from %s", self.name, self.image)

    async def _until_running(self) -> None:
        """Wait until the engine counts the container as running: its first process runs a moment before."""
        deadline = asyncio.get_running_loop().time() + START_TIMEOUT_S
        while asyncio.get_running_loop().time() < deadline:
            _, out, _ = await _call([self.docker, "inspect", "--format", "{{.State.Running}}", self.name])
            if out.strip() == b"true":
                return
            await asyncio.sleep(0.02)
        raise SandboxError(f"--sandbox docker: the container {self.name} did not come up")

    async def run(self, request: ExecRequest) -> ExecResult:
        cwd, env = request.place()
        tag, inside = new_tag(), {**env, "PATH": CONTAINER_PATH}
        if request.network:  # a throw-away container on the host's network; removing it ends all it started
            name = f"{self.name}-net-{tag[:6]}"
            head = self._container(name, network=True, cwd=cwd, env_names=sorted(inside))
            stop = [self.docker, "rm", "-f", name]
        else:
            head = [self.docker, "exec", "-i", "-w", str(cwd), *_env_flags(inside), self.name]
            stop = [self.docker, "exec", self.name, *killer(tag)]
        client_env = {**inside, **docker_client_environment()}
        client = replace(request, argv=[*head, *wrapped(list(request.argv), tag)], cwd=self.workspace, env=client_env)
        try:
            result = await run_process(client)
        except BaseException:
            await asyncio.shield(self.stop(stop))  # an abort: nothing it started may run on inside
            raise
        finally:
            self._remove_created()
        if result.timed_out:
            await self.stop(stop)
        return result

    async def stop(self, argv: list[str]) -> None:
        """Run a killer (`docker exec … KILLER`, `docker rm -f`), bounded; a failure is logged."""
        code, _, err = await _call(argv)
        if code != 0:
            logger.warning("stopping a command in %s failed: %s", self.name, err.decode(errors="replace").strip())

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        tag, inside = new_tag(), {**env, "PATH": CONTAINER_PATH}
        head = [self.docker, "exec", "-i", "-w", str(cwd), *_env_flags(inside), self.name]
        client_env = {**inside, **docker_client_environment()}
        process = await spawn_process([*head, *wrapped(list(argv), tag)], cwd=self.workspace, env=client_env)
        return DockerProcess(process, self, tag)

    async def close(self) -> None:
        keeper, self._keeper = self._keeper, None
        if keeper is not None:
            await self.stop([self.docker, "rm", "-f", self.name])
            keeper.kill()
            with contextlib.suppress(ProcessLookupError):
                await keeper.wait()
            logger.info("sandbox container %s removed", self.name)
        self._remove_created()

    def _remove_created(self) -> None:
        """Remove protected paths a command created (they could not be bound read-only before they existed)."""
        for path in self._absent:
            if os.path.lexists(path):
                logger.warning("removing %s: a sandboxed command created a protected path", path)
                with contextlib.suppress(OSError):
                    if path.is_dir() and not path.is_symlink():
                        shutil.rmtree(path)
                    else:
                        path.unlink()


class DockerProcess:
    """A program `spawn` started in the container: `kill()` ends it inside too, not just its client."""

    def __init__(self, process: SpawnedProcess, backend: DockerBackend, tag: str) -> None:
        self._process, self._backend, self._tag = process, backend, tag
        self.stdin, self.stdout, self.stderr = process.stdin, process.stdout, process.stderr
        self._stopping: asyncio.Task[None] | None = None

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    async def wait(self) -> int:
        code = await self._process.wait()
        if self._stopping is not None:
            await self._stopping
        return code

    def kill(self) -> None:
        self._process.kill()
        stop = [self._backend.docker, "exec", self._backend.name, *killer(self._tag)]
        with contextlib.suppress(RuntimeError):  # no running loop: closing the container ends it
            self._stopping = asyncio.get_running_loop().create_task(self._backend.stop(stop))


async def _call(argv: Sequence[str]) -> tuple[int | None, bytes, bytes]:
    """A short `docker` command: its exit code (None: it did not run, or not in time), stdout and stderr."""
    try:
        process = await asyncio.create_subprocess_exec(
            *argv, stdin=asyncio.subprocess.DEVNULL, stdout=PIPE, stderr=PIPE, env=docker_client_environment()
        )
    except OSError as exc:
        return None, b"", str(exc).encode()
    try:
        out, err = await asyncio.wait_for(process.communicate(), KILL_TIMEOUT_S)
    except TimeoutError:
        process.kill()
        await process.wait()
        return None, b"", f"{argv[1]} took longer than {KILL_TIMEOUT_S:g} s".encode()
    return process.returncode, out, err


def _env_flags(env: Mapping[str, str]) -> list[str]:
    """`-e NAME` for each variable: docker takes the value from the client's environment, off the command line."""
    return [arg for name in sorted(env) for arg in ("-e", name)]


def _in(path: Path, places: Sequence[Path]) -> bool:
    return any(path.is_relative_to(place) for place in places)


def _why(done: subprocess.CompletedProcess[bytes]) -> str:
    lines = done.stderr.decode("utf-8", errors="replace").strip().splitlines()
    return lines[-1] if lines else f"exit code {done.returncode}"
