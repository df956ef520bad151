"""`SandboxExecutor` over a backend: environment, network and file operations (ADR-0062).

The backend here runs commands on this machine with no isolation at all (`PlainBackend`): what
is tested is what the executor adds over any backend, not a sandbox.
"""

from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from decode.agent.options import LoopOptions
from decode.agent.steps.executor import command_environment_for
from decode.agent.steps.sandbox import executor_for
from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.processes.local import LocalExecutor
from decode.processes.run import run_process
from decode.processes.spawn import spawn_process
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxMode


class PlainBackend:
    """Commands straight on this machine; records what the executor asked for."""

    mode = SandboxMode.BWRAP

    def __init__(self, workspace: Path, *, bind_mounted: bool = True) -> None:
        self.workspace = workspace
        self.host_workspace = workspace if bind_mounted else None
        self.calls: list[tuple[list[str], dict[str, str], bool]] = []
        self.requests: list[ExecRequest] = []
        self.started = self.closed = 0

    def preflight(self) -> None:
        pass

    async def start(self) -> None:
        self.started += 1

    async def run(self, request: ExecRequest) -> ExecResult:
        self.calls.append((list(request.argv), dict(request.place()[1]), request.network))
        self.requests.append(request)
        return await run_process(request)

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        return await spawn_process(argv, cwd=cwd, env=env)

    async def close(self) -> None:
        self.closed += 1


async def test_commands_get_the_sandbox_environment_and_start_it_once(tmp_path: Path) -> None:
    backend = PlainBackend(tmp_path)
    executor = SandboxExecutor(backend, env={"PATH": "/usr/bin:/bin", "HOME": "/tmp"})
    out = bytearray()
    for _ in range(2):
        await executor.run(ExecRequest(["env"], timeout=10, on_stdout=out.extend, on_stderr=out.extend))
    assert backend.started == 1
    assert backend.calls[0][1] == {"PATH": "/usr/bin:/bin", "HOME": "/tmp"}
    assert backend.calls[0][2] is False
    await executor.close()
    assert backend.closed == 1


async def test_network_is_per_command_unless_every_command_has_it(tmp_path: Path) -> None:
    backend = PlainBackend(tmp_path)
    executor = SandboxExecutor(backend, env={})
    await executor.run(ExecRequest(["true"], timeout=10, on_stdout=print, on_stderr=print, network=True))
    await executor.run(ExecRequest(["true"], timeout=10, on_stdout=print, on_stderr=print))
    assert [network for *_, network in backend.calls] == [True, False]
    everything = SandboxExecutor(PlainBackend(tmp_path), env={}, network=True)
    await everything.run(ExecRequest(["true"], timeout=10, on_stdout=print, on_stderr=print))
    assert everything.backend.calls[0][2] is True  # type: ignore[attr-defined]


async def test_the_backend_gets_the_callers_request_with_the_sandboxs_defaults(tmp_path: Path) -> None:
    backend = PlainBackend(tmp_path)
    executor = SandboxExecutor(backend, env={"PATH": "/usr/bin:/bin"})
    out = bytearray()
    request = ExecRequest(["cat"], timeout=10, on_stdout=out.extend, on_stderr=out.extend, stdin=b"fed")
    result = await executor.run(request)
    assert (result.exit_code, bytes(out)) == (0, b"fed")
    [seen] = backend.requests
    assert seen.place() == (tmp_path, {"PATH": "/usr/bin:/bin"})
    assert (seen.argv, seen.timeout, seen.stdin, seen.on_stdout) == (["cat"], 10, b"fed", out.extend)


@pytest.mark.parametrize("bind_mounted", [True, False])
async def test_file_operations_and_protected_paths(tmp_path: Path, bind_mounted: bool) -> None:
    (tmp_path / ".git").mkdir()
    backend = PlainBackend(tmp_path, bind_mounted=bind_mounted)
    executor = SandboxExecutor(backend, env={"PATH": "/usr/bin:/bin"})
    await executor.write_atomic(tmp_path / "src" / "a.py", b"print(1)\n")
    assert await executor.read_bytes(tmp_path / "src" / "a.py") == b"print(1)\n"
    stat = await executor.stat(tmp_path / "src" / "a.py")
    assert stat is not None
    assert stat.size == 9
    assert ("src/a.py" in dict(await executor.list_tree(tmp_path))) is True
    with pytest.raises(PermissionError, match=r"\.git is protected in a sandbox"):
        await executor.write_atomic(tmp_path / ".git" / "hooks" / "post-checkout", b"#!/bin/sh\n")
    with pytest.raises(PermissionError, match=r"\.mcp\.json is protected"):
        await executor.write_atomic(tmp_path / ".mcp.json", b"{}")
    assert not (tmp_path / ".mcp.json").exists()
    # Direct I/O when the Workspace is bind-mounted; commands through the backend when it is not.
    assert bool(backend.calls) is not bind_mounted


def test_none_is_the_local_executor_exactly_as_before(tmp_path: Path) -> None:
    settings = Settings(_env_file=None)  # type: ignore[call-arg]
    executor = executor_for(LoopOptions(home=tmp_path), settings)
    assert type(executor) is LocalExecutor
    assert executor.workspace == tmp_path.resolve()
    assert executor.env == command_environment_for(settings)  # type: ignore[attr-defined]
    elsewhere = executor_for(LoopOptions(home=tmp_path, sandbox="none", workspace=tmp_path / "w"), settings)
    assert elsewhere.workspace == (tmp_path / "w").resolve()
