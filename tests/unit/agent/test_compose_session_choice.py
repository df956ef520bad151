"""`--session-id` and `--fork-session` through the composition root (ADR-0129): the fork is a new
session, a fork of a log the repository committed chooses no mode, and a fork that is not to be
kept leaves nothing."""

import json
import shutil
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


async def test_outside_git_a_log_decode_began_resumes_its_mode_and_an_unpacked_one_does_not(
    home: Path, settings: Settings, tmp_path: Path
) -> None:
    """No git says where a log came from in an unpacked archive: decode notes the logs it begins."""
    own = build_loop(LoopOptions(home, model=_model(tmp_path), permission_mode=Mode.ACCEPT_EDITS), settings)
    await _turn(own, "hi")
    archive = tmp_path / "unpacked"  # the same log, as a downloaded archive would bring it
    (archive / ".decode" / "sessions").mkdir(parents=True)
    shutil.copy2(own.session.log.path, archive / ".decode" / "sessions" / own.session.log.path.name)

    mine = build_loop(LoopOptions(home, resume=""), settings)
    brought = build_loop(LoopOptions(archive, resume=""), settings)

    assert (mine.gate.mode, PLANTED in [problem.message for problem in mine.gate.problems]) == (
        Mode.ACCEPT_EDITS,
        False,
    )
    assert (brought.gate.mode, PLANTED in [problem.message for problem in brought.gate.problems]) == (
        Mode.DEFAULT,
        True,
    )
    mine.session.close()
    fork = build_loop(LoopOptions(home, resume="", fork_session=True), settings)  # a fork of one's own log is one's own
    await _turn(fork, "and then?")
    again = build_loop(LoopOptions(home, resume=fork.session.session_id), settings)
    assert (again.gate.mode, PLANTED in [problem.message for problem in again.gate.problems]) == (
        Mode.ACCEPT_EDITS,
        False,
    )
