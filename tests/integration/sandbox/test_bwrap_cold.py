"""The cold bubblewrap sandbox (a command given the network): what its command left, reported.

bwrap's pid 1 hands the exit code out and exits, and the kernel ends the rest of the namespace,
before or after decode looks below itself: the report must come from inside (ADR-0099, amended).
"""

import shutil
import uuid

import pytest

from decode.entities.executor import ExecRequest
from decode.processes import run as running
from decode.processes import tracking
from decode.sandbox.executor import SandboxExecutor
from tests.conftest import wait_for
from tests.integration.sandbox.conftest import marked, run

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]


async def test_what_a_cold_command_left_is_reported_though_the_kernel_ended_it_first(
    sandbox: SandboxExecutor, monkeypatch: pytest.MonkeyPatch
) -> None:
    # The interleaving that made it random, forced: decode looks below itself only once the
    # leftover is gone (ended with the sandbox's pid namespace), so it finds nothing there itself.
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    original = running.release

    def late(tracked: tracking.Tracked) -> int:
        assert wait_for(lambda: marked(marker) == []), "the sandbox did not end what its command left"
        return original(tracked)

    monkeypatch.setattr(running, "release", late)
    script = f"export {marker}; nohup sleep 1000 >/dev/null 2>&1 & echo started"
    result, out, _ = await run(sandbox, script, network=True)
    assert (result.exit_code, out) == (0, "started\n")
    assert result.stopped_leftovers


async def test_a_cold_command_that_leaves_nothing_reports_nothing(sandbox: SandboxExecutor) -> None:
    result, out, _ = await run(sandbox, "(echo child) & wait; echo parent", network=True)
    assert (result.exit_code, out) == (0, "child\nparent\n")
    assert not result.stopped_leftovers


@pytest.mark.parametrize(
    ("script", "code", "stderr"),
    [
        ("echo err >&2; exit 3", 3, "err\n"),
        ("kill -9 $$", 137, ""),  # killed by a signal: 128 + N, as bwrap says, and no "Killed" line
        ("exec /nonexistent/program", 127, "/nonexistent/program"),
    ],
)
async def test_a_cold_command_keeps_its_exit_code_and_its_stderr(
    sandbox: SandboxExecutor, script: str, code: int, stderr: str
) -> None:
    result, _, err = await run(sandbox, script, network=True)
    assert result.exit_code == code
    assert stderr in err if stderr else err == ""
    assert not result.stopped_leftovers


async def test_a_cold_command_reads_its_stdin(sandbox: SandboxExecutor) -> None:
    out = bytearray()
    result = await sandbox.run(
        ExecRequest(
            ["bash", "-c", "read line; echo got $line"],
            timeout=30,
            on_stdout=out.extend,
            on_stderr=lambda _: None,
            stdin=b"hello\n",
            network=True,
        )
    )
    assert (result.exit_code, bytes(out)) == (0, b"got hello\n")


@pytest.mark.parametrize("signal", ["KILL", "TERM", "STOP"])
async def test_a_cold_command_that_signals_the_shell_around_it_leaves_nothing_behind(
    sandbox: SandboxExecutor, signal: str
) -> None:
    # A hostile command reaches the wrapper (its parent, `$PPID`): killed, it writes no report;
    # stopped, it never ends. Either way what the command left must not outlive the result.
    marker = f"DECODE_TEST_MARK={uuid.uuid4().hex}"
    script = f"export {marker}; nohup sleep 1000 >/dev/null 2>&1 & kill -{signal} $PPID; echo signalled"
    result, _, _ = await run(sandbox, script, seconds=5, network=True)
    assert result.timed_out == (signal == "STOP")  # a stopped wrapper holds the command to its timeout
    assert wait_for(lambda: marked(marker) == []), "what the command left outlived its result"
