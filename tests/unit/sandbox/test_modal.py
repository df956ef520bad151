"""The Modal backend offline (ADR-0065): definitions and preflight with no token, and the stream
adapters against a fake `Sandbox` at the boundary. The fake runs each `exec` as a real local
process in a session of its own (as Modal's container runtime does), so the wrapper and killer
scripts of `decode/sandbox/inside.py` run for real."""

import asyncio
import contextlib
import io
import os
import signal
import tarfile
from collections.abc import AsyncIterator, Mapping
from pathlib import Path
from typing import Any

import pytest

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult
from decode.processes.own_children import own_child
from decode.sandbox.modal import NO_TOKEN, ModalBackend, sandbox_app, sandbox_image, workspace_archive
from decode.sandbox.modal_process import ModalProcess
from decode.sandbox.types import SandboxError
from tests.conftest import until


class Aio:
    """Modal's method objects: `await obj.method.aio(...)`."""

    def __init__(self, function: Any) -> None:
        self.aio = function


class FakeStream:
    """`modal.io_streams.StreamReader` (async iteration of bytes chunks) over a local pipe."""

    def __init__(self, reader: asyncio.StreamReader) -> None:
        self._reader = reader

    def __aiter__(self) -> "FakeStream":
        return self

    async def __anext__(self) -> bytes:
        if chunk := await self._reader.read(65536):
            return chunk
        raise StopAsyncIteration


class FakeStdin:
    """`modal.io_streams.StreamWriter`: `write`, `write_eof`, `drain.aio()`."""

    def __init__(self, writer: asyncio.StreamWriter) -> None:
        self._writer, self._eof = writer, False
        self.drain = Aio(self._drain)

    def write(self, data: bytes) -> None:
        self._writer.write(data)

    def write_eof(self) -> None:
        self._eof = True

    async def _drain(self) -> None:
        await self._writer.drain()
        if self._eof and not self._writer.is_closing():
            self._writer.close()


class FakeContainerProcess:
    def __init__(self, process: asyncio.subprocess.Process) -> None:
        assert process.stdin is not None
        assert process.stdout is not None
        assert process.stderr is not None
        self.process = process
        self.stdin = FakeStdin(process.stdin)
        self.stdout, self.stderr = FakeStream(process.stdout), FakeStream(process.stderr)
        self.wait = Aio(process.wait)


class FakeSandbox:
    """`modal.Sandbox` as the backend uses it: `exec.aio(*argv, workdir=, env=, text=False)`, `terminate.aio()`."""

    def __init__(self) -> None:
        self.calls: list[tuple[str, ...]] = []
        self.terminating = self.terminated = False
        self.exec, self.terminate = Aio(self._exec), Aio(self._terminate)
        self.sessions = contextlib.ExitStack()
        """Each exec's session marked as decode's own: what runs in a real container is no orphan here."""
        self.processes: list[asyncio.subprocess.Process] = []
        self.reply: asyncio.Event | None = None
        """When set to an Event, `exec` answers only once it is set, its command already running (as
        Modal's `exec_start` RPC answers after the command started), and `terminate` ends the sandbox
        only then: an abort can land in between."""

    async def _exec(
        self, *argv: str, workdir: str | None = None, env: Mapping[str, str] | None = None, text: bool = True
    ) -> FakeContainerProcess:
        assert text is False
        self.calls.append(argv)
        pipe = asyncio.subprocess.PIPE
        mark = self.sessions.enter_context(own_child())
        process = await asyncio.create_subprocess_exec(
            *argv,
            cwd=workdir,
            env={**(env or {"PATH": os.environ["PATH"]}), "PATH": os.environ["PATH"]},
            stdin=pipe,
            stdout=pipe,
            stderr=pipe,
            start_new_session=True,
        )
        mark(process.pid)
        self.processes.append(process)
        if self.reply is not None:
            await self.reply.wait()
        return FakeContainerProcess(process)

    async def end_sessions(self) -> None:
        """SIGKILL what is left in each exec's session and reap it: a test that fails leaves nothing running."""
        for process in self.processes:
            with contextlib.suppress(ProcessLookupError, PermissionError):
                os.killpg(process.pid, signal.SIGKILL)
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(process.wait(), 10)

    async def _terminate(self) -> None:
        self.terminating = True
        if self.reply is not None:
            await self.reply.wait()
        self.terminated = True


@pytest.fixture
async def backend(tmp_path: Path) -> AsyncIterator[ModalBackend]:
    backend = ModalBackend(tmp_path, Settings(_env_file=None))  # type: ignore[call-arg]
    backend.sandbox = sandbox = FakeSandbox()
    with sandbox.sessions:
        try:
            yield backend
        finally:
            await sandbox.end_sessions()


