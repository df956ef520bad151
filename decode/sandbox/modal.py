"""The Modal backend: a `modal.Sandbox` in Modal's cloud, behind the same seam (ADR-0065).

The Workspace is not shared with this machine (`host_workspace` is None): at `start()` the host
side Workspace (the clone `--repo` made, or the launch directory) is uploaded as a tar archive
through a command's stdin, to the same path inside, without its `.env` files. The user's
credentials never go there: the hand-back (`decode/sandbox/handback.py`) brings the work back
as a git bundle written to a command's stdout, and pushes it from here. File tools use the
seam's defaults, built on `run` (the image is Debian with GNU tools and git).

Commands run through `Sandbox.exec` under the same wrapper as Docker's (`decode/sandbox/inside.py`),
so a timeout or an abort kills the process inside. The network: the sandbox is created with
`block_network` unless `sandbox_network` is set; a single command cannot be given it, so a
command that asks for it is refused with a message saying what to set.

`modal` is imported only here, and only when the sandbox starts (it takes seconds to import).
What needs Modal's cloud (a token): `start()` and every command. What does not: the image and app
definitions, the preflight, and the stream adapters (`decode/sandbox/modal_process.py`, tested
against a fake at the boundary).
"""

import asyncio
import contextlib
import io
import os
import tarfile
from collections.abc import Mapping, Sequence
from pathlib import Path
from typing import Any

from decode.config.settings import Settings
from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.processes.tracking import new_tag
from decode.sandbox.host_view import hidden_paths, private_records
from decode.sandbox.inside import CONTAINER_PATH, killer, wrapped
from decode.sandbox.modal_process import ModalProcess, drive
from decode.sandbox.types import SandboxError, SandboxMode

APP_NAME = "decode-sandbox"
SESSION_TIMEOUT_S = 12 * 3600
"""The longest a session's sandbox lives (Modal's limit is 24 h)."""
IDLE_TIMEOUT_S = 30 * 60
"""A sandbox nothing has run in for this long is ended by Modal: decode died without closing it."""
KILL_TIMEOUT_S = 30.0
NO_NETWORK = (
    "decode: the modal sandbox has no network, and one command cannot be given it. "
    "Set DECODE_SANDBOX_NETWORK=1 to create the sandbox with network for every command.\n"
)
NO_TOKEN = (
    "--sandbox modal: no Modal token here. Run `modal token new` (or set MODAL_TOKEN_ID and "
    "MODAL_TOKEN_SECRET), or choose another --sandbox. decode does not run unsandboxed instead."
)


def sandbox_image() -> Any:
    """The sandbox's image: Debian slim with git (the hand-back's bundle). A definition: built by Modal on first use."""
    import modal

    return modal.Image.debian_slim().apt_install("git")


def sandbox_app() -> Any:
    """The app sandboxes are created in (a definition; `start()` looks it up by name, live)."""
    import modal

    return modal.App(APP_NAME)


def has_token() -> bool:
    """Does Modal's own configuration (`~/.modal.toml`, `MODAL_TOKEN_ID`…) hold a token?"""
    from modal.config import config

    return bool(config.get("token_id") and config.get("token_secret"))


def _secret(name: str) -> bool:
    """`.env`, `.env.local`… in any folder (bwrap's rule, `hidden_paths`, applied to the whole tree:
    what is uploaded leaves this machine), but not a template the project keeps in git."""
    if name != ".env" and not name.startswith(".env."):
        return False
    return name.rpartition(".")[2] not in {"example", "sample", "template", "dist"}


def workspace_archive(root: Path, leave_out: Sequence[Path] = ()) -> bytes:
    """The Workspace as an uncompressed tar archive with absolute names, without `leave_out` and `.env` files."""
    skipped = {str(path) for path in leave_out}

    def keep(info: tarfile.TarInfo) -> tarfile.TarInfo | None:
        secret = f"/{info.name}" in skipped or (info.isfile() and _secret(Path(info.name).name))
        return None if secret else info

    buffer = io.BytesIO()
    with tarfile.open(fileobj=buffer, mode="w") as archive:
        archive.add(root, arcname=str(root), filter=keep)
    return buffer.getvalue()


