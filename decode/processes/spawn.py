"""Start a long-lived program (a language server, an MCP server) with pipes, tracked as commands are."""

import asyncio
from collections.abc import Mapping, Sequence
from pathlib import Path

from decode.processes import process_tree
from decode.processes.process_tree import TAG_VARIABLE
from decode.processes.tracking import (
    Tracked,
    become_subreaper,
    kill_group,
    new_tag,
    release,
    spawning,
    start_tracked,
    track,
)


class SpawnedProcess:
    """A program `spawn_process` started, in its own process group, tracked until it ends."""

    def __init__(self, process: asyncio.subprocess.Process, tracked: Tracked) -> None:
        if process.stdin is None or process.stdout is None or process.stderr is None:
            raise ValueError("a spawned process needs pipes for stdin, stdout and stderr")
        self._process = process
        self._tracked: Tracked | None = tracked
        self.stdin, self.stdout, self.stderr = process.stdin, process.stdout, process.stderr

    @property
    def returncode(self) -> int | None:
        return self._process.returncode

    @property
    def pid(self) -> int:
        return self._process.pid

    async def wait(self) -> int:
        code = await self._process.wait()
        self._release()  # it is over: so is whatever it left running
        return code

    def kill(self) -> None:
        kill_group(self._process.pid)
        self._release()  # and whatever it started that left its group

    def _release(self) -> None:
        if self._tracked is not None:
            release(self._tracked)
            self._tracked = None


async def spawn_process(argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> SpawnedProcess:
    """Start `argv` with pipes for stdin, stdout and stderr, tracked as `run_process` tracks."""
    pipe = asyncio.subprocess.PIPE
    become_subreaper()
    tag = new_tag()
    since = process_tree.ticks_now()
    with spawning():
        process = await start_tracked(
            argv, tag, since, cwd=cwd, env={**env, TAG_VARIABLE: tag}, stdin=pipe, stdout=pipe, stderr=pipe
        )
        return SpawnedProcess(process, track(process.pid, tag, since=since))
