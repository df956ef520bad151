"""`--session-id` and `--fork-session` through the composition root (ADR-0129): the fork is a new
session, a fork of a log the repository committed chooses no mode, and a fork that is not to be
kept leaves nothing."""

import json
from pathlib import Path

from decode.agent.compose import Conversation, LoopOptions, build_loop
from decode.agent.steps.planted import PLANTED
from decode.config.settings import Settings
from decode.permissions.types import Mode
from tests.conftest import git

UUID = "0b6e4f3a-9c2d-4e1f-8a7b-6c5d4e3f2a1b"


def _model(tmp_path: Path, text: str = "ok") -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps([{"text": text}]), encoding="utf-8")
    return f"script:{path}"


async def _turn(conversation: Conversation, prompt: str) -> None:
    async for _ in conversation.loop.run_turn(prompt):
        pass
    conversation.session.close()


async def test_a_fork_goes_on_under_the_given_id_in_the_resumed_mode(
    home: Path, settings: Settings, tmp_path: Path
) -> None:
    first = build_loop(LoopOptions(home, model=_model(tmp_path), permission_mode=Mode.PLAN), settings)
    await _turn(first, "remember 42")
    before = first.session.log.path.read_bytes()

    fork = build_loop(LoopOptions(home, resume=first.session.session_id, fork_session=True, session_id=UUID), settings)

    assert fork.session.session_id == UUID
    assert fork.session.log.header.forked_from == first.session.session_id
    assert fork.loop.history == first.loop.history
    assert fork.gate.mode is Mode.PLAN  # a fork is the session it copies: its mode too
    await _turn(fork, "and 43?")
    assert first.session.log.path.read_bytes() == before


async def test_a_fork_of_a_committed_log_resumes_no_mode(home: Path, settings: Settings, tmp_path: Path) -> None:
    planted = build_loop(LoopOptions(home, model=_model(tmp_path), permission_mode=Mode.ACCEPT_EDITS), settings)
    await _turn(planted, "hi")
    git(home, "init", "-q")
    git(home, "add", "-f", str(planted.session.log.path))  # `.decode/` ignores itself: a repository forces it in
    git(home, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "a session log")

    fork = build_loop(LoopOptions(home, resume="", fork_session=True), settings)

    assert fork.session.session_id != planted.session.session_id
    assert fork.gate.mode is Mode.DEFAULT
    assert PLANTED in [problem.message for problem in fork.gate.problems]


async def test_a_fork_without_persistence_leaves_no_copy(home: Path, settings: Settings, tmp_path: Path) -> None:
    first = build_loop(LoopOptions(home, model=_model(tmp_path)), settings)
    await _turn(first, "hi")

    fork = build_loop(LoopOptions(home, resume="", fork_session=True, session_persistence=False), settings)
    await _turn(fork, "again")

    assert [path.name for path in (home / ".decode" / "sessions").glob("*.jsonl")] == [first.session.log.path.name]