class ModalBackend:
    """Commands in a Modal Sandbox; the Workspace uploaded to the same path inside."""

    mode = SandboxMode.MODAL

    def __init__(self, workspace: Path, settings: Settings) -> None:
        self.workspace = workspace
        self.source = workspace
        """The host-side Workspace: uploaded at `start()`; the hand-back fetches into it."""
        self.host_workspace: Path | None = None
        self.settings = settings
        self.network = settings.sandbox_network
        self.sandbox: Any = None  # a `modal.Sandbox` once started

    def preflight(self) -> None:
        try:
            token = has_token()
        except ImportError as exc:
            raise SandboxError(f"--sandbox modal: the `modal` package is not installed ({exc})") from exc
        if not token:
            raise SandboxError(NO_TOKEN)

    async def start(self) -> None:
        if self.sandbox is not None:
            return
        import modal

        try:
            app = await modal.App.lookup.aio(APP_NAME, create_if_missing=True)
            self.sandbox = await modal.Sandbox.create.aio(
                "sleep",
                "infinity",
                app=app,
                image=sandbox_image(),
                timeout=SESSION_TIMEOUT_S,
                idle_timeout=IDLE_TIMEOUT_S,
                block_network=not self.network,
            )
        except Exception as exc:  # Modal's errors (auth, quota, network) all mean: no sandbox
            raise SandboxError(f"--sandbox modal: the sandbox could not start: {exc}") from exc
        await self.upload()

    async def upload(self) -> None:
        """Copy the host-side Workspace into the sandbox, at the same path, without its secrets."""
        archive = await asyncio.to_thread(workspace_archive, self.source, self.left_out())
        err = bytearray()
        script = 'mkdir -p "$1" && tar -x -f - -C /'
        request = ExecRequest(
            ["sh", "-c", script, "sh", str(self.workspace)],
            timeout=SESSION_TIMEOUT_S,
            on_stdout=lambda _: None,
            on_stderr=err.extend,
            cwd=Path("/"),
            env={"PATH": CONTAINER_PATH},
            stdin=archive,
        )
        result = await self.run(request)
        if result.exit_code != 0:
            raise SandboxError(f"--sandbox modal: the Workspace could not be uploaded: {err.decode(errors='replace')}")

    def left_out(self) -> list[Path]:
        """What the upload leaves on this machine: secrets, and decode's records (ADR-0086)."""
        home = os.environ.get("HOME")
        return hidden_paths(self.source, self.settings.env_file, Path(home) if home else None) + private_records(
            self.source
        )

    def _started(self) -> Any:
        if self.sandbox is None:
            raise SandboxError("the modal sandbox is not started")
        return self.sandbox

    async def _exec(self, argv: Sequence[str], tag: str, *, cwd: Path, env: Mapping[str, str]) -> Any:
        """Start `argv` wrapped under `tag`. Modal answers once the command runs inside: an abort
        before the answer lets the start finish (not cancelled half-way), then ends it inside."""
        command = wrapped(list(argv), tag)
        environment = {**env, "PATH": CONTAINER_PATH}
        starting = asyncio.ensure_future(
            self._started().exec.aio(*command, workdir=str(cwd), env=environment, text=False)
        )
        try:
            return await asyncio.shield(starting)
        except asyncio.CancelledError:
            await asyncio.shield(self._abandon(starting, tag))
            raise

    async def _abandon(self, starting: "asyncio.Future[Any]", tag: str) -> None:
        """End what an aborted start started, once started: a killer run before would find nothing yet."""
        with contextlib.suppress(Exception):  # a failed start started nothing; a slow one is killed anyway
            await asyncio.wait_for(asyncio.shield(starting), KILL_TIMEOUT_S)
        await self._kill(tag)

    async def _kill(self, tag: str) -> None:
        process = await self._started().exec.aio(*killer(tag), text=False)
        await asyncio.wait_for(process.wait.aio(), KILL_TIMEOUT_S)

    async def run(self, request: ExecRequest) -> ExecResult:
        if request.network and not self.network:
            request.on_stderr(NO_NETWORK.encode())
            return ExecResult(exit_code=126, duration_s=0.0)
        tag, (cwd, env) = new_tag(), request.place()
        process = await self._exec(request.argv, tag, cwd=cwd, env=env)
        return await drive(process, request, kill=lambda: self._kill(tag))

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        tag = new_tag()
        process = await self._exec(argv, tag, cwd=cwd, env=env)
        return ModalProcess(process, lambda: self._kill(tag))

    async def close(self) -> None:
        sandbox, self.sandbox = self.sandbox, None
        if sandbox is not None:
            ending = asyncio.ensure_future(sandbox.terminate.aio())
            try:
                await asyncio.shield(ending)
            except asyncio.CancelledError:  # an abort while it ends (a second Ctrl-C): it still ends
                await asyncio.shield(ending)
                raise
