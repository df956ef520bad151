"""The Recording Seam: the built agent, recorded through Kitaru when recording is configured.

`recorded(agent, settings, session_id)` is called once by the composition root. With
`KITARU_API_URL` and `KITARU_AGENT_ID` set it wraps the agent in kitaru-pydantic-ai's
`KitaruAgent` (every turn becomes a Kitaru session named after the decode session, so a REPL's
turns group together), inside a `FallbackAgent` that decides what an unreachable server means.
Unconfigured, the agent comes back as it was and kitaru is never imported.
"""

import os
from typing import TYPE_CHECKING, cast

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps

if TYPE_CHECKING:
    from pydantic_ai import Agent

KITARU_ENV = {"kitaru_api_url": "KITARU_API_URL", "kitaru_api_key": "KITARU_API_KEY"}
"""Settings kitaru's client reads from the environment itself (it builds one client per run)."""


def recording_configured(settings: Settings) -> bool:
    """Recording is on: the server's address and the decode agent's id are both set."""
    return bool(settings.kitaru_api_url and settings.kitaru_agent_id)


def recorded(agent: "Agent[AgentDeps, str]", settings: Settings, session_id: str) -> "Agent[AgentDeps, str]":
    """`agent` recorded to Kitaru under session name `session_id`, or `agent` itself when unconfigured."""
    if not recording_configured(settings):
        return agent
    from kitaru_pydantic_ai import KitaruAgent  # only a recorded session pays for importing kitaru

    from decode.recording.fallback import RECORDER_START_TIMEOUT_S, FallbackAgent

    _export(settings)
    recorder = KitaruAgent(agent, agent_id=settings.kitaru_agent_id, session_name=session_id)
    fallback = FallbackAgent(
        agent,
        recorder,
        server=str(settings.kitaru_api_url),
        worker=bool(settings.kitaru_task_id),
        start_timeout_s=settings.recorder_timeout or RECORDER_START_TIMEOUT_S,
    )
    # A WrapperAgent, not an `Agent`: the loop uses only what both have (`iter`, `model`).
    return cast("Agent[AgentDeps, str]", fallback)


def _export(settings: Settings) -> None:
    """Put the settings kitaru's client reads into this process's environment (a key from `.env`
    too). Only this process's: commands never get them (`Settings.secret_env_names`)."""
    url, key = settings.kitaru_api_url, settings.kitaru_api_key
    if url:
        os.environ["KITARU_API_URL"] = url
    if key is not None and not ({"KITARU_API_KEY", "KITARU_API_TOKEN"} & os.environ.keys()):
        os.environ["KITARU_API_KEY"] = key.get_secret_value()  # a Worker's task token stays what it is
