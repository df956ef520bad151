"""An unreachable Kitaru server: a user's conversation goes on unrecorded, a Worker's run fails."""

import logging
import os
import socket
import time
import uuid
from collections.abc import Iterator

import pytest
from pydantic_ai import Agent
from pydantic_ai.models.test import TestModel

from decode.recording.fallback import FallbackAgent, RecordingUnavailable


def closed_port() -> int:
    """A loopback port nothing listens on (bound, then released: connecting is refused)."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


@pytest.fixture
def fallback(monkeypatch: pytest.MonkeyPatch) -> FallbackAgent:
    from kitaru_pydantic_ai import KitaruAgent

    for name in list(os.environ):
        if name.startswith("KITARU_"):
            monkeypatch.delenv(name)
    monkeypatch.setenv("KITARU_API_URL", f"http://127.0.0.1:{closed_port()}")
    agent = Agent(TestModel(custom_output_text="done"))
    recorder = KitaruAgent(agent, agent_id=uuid.uuid4(), session_name="s")
    return FallbackAgent(agent, recorder, server=os.environ["KITARU_API_URL"], worker=False)  # type: ignore[arg-type]


async def turn(agent: FallbackAgent) -> str:
    async with agent.iter("hi") as run:
        async for _ in run:
            pass
    assert run.result is not None
    return run.result.output


async def test_a_user_run_goes_on_unrecorded_with_one_warning(
    fallback: FallbackAgent, caplog: pytest.LogCaptureFixture
) -> None:
    with caplog.at_level(logging.WARNING, logger="decode.recording.fallback"):
        assert await turn(fallback) == "done"
        assert await turn(fallback) == "done"  # the next turn does not try the server again
    warnings = [r.getMessage() for r in caplog.records if r.name == "decode.recording.fallback"]
    assert len(warnings) == 1
    assert "cannot be reached" in warnings[0]
    assert "not recorded" in warnings[0]
    assert fallback.recording is False


async def test_a_worker_run_fails_with_a_clear_error(fallback: FallbackAgent) -> None:
    fallback.worker = True
    with pytest.raises(RecordingUnavailable, match=r"cannot be reached.*must be recorded"):
        await turn(fallback)


@pytest.fixture
def blackhole() -> Iterator[str]:
    """A loopback port that accepts connections (the kernel's backlog) and never answers."""
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        sock.listen(16)
        yield f"http://127.0.0.1:{sock.getsockname()[1]}"


@pytest.fixture
def silent(fallback: FallbackAgent, blackhole: str, monkeypatch: pytest.MonkeyPatch) -> FallbackAgent:
    from kitaru_pydantic_ai import KitaruAgent

    fallback.start_timeout_s = 0.5
    monkeypatch.setenv("KITARU_API_URL", blackhole)
    fallback.recorder = KitaruAgent(fallback.wrapped, agent_id=uuid.uuid4(), session_name="s")  # type: ignore[arg-type]
    fallback.server = blackhole
    return fallback


async def test_a_server_that_never_answers_is_given_a_deadline(
    silent: FallbackAgent, caplog: pytest.LogCaptureFixture
) -> None:
    started = time.monotonic()
    with caplog.at_level(logging.WARNING, logger="decode.recording.fallback"):
        assert await turn(silent) == "done"
    assert time.monotonic() - started < 5
    (warning,) = [r.getMessage() for r in caplog.records if r.name == "decode.recording.fallback"]
    assert "cannot be reached (no answer in 0.5 s)" in warning
    assert silent.recording is False


async def test_a_worker_run_fails_when_the_server_never_answers(silent: FallbackAgent) -> None:
    silent.worker = True
    with pytest.raises(RecordingUnavailable, match=r"cannot be reached \(no answer in 0.5 s\).*must be recorded"):
        await turn(silent)


@pytest.mark.parametrize(
    ("error", "why"),
    [(TimeoutError(), "no answer in 15 s"), (ConnectionError(), "ConnectionError"), (OSError("refused"), "refused")],
)
def test_the_reason_is_never_empty(error: BaseException, why: str) -> None:
    from decode.recording.fallback import _why

    assert _why(error) == why


def test_a_refused_server_is_reported_by_kitaru_before_the_deadline() -> None:
    """The deadline outlasts kitaru's own retries of a refused connection with room to spare (a
    loaded machine), so a refused server is reported as refused, never as "no answer"."""
    import inspect

    from kitaru.client.api_client import KitaruAPIClient
    from kitaru.transport import RetryTransport

    from decode.recording.fallback import RECORDER_START_TIMEOUT_S

    retries = inspect.signature(KitaruAPIClient).parameters["retries"].default
    backoff = inspect.signature(RetryTransport).parameters["backoff"].default
    slowest = sum(backoff * 2**attempt + backoff for attempt in range(retries))  # the sleeps, full jitter
    assert 2 * slowest <= RECORDER_START_TIMEOUT_S, (RECORDER_START_TIMEOUT_S, slowest)
