"""`open_sandbox`: the one place a sandbox mode becomes a backend, imported only when chosen.

Each backend module is imported lazily (Modal's SDK is heavy; docker needs nothing until used),
checked with its `preflight()` at once, and wrapped in a `SandboxExecutor`.
"""

import logging
from importlib import import_module
from pathlib import Path

from decode.config.settings import Settings
from decode.sandbox.environment import sandbox_environment
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxBackend, SandboxError, SandboxMode

logger = logging.getLogger(__name__)

BACKENDS = {
    SandboxMode.BWRAP: ("decode.sandbox.bwrap", "BwrapBackend"),
    SandboxMode.DOCKER: ("decode.sandbox.docker", "DockerBackend"),  # [lesson 18]
    SandboxMode.MODAL: ("decode.sandbox.modal", "ModalBackend"),  # [lesson 18]
}
"""Mode → (module, class). Every class is built as `Backend(workspace, settings)`."""

_opened: dict[tuple[SandboxMode, Path, int], SandboxExecutor] = {}
"""Every sandbox this process opened and has not closed, by mode, Workspace and settings object:
the front ends close them at exit."""


def open_sandbox(mode: SandboxMode, workspace: Path, settings: Settings) -> SandboxExecutor:
    """A `SandboxExecutor` for `workspace` (resolved) in a `mode` sandbox, its preflight passed.

    `SandboxError` (the message says what to do) when the backend cannot run here: decode then
    refuses to start, never falls back to running unsandboxed. Nothing is started yet:
    `await executor.start()` (or the first command) does that, `await executor.close()` ends it.
    The same one again while it is open (the REPL rebuilds its conversation on `/resume`, `/model`):
    one sandbox (one container) per session, not one per conversation.
    """
    key = (mode, workspace.resolve(), id(settings))
    if (executor := _opened.get(key)) is not None:
        return executor
    backend = checked_backend(mode, workspace, settings)
    executor = SandboxExecutor(backend, env=sandbox_environment(settings), network=settings.sandbox_network)
    _opened[key] = executor
    return executor


def checked_backend(mode: SandboxMode, workspace: Path, settings: Settings) -> SandboxBackend:
    """The `mode` backend for `workspace`, its preflight passed (`SandboxError` if not)."""
    if mode is SandboxMode.NONE:
        raise ValueError("no sandbox: use the local executor")
    # [lesson 18]
    module_name, class_name = BACKENDS[mode]
    # [before lesson 18]
    # if mode not in BACKENDS:  # Docker and Modal come in lesson 18
    #     raise SandboxError(f"the {mode} sandbox is not in this lesson's package: use --sandbox bwrap or none")
    # module_name, class_name = BACKENDS[mode]
    # [/lesson 18]
    try:
        backend_class = getattr(import_module(module_name), class_name)
    except ImportError as exc:
        raise SandboxError(f"the {mode} sandbox is not available in this install: {exc}") from exc
    backend: SandboxBackend = backend_class(workspace.resolve(), settings)
    backend.preflight()
    return backend


def check_sandbox(mode: str | None, workspace: Path) -> str | None:
    """Why `decode --sandbox MODE` cannot start here (for the REPL, before it draws), or None.

    Bad settings are left to the warm-up, which reports them.
    """
    if mode is None or SandboxMode(mode) is SandboxMode.NONE:
        return None
    from decode.config.loading import ConfigError, load_settings

    try:
        checked_backend(SandboxMode(mode), workspace, load_settings())
    except ConfigError:
        return None
    except SandboxError as exc:
        return str(exc)
    return None


async def start_sandbox(executor: object) -> str | None:
    """Start `executor` if it is a sandbox's: None when it runs, else what went wrong (for the user)."""
    if not isinstance(executor, SandboxExecutor):
        return None
    try:
        await executor.start()
    except SandboxError as exc:
        return str(exc)
    return None


async def close_sandboxes() -> None:
    """Close every open sandbox (what runs inside is stopped); a failure is logged, not raised."""
    while _opened:
        _, executor = _opened.popitem()
        try:
            await executor.close()
        except Exception:
            logger.warning("the %s sandbox did not close cleanly", executor.mode, exc_info=True)
