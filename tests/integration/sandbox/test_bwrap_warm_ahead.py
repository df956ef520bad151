"""The children a warm sandbox's runner makes ahead of commands (ADR-0111), for real.

The next child is made once a command's result is back, never beside the command: its fork and
namespaces would take the CPU from the command starting. A child the runner made while decode was
busy elsewhere (its message not yet handed over by the event loop) counts as ready.
"""

import asyncio
import os
import select
import shutil
from collections.abc import AsyncIterator
from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.sandbox.backends import close_sandboxes, open_sandbox
from decode.sandbox.bwrap import BwrapBackend
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode
from decode.sandbox.warm import WarmSandbox
from decode.sandbox.warm_runner import AHEAD
from tests.integration.sandbox.conftest import run
from tests.integration.sandbox.test_bwrap_warm import children, runner

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]


@pytest.fixture
async def sandbox(project: Path) -> AsyncIterator[SandboxExecutor]:
    executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))  # type: ignore[call-arg]
    await executor.start()
    yield executor
    await close_sandboxes()


async def warm_with_all_ahead(executor: SandboxExecutor) -> WarmSandbox:
    """The warm sandbox, once every child it makes ahead has been handed to decode."""
    await run(executor, "true")
    backend = executor.backend
    assert isinstance(backend, BwrapBackend)
    warm = backend.warm.current
    assert warm is not None
    assert backend.warm.off is None
    for _ in range(600):
        if len(warm._ahead) == AHEAD:
            return warm
        await asyncio.sleep(0.05)
    raise AssertionError(f"the runner made {len(warm._ahead)} children ahead, not {AHEAD}")


def said_unread(warm: WarmSandbox) -> bool:
    """Wait (the event loop held: decode busy elsewhere) until the runner has said something decode has not read."""
    readable, _, _ = select.select([warm._control], [], [], 30)
    return bool(readable)


async def test_a_child_made_while_decode_was_busy_is_used_and_none_is_made_beside_the_command(
    sandbox: SandboxExecutor, project: Path
) -> None:
    warm = await warm_with_all_ahead(sandbox)
    told: list[dict[str, object]] = []
    tell = warm._tell
    warm._tell = lambda message: (told.append(message), tell(message))[1]  # type: ignore[method-assign]
    await run(sandbox, "true")  # one child used: the next is asked for once the result is back
    for _ in range(100):
        if told:
            break
        await asyncio.sleep(0)
    assert [list(message) for message in told] == [["used"]]
    assert said_unread(warm)  # the runner made it; the event loop has not handed it over
    during: list[int] = []
    result = await warm.run(
        ExecRequest(
            ["echo", "hi"],
            cwd=project,
            env={"PATH": "/usr/bin:/bin"},
            timeout=30,
            on_stdout=lambda _: during.append(len(told)),
            on_stderr=lambda _: None,
        ),
        placeholders=[],
    )
    assert result is not None
    assert result.exit_code == 0
    assert during == [1]  # nothing asked of the runner while the command ran
    await asyncio.sleep(0)
    assert [list(message) for message in told] == [["used"], ["used"]]  # asked once its result was back


async def test_a_sandbox_closed_with_a_child_unread_ends_its_runner_cleanly(sandbox: SandboxExecutor) -> None:
    warm = await warm_with_all_ahead(sandbox)
    await run(sandbox, "true")
    await asyncio.sleep(0)  # the next child asked for
    assert said_unread(warm)
    await close_sandboxes()  # decode's end closed with the runner's message in it
    assert warm._process.returncode == 0  # the runner took it as decode gone: no traceback, no error


async def test_a_commands_mounts_are_held_by_its_pid_1_alone(sandbox: SandboxExecutor, project: Path) -> None:
    warm = await warm_with_all_ahead(sandbox)
    running = asyncio.ensure_future(run(sandbox, "touch ran; while [ ! -e done ]; do sleep 0.05; done"))
    for _ in range(600):
        if (project / "ran").exists():
            break
        await asyncio.sleep(0.05)
    # Host pids: the runner's child that made the command's namespaces, and its pid 1 (running it).
    ((child, pid_1),) = [
        (child, pid_1) for child in children(runner(warm.pid)) for pid_1 in children(child) if children(pid_1)
    ]
    namespaces = {os.readlink(f"/proc/{pid}/ns/mnt") for pid in (runner(warm.pid), child, pid_1)}
    # Three mount namespaces: the child that made the command's left it for a copy of its own, so
    # the command's mounts (its placeholders) end with its pid 1, and decode's unlink of a
    # placeholder finds no mount left to detach.
    assert len(namespaces) == 3
    (project / "done").touch()
    result, _, _ = await running
    assert result.exit_code == 0


@pytest.mark.skipif(shutil.which("chrt") is None, reason="util-linux's chrt is not installed")
async def test_children_are_made_as_background_work_and_commands_run_as_any_process(sandbox: SandboxExecutor) -> None:
    warm = await warm_with_all_ahead(sandbox)
    # Woken by decode's word after a result, the runner does not take the CPU from decode at once.
    assert os.sched_getscheduler(runner(warm.pid)) == os.SCHED_BATCH
    result, out, _ = await run(sandbox, "chrt -p $$")
    assert result.exit_code == 0
    assert "SCHED_OTHER" in out  # the command, and its pid 1 before it, as without a sandbox
