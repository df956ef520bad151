"""A mount the host adds while the warm sandbox runs (ADR-0111, amended): never a way around the view.

bwrap makes its copy of the host's mounts slaves of the host's. Where the host's `/` is a shared
mount (systemd makes it so on most machines), what the host mounts later shows in the warm
sandbox too: a mount above a mask (a new `/home` over the masked `~`) would cover the mask there,
where a cold sandbox masks anew on top. This machine's `/` is private, so the test makes its own
shared mount for the home to live in, as systemd would. Needs root (it mounts); skips otherwise.
"""

import asyncio
import os
import shutil
import subprocess
import tempfile
from collections.abc import AsyncIterator, Iterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode
from decode.sandbox.warm_runner import AHEAD
from tests.integration.sandbox.conftest import run, warm

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
    pytest.mark.skipif(os.geteuid() != 0, reason="mounting on the host needs root"),
]

SECRET = "sk-in-the-masked-home"


def mount(*args: str) -> None:
    subprocess.run(["mount", *args], check=True, capture_output=True)


@pytest.fixture
def shared() -> Iterator[Path]:
    """A shared mount outside `/tmp` (the sandbox has its own `/tmp`), unmounted and removed after."""
    base = Path(tempfile.mkdtemp(dir="/var/tmp", prefix="decode-test-mounts-"))
    mounted: list[Path] = []
    try:
        mount("--bind", str(base), str(base))
        mounted.append(base)
        mount("--make-shared", str(base))
        yield base
    finally:
        for point in reversed(mounted):
            subprocess.run(["umount", "-R", "-l", str(point)], check=False)
        shutil.rmtree(base, ignore_errors=True)


@pytest.fixture
async def sandbox(project: Path, shared: Path, monkeypatch: pytest.MonkeyPatch) -> AsyncIterator[SandboxExecutor]:
    home = shared / "home" / "user"
    home.mkdir(parents=True)
    (home / "secret").write_text(SECRET)
    monkeypatch.setenv("HOME", str(home))  # masked whole in the view: an empty tmpfs
    await asyncio.to_thread(subprocess.run, ["git", "init", "-q", str(project)], check=True)
    executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
    await executor.start()
    yield executor
    await close_sandboxes()


@pytest.mark.parametrize("where", ["above", "on"])
async def test_a_host_mount_over_the_masked_home_never_shows_it(
    sandbox: SandboxExecutor, shared: Path, where: str
) -> None:
    home = shared / "home" / "user"
    script = f"cat {home}/secret 2>/dev/null; true"
    _, out, _ = await run(sandbox, script)
    before = warm(sandbox)
    assert SECRET not in out
    # The host mounts over the home's folder (above the mask), or over the home itself (on it).
    point = shared / "home" if where == "above" else home
    mount("--bind", str(point), str(point))
    for _ in range(AHEAD + 2):  # the children made ahead before the mount, then those made after it
        _, out, _ = await run(sandbox, script)
        assert SECRET not in out
    assert warm(sandbox) is not before  # stale: that command ran cold, and a fresh warm sandbox took over


async def test_a_host_mount_beside_the_view_keeps_commands_warm(sandbox: SandboxExecutor, shared: Path) -> None:
    # A container's mounts come and go on a busy host: only those on or above the view matter.
    await run(sandbox, "true")
    before = warm(sandbox)
    beside = shared / "beside"
    beside.mkdir()
    mount("-t", "tmpfs", "none", str(beside))
    for _ in range(AHEAD + 2):
        result, _, _ = await run(sandbox, "true")
        assert result.exit_code == 0
    assert warm(sandbox) is before
    assert not before.stale
