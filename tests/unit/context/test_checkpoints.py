"""Checkpoints and rewinding on real files and real Session Logs: the file tools write, the turn is
recorded, and `/undo`'s capability (`decode/context/rewind.py`) puts the files back."""

import os
from pathlib import Path

import pytest
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.context.checkpoints import store_for
from decode.context.replay import load_session
from decode.context.rewind import changed_since, plan, restore, rewind_conversation
from decode.context.session import Session
from decode.entities.deps import AgentDeps
from decode.entities.usage import Usage
from decode.permissions.gate import PermissionGate
from decode.processes.local import LocalExecutor
from decode.tools.edit import edit
from decode.tools.read import read
from decode.tools.write import write
from tests.conftest import git
from tests.unit.context.conftest import Histories


class Conversation:
    """A session and the context its tools get: turns are tool calls, then `record_turn`."""

    def __init__(self, workspace: Path, settings: Settings, session: Session | None = None) -> None:
        self.workspace = workspace
        self.session = session or Session.start(workspace, model="test", settings=settings)
        gate = PermissionGate([], workspace=workspace, home=workspace / "home")
        deps = AgentDeps(
            LocalExecutor(workspace),
            settings,
            harness_home=workspace,
            search_filter=gate,
            checkpoint=self.session.checkpoints,
        )
        self.ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")
        self.history: list = []
        self.histories = Histories()

    def end_turn(self, prompt: str) -> None:
        messages = self.histories.turn(prompt, "done")
        self.session.record_turn(messages, Usage())
        self.history += messages

    async def undo_to(self, index: int, *, skip_changed: bool = False) -> list[Path]:
        """Rewind code and conversation to before turn `index`; the files changed since (left as they are)."""
        checkpoints = self.session.checkpoints
        restoring = plan(checkpoints.marks, index, self.history)
        executor = self.ctx.deps.executor
        changed = await changed_since(executor, restoring.files)
        done = await restore(executor, checkpoints, restoring.files, skip=changed if skip_changed else [])
        assert not done.failed
        self.history = rewind_conversation(self.session, self.history, restoring.keep)
        return changed


@pytest.fixture
def talk(workspace: Path, settings: Settings) -> Conversation:
    return Conversation(workspace, settings)


async def test_an_edit_undone_restores_bytes_and_mode(talk: Conversation, workspace: Path) -> None:
    script = workspace / "run.sh"
    script.write_bytes(b"#!/bin/sh\r\necho old\r\n")
    script.chmod(0o750)
    await read(talk.ctx, "run.sh")
    await edit(talk.ctx, "run.sh", "echo old", "echo new")
    script.chmod(0o700)  # the turn's command made it private, say
    talk.end_turn("make it say new")
    assert b"echo new" in script.read_bytes()

    await talk.undo_to(0)

    assert script.read_bytes() == b"#!/bin/sh\r\necho old\r\n"
    assert script.stat().st_mode & 0o7777 == 0o750
    assert talk.session.checkpoints.marks == []
    assert load_session(talk.session.log.path).history == []


async def test_a_new_file_undone_is_removed(talk: Conversation, workspace: Path) -> None:
    await write(talk.ctx, "src/new.py", "x = 1\n")
    talk.end_turn("add new.py")

    await talk.undo_to(0)

    assert not (workspace / "src" / "new.py").exists()


async def test_rewind_to_turn_1_of_3(talk: Conversation, workspace: Path) -> None:
    notes = workspace / "notes.txt"
    notes.write_text("v0\n")
    for number in (1, 2, 3):
        await read(talk.ctx, "notes.txt")
        await write(talk.ctx, "notes.txt", f"v{number}\n")
        await write(talk.ctx, f"turn{number}.txt", "made\n")
        talk.end_turn(f"turn {number}")
    assert [mark.prompt for mark in talk.session.checkpoints.marks] == ["turn 1", "turn 2", "turn 3"]

    await talk.undo_to(0)

    assert notes.read_text() == "v0\n"
    assert not any((workspace / f"turn{number}.txt").exists() for number in (1, 2, 3))
    assert talk.history == []


async def test_undo_after_resume(talk: Conversation, workspace: Path, settings: Settings) -> None:
    (workspace / "a.txt").write_text("first\n")
    await read(talk.ctx, "a.txt")
    await write(talk.ctx, "a.txt", "one\n")
    talk.end_turn("turn 1")
    await read(talk.ctx, "a.txt")
    await write(talk.ctx, "a.txt", "two\n")
    talk.end_turn("turn 2")
    talk.session.close()

    session, loaded = Session.resume(workspace, settings=settings)
    again = Conversation(workspace, settings, session)
    again.history = loaded.history
    assert [mark.prompt for mark in session.checkpoints.marks] == ["turn 1", "turn 2"]
    await again.undo_to(1)
    assert (workspace / "a.txt").read_text() == "one\n"
    session.close()

    session, loaded = Session.resume(workspace, settings=settings)  # the rewind line holds
    assert [mark.prompt for mark in session.checkpoints.marks] == ["turn 1"]
    assert len(loaded.history) == len(again.history) == 2
    session.close()