async def run(backend: ModalBackend, script: str, **options: Any) -> tuple[ExecResult, str, str]:
    out, err = bytearray(), bytearray()
    values: dict[str, Any] = {"timeout": 20, "stdin": None, "network": False, **options}
    result = await backend.run(
        ExecRequest(
            ["sh", "-c", script],
            on_stdout=out.extend,
            on_stderr=err.extend,
            cwd=backend.workspace,
            env={"SANDBOXED": "yes"},
            **values,
        )
    )
    return result, out.decode(), err.decode()


def alive(pid: int) -> bool:
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except OSError:
        return False
    return state != "Z"


async def until_dead(pids: list[int]) -> bool:
    return await until(lambda: not any(alive(pid) for pid in pids))


def test_the_image_and_the_app_are_defined_without_a_token(monkeypatch: pytest.MonkeyPatch) -> None:
    import modal

    monkeypatch.delenv("MODAL_TOKEN_ID", raising=False)
    assert isinstance(sandbox_image(), modal.Image)
    app = sandbox_app()
    assert isinstance(app, modal.App)
    assert app.name == "decode-sandbox"


def test_preflight_without_a_token_says_to_run_modal_token_new(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import modal.config

    monkeypatch.setattr(modal.config, "_user_config", {})  # no ~/.modal.toml
    monkeypatch.delenv("MODAL_TOKEN_ID", raising=False)
    monkeypatch.delenv("MODAL_TOKEN_SECRET", raising=False)
    with pytest.raises(SandboxError) as refused:
        ModalBackend(tmp_path, Settings(_env_file=None)).preflight()  # type: ignore[call-arg]
    assert str(refused.value) == NO_TOKEN
    assert "`modal token new`" in NO_TOKEN
    monkeypatch.setenv("MODAL_TOKEN_ID", "ak-test")
    monkeypatch.setenv("MODAL_TOKEN_SECRET", "as-test")
    ModalBackend(tmp_path, Settings(_env_file=None)).preflight()  # type: ignore[call-arg]


def test_the_workspace_is_constructed_without_io_and_not_shared(tmp_path: Path) -> None:
    backend = ModalBackend(tmp_path / "not-yet", Settings(_env_file=None))  # type: ignore[call-arg]
    assert backend.host_workspace is None
    assert backend.workspace == backend.source == tmp_path / "not-yet"


async def test_run_streams_output_feeds_stdin_and_passes_only_its_environment(backend: ModalBackend) -> None:
    result, out, err = await run(backend, 'cat; echo "[$SANDBOXED]"; echo oops >&2; exit 4', stdin=b"fed\n")
    assert (result.exit_code, result.timed_out) == (4, False)
    assert (out, err) == ("fed\n[yes]\n", "oops\n")


async def test_a_timeout_kills_what_runs_inside(backend: ModalBackend) -> None:
    result, out, _ = await run(backend, "sleep 1000 & echo $!; setsid sleep 1001 & echo $!; sleep 1002", timeout=1.0)
    assert result.timed_out
    assert result.exit_code is None
    pids = [int(line) for line in out.split()]
    assert len(pids) == 2
    assert await until_dead(pids)


def written(marker: Path) -> str:
    """What a command wrote into `marker` so far ("" before it has)."""
    return marker.read_text().strip() if marker.exists() else ""


async def pid_in(marker: Path) -> int:
    """The pid a command wrote into `marker`, once it has."""
    while not written(marker):  # noqa: ASYNC110 (a file another process writes)
        await asyncio.sleep(0.02)
    return int(written(marker))


async def aborted(task: asyncio.Task[Any]) -> None:
    """Cancel `task` and wait (bounded) for it to end cancelled: an abort that ends nothing fails here, not hangs."""
    task.cancel()
    await asyncio.wait({task}, timeout=60)
    assert task.done(), "the abort did not end the run within 60 s"
    assert task.cancelled()


FOREVER = "sleep infinity & echo $! > {marker}; sleep infinity"
"""A command whose child (its pid written to `marker`) and itself run until killed."""


async def test_an_abort_kills_what_runs_inside(backend: ModalBackend, tmp_path: Path) -> None:
    marker = tmp_path / "pid"
    task = asyncio.create_task(run(backend, FOREVER.format(marker=marker), timeout=3600))
    child = await pid_in(marker)
    await aborted(task)
    assert await until_dead([child])


async def test_an_abort_before_exec_answers_kills_what_runs_inside(backend: ModalBackend, tmp_path: Path) -> None:
    """Modal's `exec` answers once the command runs: an abort before the answer must still end it."""
    marker, sandbox = tmp_path / "pid", backend.sandbox
    sandbox.reply = asyncio.Event()
    task = asyncio.create_task(run(backend, FOREVER.format(marker=marker), timeout=3600))
    child = await pid_in(marker)  # running inside, and `exec` has not answered
    task.cancel()
    sandbox.reply.set()
    await aborted(task)
    assert await until_dead([child])


async def test_an_abort_before_a_spawn_answers_kills_it_inside(backend: ModalBackend, tmp_path: Path) -> None:
    marker, sandbox = tmp_path / "pid", backend.sandbox
    sandbox.reply = asyncio.Event()
    argv = ["sh", "-c", FOREVER.format(marker=marker)]
    task = asyncio.create_task(backend.spawn(argv, cwd=backend.workspace, env={}))
    child = await pid_in(marker)
    task.cancel()
    sandbox.reply.set()
    await aborted(task)
    assert await until_dead([child])


async def test_a_command_cannot_get_the_network_alone(backend: ModalBackend) -> None:
    sandbox = backend.sandbox
    result, _, err = await run(backend, "curl https://example.com", network=True)
    assert result.exit_code == 126
    assert "DECODE_SANDBOX_NETWORK=1" in err
    assert sandbox.calls == []  # nothing ran


async def test_spawn_adapts_modal_streams_to_a_process(backend: ModalBackend) -> None:
    process = await backend.spawn(
        ["sh", "-c", 'while read -r line; do echo "got:$line"; done; echo done >&2'], cwd=backend.workspace, env={}
    )
    assert isinstance(process, ModalProcess)
    process.stdin.write(b"ping\n")
    await process.stdin.drain()
    assert await asyncio.wait_for(process.stdout.readline(), 10) == b"got:ping\n"
    process.stdin.close()
    await process.stdin.wait_closed()
    assert await asyncio.wait_for(process.wait(), 10) == 0
    assert await process.stderr.read() == b"done\n"
    assert process.returncode == 0


async def test_killing_a_spawned_process_ends_it_inside(backend: ModalBackend) -> None:
    process = await backend.spawn(["sh", "-c", "sleep 1005 & echo $!; wait"], cwd=backend.workspace, env={})
    child = int((await asyncio.wait_for(process.stdout.readline(), 10)).decode())
    process.kill()
    await asyncio.wait_for(process.wait(), 10)
    assert await until_dead([child])


async def test_close_terminates_the_sandbox_once(backend: ModalBackend) -> None:
    sandbox = backend.sandbox
    await backend.close()
    await backend.close()
    assert sandbox.terminated
    assert backend.sandbox is None


async def test_an_abort_while_closing_still_terminates_the_sandbox(backend: ModalBackend) -> None:
    sandbox = backend.sandbox
    sandbox.reply = asyncio.Event()
    task = asyncio.create_task(backend.close())
    while not sandbox.terminating:  # noqa: ASYNC110 (the fake's own flag, set when `terminate` is called)
        await asyncio.sleep(0.01)
    task.cancel()
    sandbox.reply.set()
    await aborted(task)
    assert sandbox.terminated


def test_the_upload_holds_the_workspace_with_git_but_not_its_env_files(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    (root / ".git").mkdir(parents=True)
    (root / ".git" / "HEAD").write_text("ref: refs/heads/main\n")
    (root / "a.py").write_text("print(1)\n")
    (root / ".env").write_text("GEMINI_API_KEY=secret\n")
    (root / ".env.example").write_text("GEMINI_API_KEY=\n")
    (root / "services" / "api").mkdir(parents=True)
    (root / "services" / "api" / ".env.local").write_text("TOKEN=secret\n")
    (root / "notes.txt").write_text("left out by name\n")
    archive = workspace_archive(root, [root / "notes.txt"])
    with tarfile.open(fileobj=io.BytesIO(archive)) as opened:
        names = set(opened.getnames())
    base = str(root).lstrip("/")
    assert {f"{base}/.git/HEAD", f"{base}/a.py", f"{base}/.env.example"} <= names
    assert f"{base}/.env" not in names
    assert f"{base}/services/api/.env.local" not in names
    assert f"{base}/notes.txt" not in names


def test_the_upload_leaves_decodes_records_on_this_machine(tmp_path: Path) -> None:
    root = tmp_path / "ws"
    for name in (".decode/sessions/s1.jsonl", ".decode/MEMORY.md", ".decode/skills/check/SKILL.md", "a.py"):
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_text("x\n")
    backend = ModalBackend(root, Settings(_env_file=None))  # type: ignore[call-arg]
    with tarfile.open(fileobj=io.BytesIO(workspace_archive(root, backend.left_out()))) as opened:
        names = set(opened.getnames())
    base = str(root).lstrip("/")
    assert {f"{base}/a.py", f"{base}/.decode/skills/check/SKILL.md"} <= names  # what a team shares goes up
    assert not {name for name in names if "sessions" in name or "MEMORY" in name}
