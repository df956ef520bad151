"""Checkpoints through the composition root: the real tools on a scripted model keep what they
change, a fork undoes with its original's kept files, and `--no-session-persistence` keeps nothing."""

import json
from pathlib import Path

from decode.agent.compose import Conversation, LoopOptions, build_loop
from decode.config.settings import Settings
from decode.context.checkpoints import store_for
from decode.context.rewind import plan, restore
from decode.permissions.types import Mode


def _script(tmp_path: Path, *responses: dict) -> str:
    path = tmp_path / "script.json"
    path.write_text(json.dumps(list(responses)), encoding="utf-8")
    return f"script:{path}"


def _rewrite(tmp_path: Path, name: str, content: str) -> str:
    """A model that reads `name`, writes `content` into it, then says so."""
    return _script(
        tmp_path,
        {"tool_calls": [{"name": "read", "args": {"path": name}}]},
        {"tool_calls": [{"name": "write", "args": {"path": name, "content": content}}]},
        {"text": "done"},
    )


async def _turn(conversation: Conversation, prompt: str) -> None:
    async for _ in conversation.loop.run_turn(prompt):
        pass
    conversation.session.close()


async def test_a_fork_restores_from_its_originals_kept_files(home: Path, settings: Settings, tmp_path: Path) -> None:
    (home / "plan.md").write_text("ship Friday\n")
    model = _rewrite(tmp_path, "plan.md", "ship Monday\n")
    first = build_loop(LoopOptions(home, model=model, permission_mode=Mode.ACCEPT_EDITS), settings)
    await _turn(first, "move it to Monday")
    assert (home / "plan.md").read_text() == "ship Monday\n"
    (change,) = first.session.checkpoints.marks[0].changes
    assert change.path == str(home / "plan.md")
    assert change.before is not None
    assert (store_for(first.session.log.path) / change.before).read_text() == "ship Friday\n"

    fork = build_loop(LoopOptions(home, resume="", fork_session=True), settings)
    checkpoints = fork.session.checkpoints
    restoring = plan(checkpoints.marks, 0, fork.loop.history)
    done = await restore(fork.loop.deps.executor, checkpoints, restoring.files)

    assert done.restored == [home / "plan.md"]
    assert (home / "plan.md").read_text() == "ship Friday\n"
    fork.session.close()


async def test_without_persistence_nothing_is_kept(home: Path, settings: Settings, tmp_path: Path) -> None:
    (home / "plan.md").write_text("ship Friday\n")
    model = _rewrite(tmp_path, "plan.md", "ship Monday\n")
    options = LoopOptions(home, model=model, permission_mode=Mode.ACCEPT_EDITS, session_persistence=False)
    unsaved = build_loop(options, settings)
    await _turn(unsaved, "move it to Monday")

    assert (home / "plan.md").read_text() == "ship Monday\n"
    assert not (home / ".decode" / "sessions").exists() or not any((home / ".decode" / "sessions").iterdir())
