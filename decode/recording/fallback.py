"""What a recorded run does when the Kitaru server cannot be reached.

kitaru reports an unreachable server at the start of each run, not when the agent is wrapped:
its capability opens a session (`POST /api/v1/sessions`) before the first model request, and
`agent.iter()` raises the transport's `httpx.ConnectError` on entry (after ~4 s of retries,
measured). A server that accepts the connection and never answers would hold that entry for
minutes (kitaru's client: a long read timeout, and retries), so entering is given
`RECORDER_START_TIMEOUT_S` (`DECODE_RECORDER_TIMEOUT` sets another), and running out of it counts
as unreachable. `FallbackAgent` catches either there, before anything has run:

- a run the user launched goes on unrecorded: one warning line, and the rest of this
  conversation is not retried (no 4 s per turn);
- a run a Kitaru Worker launched (`KITARU_TASK_ID`) exists to be recorded: it fails with
  `RecordingUnavailable`, so the Worker sees exit 1 and a clear message.
"""

import asyncio
import logging
from collections.abc import AsyncGenerator
from contextlib import AsyncExitStack, asynccontextmanager
from typing import Any

from pydantic_ai import AgentRun
from pydantic_ai.agent import AbstractAgent, WrapperAgent

from decode.entities.deps import AgentDeps

logger = logging.getLogger(__name__)

RECORDER_START_TIMEOUT_S = 15.0
"""How long entering the recorder's `iter()` (opening the Kitaru session) may take before the server
counts as unreachable. A healthy server answers in milliseconds; a socket that never answers is cut
off here. A refused connection is reported by kitaru itself once its retries give up: 3 retries
sleeping 0.5, 1 and 2 s plus up to 0.5 s of jitter each, so 3.5 to 5 s. The deadline is three times
that, so the refusal (and its own message) always arrives first, on a loaded machine too; at 5 s the
two raced and a refused server was reported as "no answer" one run in a few."""


class RecordingUnavailable(RuntimeError):
    """A Worker-launched run could not reach the Kitaru server that must record it."""


def _unreachable(error: BaseException) -> bool:
    """The error says the server could not be reached, did not answer in time, or refused the session
    (not a bug of ours)."""
    import httpx
    from kitaru.client.exceptions import KitaruClientError

    return isinstance(error, httpx.TransportError | KitaruClientError | TimeoutError)


def _why(error: BaseException, deadline_s: float = RECORDER_START_TIMEOUT_S) -> str:
    """What went wrong, in a few words: an httpx timeout's text, for one, is empty."""
    if isinstance(error, TimeoutError) and not str(error):
        return f"no answer in {deadline_s:g} s"
    return str(error) or type(error).__name__


class FallbackAgent(WrapperAgent[AgentDeps, str]):
    """`recorder` (the agent, recorded) while the server answers; `agent` alone once it did not."""

    def __init__(
        self,
        agent: AbstractAgent[AgentDeps, str],
        recorder: AbstractAgent[AgentDeps, str],
        *,
        server: str,
        worker: bool,
        start_timeout_s: float = RECORDER_START_TIMEOUT_S,
    ) -> None:
        super().__init__(agent)
        self.recorder = recorder
        self.server = server
        self.worker = worker
        self.start_timeout_s = start_timeout_s
        self.recording = True
        """False once the server could not be reached: the conversation goes on unrecorded."""

    @asynccontextmanager
    async def iter(self, *args: Any, **kwargs: Any) -> AsyncGenerator[AgentRun[AgentDeps, Any]]:
        async with AsyncExitStack() as stack:
            run = None
            if self.recording:
                try:
                    async with asyncio.timeout(self.start_timeout_s):
                        run = await stack.enter_async_context(self.recorder.iter(*args, **kwargs))
                except Exception as error:
                    if not _unreachable(error):
                        raise
                    why = _why(error, self.start_timeout_s)
                    if self.worker:
                        unreachable = f"the Kitaru server at {self.server} cannot be reached ({why})"
                        raise RecordingUnavailable(f"{unreachable}; a Worker's run must be recorded") from error
                    self.recording = False
                    logger.warning(
                        "recording off: the Kitaru server at %s cannot be reached (%s); this session is not recorded",
                        self.server,
                        why,
                    )
            if run is None:
                run = await stack.enter_async_context(self.wrapped.iter(*args, **kwargs))
            yield run
