"""Which warm sandbox a command runs in: the one for today's view, started or replaced as needed.

A warm sandbox holds the view it was started with (ADR-0111). Before each command decode works
the view out again, as for a cold sandbox, and keys it by the command line bwrap would get and
the device and inode of every file it binds: a new nested repository, a protected file made or
replaced, a hidden `.env` appearing, and the key changes, so a new warm sandbox replaces the old
one (which ends once its commands have). A warm sandbox that cannot start, or that failed, turns
the warm path off for the session: commands run cold, as before, and the log says why.
"""

import asyncio
import logging
import os
import sys
from collections.abc import Sequence

from decode.sandbox.types import SandboxError
from decode.sandbox.warm import WarmSandbox, warm_argv

logger = logging.getLogger(__name__)

BINDS = frozenset({"--bind", "--ro-bind", "--ro-bind-try", "--dev-bind"})
MOUNT_RACE = ("Can't bind mount", "Unable to apply mount flags")
"""bwrap's words when a host mount it was copying (`--ro-bind / /`) went away meanwhile: a container
starting or stopping. The mount table has settled by the next start, so one more is tried."""


def view_key(args: Sequence[str]) -> tuple[object, ...]:
    """The command line, and what each bind's source is now (device, inode), or None if gone."""
    sources = [args[at + 1] for at, arg in enumerate(args[:-1]) if arg in BINDS]
    return (tuple(args), *(_identity(source) for source in sources))


def _identity(path: str) -> tuple[int, int] | None:
    try:
        info = os.stat(path)
    except OSError:
        return None
    return info.st_dev, info.st_ino


class WarmKeeper:
    """The warm sandbox of one bwrap backend (see the module docstring)."""

    def __init__(self) -> None:
        self._off: str | None = None
        self._current: WarmSandbox | None = None
        self._retired: list[WarmSandbox] = []
        self._lock: asyncio.Lock | None = None

    @property
    def off(self) -> str | None:
        """Why commands run cold for the rest of the session (a warm sandbox could not start, or
        failed), or None."""
        return self._off or (self._current.broken if self._current is not None else None)

    @property
    def current(self) -> WarmSandbox | None:
        """The warm sandbox commands run in now, if one is up."""
        return self._current

    async def sandbox(self, view_args: Sequence[str]) -> WarmSandbox | None:
        """The warm sandbox for the view `view_args` (a cold sandbox's command line for no
        command), started if need be; None: run the command cold."""
        await self._close_retired()
        if self.off is not None:
            return None
        key = view_key(view_args)
        self._lock = self._lock or asyncio.Lock()
        async with self._lock:
            current = self._current
            if current is not None and current.broken is not None:
                self._off, self._current = current.broken, None
                return None
            if current is not None and current.key == key and not current.stale:
                return current
            if current is not None:
                self._retired.append(current)
                self._current = None
            try:
                self._current = await self._start(warm_argv(view_args, sys.executable), key)
            except SandboxError as exc:
                self._off = str(exc)
                logger.warning("%s; commands run in a cold sandbox", exc)
        return self._current

    @staticmethod
    async def _start(argv: list[str], key: tuple[object, ...]) -> WarmSandbox:
        try:
            return await WarmSandbox.start(argv, key)
        except SandboxError as exc:
            if not any(words in str(exc) for words in MOUNT_RACE):
                raise
            logger.info("%s; starting it again (a host mount changed while bwrap copied it)", exc)
            return await WarmSandbox.start(argv, key)

    async def _close_retired(self) -> None:
        for warm in [warm for warm in self._retired if warm.running == 0]:
            self._retired.remove(warm)
            await warm.close(at_once=True)  # replaced: what it has ready is of no use, and it may be wedged

    async def close(self) -> None:
        """End every warm sandbox (what still runs in one is killed with it)."""
        warms, self._retired = [*self._retired, *([self._current] if self._current else [])], []
        self._current = None
        for warm in warms:
            await warm.close()
