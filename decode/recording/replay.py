"""Replays through Kitaru: a recorded decode session run again, as it was or with one thing changed.

Kitaru replays a recorded session by running the agent again as a task: a Kitaru Worker runs the
agent version's command (`decode run …`) with `KITARU_TASK_ID` and `KITARU_REPLAY_ID` set, and
kitaru-pydantic-ai's capability, already in the Recording Seam, gives that run the baseline's
input, applies the replay's override, and answers tool calls by the replay's tool policy. The
result is a new Kitaru session (origin `replay`) beside the baseline.

- A **Baseline Replay**: the same input and model, every tool call answered with the result the
  baseline recorded (tool policy `history`, scope `baseline`; a call it never made runs live).
- A **what-if replay**: the same, with a changed prompt (Kitaru's override) or another model
  (the command's `--model`: decode's models, `script:` included, are decode's to resolve).

Standalone replays must name an evaluator; `kitaru/latency` (built in) is the cheapest.
"""

import asyncio
import hashlib
import json
import shlex
import sys
import time
import uuid
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from decode.config.settings import Settings

EVALUATOR = "kitaru/latency"
DONE = {"completed", "failed", "canceled"}


class ReplayError(Exception):
    """A replay that cannot be made or did not finish; the message says why."""


@dataclass
class ReplayOutcome:
    """A finished replay: its status, and the session it recorded (None if it made none)."""

    replay_id: uuid.UUID
    status: str
    baseline_id: uuid.UUID
    result_session_id: uuid.UUID | None
    output: Any
    error: str | None


def session_model(home: Path, session_id: str) -> str:
    """The model decode session `session_id` ran with, from its Session Log's header."""
    for path in sorted((home / ".decode" / "sessions").glob(f"*_{session_id}*.jsonl")):
        return str(json.loads(path.read_text(encoding="utf-8").splitlines()[0])["model"])
    raise ReplayError(f"no decode session {session_id!r} in {home / '.decode' / 'sessions'}")


def run_command(model: str) -> str:
    """The command a Worker runs for a replay: `decode run` on `model`; its prompt is replaced by the
    baseline's (or the override's) before the first request, so the one given here is a placeholder."""
    decode = Path(sys.executable).with_name("decode")
    return shlex.join([str(decode), "run", "--model", model, "(replayed by Kitaru)"])


async def start_replay(
    settings: Settings,
    home: Path,
    session_id: str,
    *,
    model: str | None = None,
    prompt: str | None = None,
    live_tools: bool = False,
) -> uuid.UUID:
    """Create a Kitaru replay of the newest recorded turn of decode session `session_id`."""
    from kitaru.api_models.v1.agent_version import AgentVersionCreateRequest, RunSpec
    from kitaru.api_models.v1.plugin import EvaluatorConfig
    from kitaru.api_models.v1.replay import ReplayCreateRequest
    from kitaru.api_models.v1.replay_config import (
        HistoryConfig,
        HistoryScope,
        PassthroughConfig,
        ReplayOverride,
        ToolPolicy,
        ToolPolicyOnMiss,
    )

    agent_id = settings.kitaru_agent_id
    if not (settings.kitaru_api_url and agent_id):
        raise ReplayError("recording is not configured: set KITARU_API_URL and KITARU_AGENT_ID (make kitaru-local)")
    command = run_command(model or session_model(home, session_id))
    async with _client(settings) as client:
        baselines = [s async for s in client.sessions.iter() if s.name == session_id and s.agent_id == agent_id]
        if not baselines:
            raise ReplayError(f"Kitaru has no recorded session named {session_id!r} (was recording on?)")
        baseline = max(baselines, key=lambda s: s.started_at)
        # One agent version per (command, directory): a second replay of the same kind reuses it.
        tag = "decode-" + hashlib.sha256(f"{command}\0{home}".encode()).hexdigest()[:12]
        versions = [v async for v in client.agents.iter_versions(agent_id) if v.display_version == tag]
        if versions:
            version = versions[0]
        else:
            spec = RunSpec(command=command, working_dir=str(home), env={"KITARU_AGENT_ID": str(agent_id)})
            version = await client.agents.create_version(
                agent_id, AgentVersionCreateRequest(display_version=tag, run_spec=spec)
            )
        recorded = HistoryConfig(scope=HistoryScope.BASELINE, on_miss=ToolPolicyOnMiss.PASSTHROUGH)
        replay = await client.replays.create(
            ReplayCreateRequest(
                baseline_session_id=baseline.id,
                agent_version_id=version.id,
                override=ReplayOverride(prompt=prompt) if prompt is not None else None,
                tool_policy=ToolPolicy(default=PassthroughConfig() if live_tools else recorded),
                evaluators=[EvaluatorConfig(evaluator=EVALUATOR)],
            )
        )
        return replay.id


async def wait_replay(settings: Settings, replay_id: uuid.UUID, seconds: float = 300.0) -> ReplayOutcome:
    """Poll the replay until it is done (a Worker must be running: `make kitaru-local` starts one)."""
    deadline = time.monotonic() + seconds
    async with _client(settings) as client:
        while True:
            replay = await client.replays.get(replay_id)
            status = str(getattr(replay.status, "value", replay.status))
            if status in DONE:
                break
            if time.monotonic() > deadline:
                raise ReplayError(
                    f"replay {replay_id} is still {status} after {seconds:.0f}s: is a Kitaru Worker running?"
                )
            await asyncio.sleep(0.5)
        output = None
        if replay.result_session_id is not None:
            output = (await client.sessions.get(replay.result_session_id)).outputs
        return ReplayOutcome(
            replay.id, status, replay.baseline_session_id, replay.result_session_id, output, replay.error
        )


class _client:
    """kitaru's API client for these settings, closed on exit."""

    def __init__(self, settings: Settings) -> None:
        self.settings = settings

    async def __aenter__(self) -> Any:
        from kitaru.client import KitaruAPIClient

        key = self.settings.kitaru_api_key  # None: kitaru's own credentials (`make kitaru-local` prints its key)
        self.client = KitaruAPIClient(
            base_url=self.settings.kitaru_api_url, api_key=key.get_secret_value() if key else None
        )
        return self.client

    async def __aexit__(self, *exc: object) -> None:
        await self.client.close()
