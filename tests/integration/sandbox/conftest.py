"""Fixtures for the sandbox tests.

`dockerd`: a private Docker engine for the whole session (its own data root and socket under a
temporary directory, `--iptables=false --bridge=none` as this machine allows), with the offline
sandbox image imported by `scripts/sandbox-image`. It skips, saying why, only when the engine
cannot start here (not root, dockerd not installed, its own error, or it cannot run a container).
`docker_host` points the test's `DOCKER_HOST` at it.
"""

import asyncio
import os
import shutil
import signal
import subprocess
import sys
import tempfile
import time
from collections.abc import AsyncIterator, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.bwrap import BwrapBackend
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode
from decode.sandbox.warm import WarmSandbox

ROOT = Path(__file__).resolve().parents[3]
DOCKERD_START_S = 60.0
IMAGE = "decode-sandbox:test"


@dataclass(frozen=True)
class Dockerd:
    host: str  # DOCKER_HOST
    image: str
    started_s: float  # measured: the engine up
    imported_s: float  # measured: the image built and imported


def _docker(host: str, *args: str, timeout: float = 60) -> subprocess.CompletedProcess[str]:
    env = {**os.environ, "DOCKER_HOST": host}
    return subprocess.run(["docker", *args], capture_output=True, text=True, env=env, timeout=timeout, check=False)


@pytest.fixture(scope="session")
def dockerd() -> Iterator[Dockerd]:
    binary = shutil.which("dockerd") or shutil.which("dockerd", path="/usr/sbin:/usr/bin")
    if binary is None or shutil.which("docker") is None:
        pytest.skip("dockerd or the docker CLI is not installed here (Debian: apt install docker.io)")
    if os.geteuid() != 0:
        pytest.skip("dockerd needs root here (rootless Docker is not set up)")
    root = Path(tempfile.mkdtemp(prefix="decode-dockerd-"))  # short: socket paths are limited to 108 bytes
    host = f"unix://{root}/docker.sock"
    log = (root / "dockerd.log").open("wb")
    argv = [binary, "--iptables=false", "--bridge=none", "--data-root", f"{root}/data", "--exec-root", f"{root}/x"]
    # --shutdown-timeout 1: a container still running when the suite ends is stopped at once.
    argv += ["--pidfile", f"{root}/dockerd.pid", "-H", host, "--shutdown-timeout", "1"]
    started = time.monotonic()
    daemon = subprocess.Popen(argv, stdout=log, stderr=subprocess.STDOUT, stdin=subprocess.DEVNULL)
    try:
        while _docker(host, "info", "--format", "{{.ServerVersion}}", timeout=10).returncode != 0:
            if daemon.poll() is not None or time.monotonic() - started > DOCKERD_START_S:
                tail = (root / "dockerd.log").read_text(errors="replace").strip().splitlines()[-3:]
                pytest.skip(f"dockerd cannot start here: {' | '.join(tail) or f'exit {daemon.returncode}'}")
            time.sleep(0.1)
        up = time.monotonic()
        built = subprocess.run(
            [sys.executable, str(ROOT / "scripts" / "sandbox-image"), "--tag", IMAGE],
            capture_output=True,
            text=True,
            env={**os.environ, "DOCKER_HOST": host},
            timeout=300,
            check=False,
        )
        assert built.returncode == 0, built.stderr
        probe = _docker(host, "run", "--rm", "--network", "none", IMAGE, "true")
        if probe.returncode != 0:  # an engine that starts but cannot run a container here (no cgroups…)
            pytest.skip(f"dockerd started but cannot run a container here: {probe.stderr.strip()}")
        yield Dockerd(host=host, image=IMAGE, started_s=up - started, imported_s=time.monotonic() - up)
    finally:
        daemon.send_signal(signal.SIGTERM)
        try:
            daemon.wait(timeout=30)
        except subprocess.TimeoutExpired:
            daemon.kill()
            daemon.wait()
        log.close()
        _unmount_below(root)
        shutil.rmtree(root, ignore_errors=True)


def _unmount_below(root: Path) -> None:
    """Unmount what dockerd left mounted under `root` (its `netns/default`), deepest first."""
    mounts = [line.split()[4] for line in Path("/proc/self/mountinfo").read_text().splitlines()]
    for point in sorted((m for m in mounts if m.startswith(f"{root}/")), key=len, reverse=True):
        subprocess.run(["umount", "-l", point], capture_output=True, check=False)


@pytest.fixture
def docker_host(dockerd: Dockerd, monkeypatch: pytest.MonkeyPatch) -> Dockerd:
    """The private engine, as this test's `DOCKER_HOST`."""
    monkeypatch.setenv("DOCKER_HOST", dockerd.host)
    monkeypatch.delenv("DOCKER_CONTEXT", raising=False)
    return dockerd


async def run(
    executor: SandboxExecutor, script: str, *, seconds: float = 30, network: bool = False
) -> tuple[ExecResult, str, str]:
    """`bash -c script` in the sandbox: its result, stdout and stderr."""
    out, err = bytearray(), bytearray()
    result = await executor.run(
        ExecRequest(
            ["bash", "-c", script], timeout=seconds, on_stdout=out.extend, on_stderr=err.extend, network=network
        )
    )
    return result, out.decode(), err.decode()


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """An empty folder for decode's launch directory (the Harness Home), beside the test's others."""
    path = tmp_path / "home"
    path.mkdir()
    return path


@pytest.fixture
async def sandbox(project: Path) -> AsyncIterator[SandboxExecutor]:
    """A started bubblewrap sandbox on `project` (a git repository), closed after the test."""
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(project)], check=True)
    executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
    await executor.start()
    yield executor
    await close_sandboxes()


def marked(marker: str) -> list[int]:
    """Host pids of the processes whose environment holds `marker` (set by the command inside)."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if marker.encode() in (entry / "environ").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue
    return found


def warm(executor: SandboxExecutor) -> WarmSandbox:
    """The warm sandbox the last command ran in (failing the test when commands ran cold)."""
    backend = executor.backend
    assert isinstance(backend, BwrapBackend)
    assert backend.warm.off is None, backend.warm.off
    assert backend.warm.current is not None
    return backend.warm.current