async def test_a_file_changed_since_is_named_and_can_be_kept(talk: Conversation, workspace: Path) -> None:
    (workspace / "a.txt").write_text("before\n")
    (workspace / "b.txt").write_text("b before\n")
    for name in ("a.txt", "b.txt"):
        await read(talk.ctx, name)
        await write(talk.ctx, name, "agent\n")
    talk.end_turn("change both")
    (workspace / "a.txt").write_text("the user's own work\n")

    changed = await talk.undo_to(0, skip_changed=True)

    assert changed == [workspace / "a.txt"]
    assert (workspace / "a.txt").read_text() == "the user's own work\n"
    assert (workspace / "b.txt").read_text() == "b before\n"


async def test_a_secret_file_is_never_stored(talk: Conversation, workspace: Path) -> None:
    env = workspace / ".env"
    env.write_text("API_KEY=sk-live-123456\n")
    talk.session.checkpoints.pending.clear()
    await talk.session.checkpoints.before_write(talk.ctx.deps.executor, talk.ctx.deps.search_filter, env)
    talk.session.checkpoints.wrote(env, b"API_KEY=other\n")
    talk.end_turn("rotate the key")

    (change,) = talk.session.checkpoints.marks[0].changes
    assert change.before is None
    assert "secret" in change.unkept
    store = store_for(talk.session.log.path)
    blobs = list(store.glob("*")) if store.exists() else []
    assert all(b"sk-live" not in blob.read_bytes() for blob in blobs)
    assert b"sk-live" not in talk.session.log.path.read_bytes()
    restoring = plan(talk.session.checkpoints.marks, 0, talk.history)
    assert restoring.files == []
    assert restoring.unkept == [(env, change.unkept)]


async def test_a_symlink_out_of_the_workspace_is_never_followed(talk: Conversation, tmp_path: Path) -> None:
    workspace = talk.workspace
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "docs").mkdir()
    await write(talk.ctx, "docs/page.md", "# page\n")
    talk.end_turn("add a page")
    # Meanwhile, a command swaps the folder for a link to a folder outside, with the same file name.
    (workspace / "docs" / "page.md").unlink()
    (workspace / "docs").rmdir()
    (outside / "page.md").write_text("# page\n")
    os.symlink(outside, workspace / "docs")

    restoring = plan(talk.session.checkpoints.marks, 0, talk.history)
    done = await restore(talk.ctx.deps.executor, talk.session.checkpoints, restoring.files)

    assert (outside / "page.md").read_text() == "# page\n"  # not removed through the link
    assert done.failed
    assert "outside the Workspace" in done.failed[0][1]


async def test_a_large_file_is_not_kept_and_says_so(talk: Conversation, workspace: Path) -> None:
    talk.session.checkpoints.max_bytes = 1024
    big = workspace / "big.txt"
    big.write_text("x" * 4096)
    await read(talk.ctx, "big.txt")
    await write(talk.ctx, "big.txt", "small\n")
    talk.end_turn("shrink it")

    restoring = plan(talk.session.checkpoints.marks, 0, talk.history)
    assert restoring.files == []
    assert restoring.unkept == [(big, "larger than 1,024 bytes (not kept)")]


async def test_a_turn_that_ran_bash_says_so(talk: Conversation) -> None:
    messages = talk.histories.turn("run it", "ran", tools=[("bash", {"command": "make"}, "ok")])
    talk.session.record_turn(messages, Usage())
    talk.history += messages
    assert plan(talk.session.checkpoints.marks, 0, talk.history).ran_commands


async def test_in_a_git_repository_undo_leaves_git_alone(talk: Conversation, workspace: Path) -> None:
    (workspace / "app.py").write_text("print('v1')\n")
    git(workspace, "init", "-q")
    git(workspace, "add", "app.py")
    git(workspace, "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-qm", "v1")
    head, index = git(workspace, "rev-parse", "HEAD"), git(workspace, "ls-files", "--stage")
    await read(talk.ctx, "app.py")
    await write(talk.ctx, "app.py", "print('v2')\n")
    await write(talk.ctx, "new.py", "x = 1\n")
    talk.end_turn("bump it")

    await talk.undo_to(0)

    # The files as committed; nothing of decode's own folder shows (the kept files are ignored, the
    # .gitignore that says so is in .git/info/exclude: ADR-0146).
    assert git(workspace, "status", "--porcelain", "--untracked-files=all") == ""
    assert git(workspace, "rev-parse", "HEAD") == head
    assert git(workspace, "ls-files", "--stage") == index
    assert git(workspace, "stash", "list") == ""
