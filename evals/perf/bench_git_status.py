"""The git status the model is told (issue 27, ADR-0100): what it adds to the requests of a turn.

A repository of `FILES` files with a few changes, and one turn of `REQUESTS` model requests (a
zero-latency scripted model calling a tool that does nothing), through an agent whose only Turn
Fact is the git status:

- after ADR-0100: `GitStatus`, started in the background at the turn's first request (the turn
  starts with the last status, dated, while the index and HEAD are unchanged; the new one comes
  with a later request), against the same turn with no git status at all: target 1.3x (a turn of
  200 requests, as the issue's loop). One `GitStatus` serves every turn, as one serves a session;
- before it: `git status` for every request (`git_instructions` as the fact), against the same
  baseline, measured in the same run and reported as a figure (no target: it is the old cost).
"""

import asyncio
import statistics
import subprocess
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from perf import Comparison, Context, Figure, Subject, measure

FILES = 20_000
REQUESTS = 200
BEFORE_REQUESTS = 20  # the old way runs a status per request: a shorter turn keeps the run short


def _repository(tmp: Path) -> Path:
    repo = tmp / "many"
    for index in range(FILES):
        folder = repo / f"pkg{index // 100:03d}"
        folder.mkdir(parents=True, exist_ok=True)
        (folder / f"mod{index % 100:02d}.py").write_text(f"VALUE = {index}\n")
    git = ["git", "-c", "user.name=bench", "-c", "user.email=bench@example.com"]
    subprocess.run([*git, "init", "-q"], cwd=repo, check=True)
    subprocess.run([*git, "add", "."], cwd=repo, check=True)
    subprocess.run([*git, "commit", "-qm", "many files"], cwd=repo, check=True)
    (repo / "pkg000" / "mod00.py").write_text("VALUE = -1\n")
    (repo / "notes.txt").write_text("new\n")
    return repo


def _turn(repo: Path, fact: Any, requests: int = REQUESTS) -> None:
    """One turn of `requests` requests, the fact (or none) read for each."""
    from pydantic_ai import Agent
    from pydantic_ai.usage import UsageLimits

    from decode.agent.facts import TurnFacts
    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.models.script import ScriptedModel, ScriptedResponse
    from decode.processes.local import LocalExecutor

    def noop() -> str:
        """Do nothing."""
        return "ok"

    script = [{"tool_calls": [{"name": "noop"}]}] * (requests - 1) + [{"text": "done"}]
    model = ScriptedModel([ScriptedResponse.model_validate(item) for item in script])
    capabilities = [TurnFacts([fact])] if fact is not None else []
    agent = Agent(model, deps_type=AgentDeps, tools=[noop], capabilities=capabilities)
    deps = AgentDeps(LocalExecutor(repo), Settings(), harness_home=repo)
    asyncio.run(agent.run("go", deps=deps, usage_limits=UsageLimits(request_limit=requests + 1)))


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    from decode.agent.git_state import GitStatus, git_instructions

    repo = _repository(ctx.tmp)
    without = Subject("no git status", lambda: _turn(repo, None))
    session = GitStatus()  # a session's: its turns after the first start with the last status
    cached = Subject("GitStatus (once per turn)", lambda: _turn(repo, session.instructions))
    yield Comparison(
        f"a turn of {REQUESTS} requests, {FILES:,}-file repository", cached, without, target=1.3, runs=5, issue=27
    )
    every = Subject("git status every request", lambda: _turn(repo, git_instructions, BEFORE_REQUESTS))
    short = Subject("no git status", lambda: _turn(repo, None, BEFORE_REQUESTS))
    before, baseline = measure(Comparison("before", every, short, target=0), runs=3, warmup=1)
    ratio = statistics.median(s.wall for s in before) / statistics.median(s.wall for s in baseline)
    note = f"before ADR-0100: git status for every request, against none (median of 3, {BEFORE_REQUESTS} requests)"
    yield Figure("the same turn, status every request", ratio, "x", limit=float("inf"), note=note)
