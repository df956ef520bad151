"""Lesson 23's build-along track: the Recording Seam, its fallback when the server is away, replays.

`make lesson-check N=23` runs these against your copy (`make lesson-start N=23`); each test's first
docstring line is the behaviour it reports.
"""

import os
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

import httpx
import pytest
from pydantic_ai import Agent
from pydantic_ai.agent import WrapperAgent
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart
from pydantic_ai.models.test import TestModel

from decode.config.settings import Settings
from decode.context.session_log import SessionLog
from decode.entities.usage import Usage
from decode.recording.fallback import FallbackAgent, RecordingUnavailable
from decode.recording.replay import ReplayError, session_model
from decode.recording.seam import recorded


class UnreachableRecorder(WrapperAgent[Any, str]):
    """A recorder whose server refuses the connection, as kitaru reports it when a run starts."""

    @asynccontextmanager
    async def iter(self, *args: Any, **kwargs: Any) -> AsyncIterator[Any]:
        raise httpx.ConnectError("connection refused")
        yield


@pytest.fixture
def environment() -> Iterator[None]:
    """Recording exports kitaru's settings into this process's environment: put it back after."""
    saved = dict(os.environ)
    yield
    os.environ.clear()
    os.environ.update(saved)


def test_an_unconfigured_session_is_not_recorded() -> None:
    """Without a Kitaru server and agent id, the agent is used as it is."""
    agent = Agent(TestModel())
    assert recorded(agent, Settings(_env_file=None), "s1") is agent


def test_a_configured_session_is_recorded_with_a_fallback(environment: None) -> None:
    """With a server and agent id, the agent is wrapped: recorded, with a fallback if the server is away."""
    agent_id = "0b7e7c36-5d3b-4a52-9a0c-4f2d3c1e9a10"
    settings = Settings(_env_file=None, KITARU_API_URL="http://127.0.0.1:9", KITARU_AGENT_ID=agent_id)
    wrapped = recorded(Agent(TestModel()), settings, "s1")
    assert isinstance(wrapped, FallbackAgent)
    assert (wrapped.server, wrapped.worker, wrapped.recording) == ("http://127.0.0.1:9", False, True)


async def test_an_unreachable_server_turns_recording_off_and_the_run_goes_on() -> None:
    """When the server cannot be reached, a user's run goes on unrecorded, and stops trying."""
    agent = Agent(TestModel(custom_output_text="done"))
    fallback = FallbackAgent(agent, UnreachableRecorder(agent), server="http://127.0.0.1:9", worker=False)
    async with fallback.iter("hi") as run:
        async for _ in run:
            pass
    assert run.result is not None
    assert run.result.output == "done"
    assert fallback.recording is False


async def test_a_workers_run_fails_when_it_cannot_be_recorded() -> None:
    """A run a Kitaru Worker launched fails with RecordingUnavailable when the server is away."""
    agent = Agent(TestModel())
    fallback = FallbackAgent(agent, UnreachableRecorder(agent), server="http://127.0.0.1:9", worker=True)
    with pytest.raises(RecordingUnavailable, match="a Worker's run must be recorded"):
        async with fallback.iter("hi"):
            pass


def test_a_replay_reads_the_sessions_model_from_its_log(tmp_path: Path) -> None:
    """A replay finds the model a session ran with in its Session Log; an unknown session is a ReplayError."""
    log = SessionLog.new(tmp_path, model="script:turns.json")
    turn = [ModelRequest(parts=[UserPromptPart("hi")]), ModelResponse(parts=[TextPart("hello")])]
    log.append_turn(turn, Usage(), model="script:turns.json")
    log.close()
    assert session_model(tmp_path, log.session_id) == "script:turns.json"
    with pytest.raises(ReplayError):
        session_model(tmp_path, "nosuchsession")
