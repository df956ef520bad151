"""`/ship` and the hand-back at exit, in a real REPL with a real `--repo` clone and real git."""

import shutil
from pathlib import Path

import pytest

from decode.sandbox.backends import close_sandboxes
from decode.tui.ship import check_repo
from tests.conftest import git, source_repository


@pytest.fixture
def source(tmp_path: Path) -> Path:
    repo = source_repository(tmp_path)
    return repo


async def test_ship_pushes_the_branch_and_leaving_ships_what_came_after(start_repl, script, source: Path) -> None:
    model = script(
        [
            {"tool_calls": [{"name": "write", "args": {"path": "one.txt", "content": "1\n"}}]},
            {"text": "wrote one"},
            {"tool_calls": [{"name": "write", "args": {"path": "two.txt", "content": "2\n"}}]},
            {"text": "wrote two"},
        ]
    )
    session = await start_repl(model, repo=str(source), permission_mode="bypass")
    await session.warm()
    workspace = session.repl.conversation.workspace
    branch = workspace.branch
    session.send("write one")
    await session.wait_for("wrote one")

    session.send("/ship")
    await session.wait_for(f"hand-back: shipped {branch} — 1 commit, 1 file")

    assert git(source, "show", f"{branch}:one.txt") == "1"
    session.send("/status")
    await session.wait_for(f"workspace: {workspace.path} (a clone of {source}; /ship pushes {branch})")
    session.send("write two")
    await session.wait_for("wrote two")
    session.send("/quit")
    assert await session.exit_code() == 0
    assert f"hand-back: shipped {branch} — 2 commits, 2 files" in session.output()
    assert git(source, "show", f"{branch}:two.txt") == "2"
    assert not (source / "one.txt").exists()  # the source's checkout is untouched


async def test_ship_without_a_repo_says_there_is_nothing_to_ship(start_repl, script) -> None:
    session = await start_repl(script([{"text": "ok"}]))
    await session.warm()

    session.send("/ship")

    await session.wait_for("nothing to ship: decode works in this directory itself")


async def test_a_failed_push_is_an_error_that_says_where_the_branch_is(start_repl, script, source: Path) -> None:
    hook = source / ".git" / "hooks" / "pre-receive"
    hook.write_text("#!/bin/sh\nexit 1\n", encoding="utf-8")
    hook.chmod(0o755)
    model = script([{"tool_calls": [{"name": "write", "args": {"path": "x.txt", "content": "x\n"}}]}, {"text": "ok"}])
    session = await start_repl(model, repo=str(source), permission_mode="bypass")
    await session.warm()
    workspace = session.repl.conversation.workspace
    session.send("go")
    await session.wait_for("ok")

    session.send("/ship")

    await session.wait_for(f"the branch {workspace.branch} is kept in {workspace.handback_repository}")
    assert "committed (not pushed)" in session.output()


def test_check_repo(tmp_path: Path, source: Path) -> None:
    assert check_repo(tmp_path, str(source)) is None
    assert "is not a git repository" in (check_repo(tmp_path, str(tmp_path)) or "")
    assert check_repo(tmp_path, "https://example.com/r.git") is None
    assert check_repo(tmp_path, "missing") == "--repo missing: no such directory"


async def one_turn_session(start_repl, script, **options: str) -> str:
    """A REPL session of one answered turn, left with /quit; its id."""
    first = await start_repl(script([{"text": "first"}]), **options)
    await first.warm()
    first.send("hello")
    await first.wait_for("first")
    earlier = first.repl.conversation.session.session_id
    first.send("/quit")
    assert await first.exit_code() == 0
    return earlier


async def test_resume_hands_back_the_workspace_it_leaves(start_repl, script, source: Path) -> None:
    earlier = await one_turn_session(start_repl, script, repo=str(source), permission_mode="bypass")
    model = script([{"tool_calls": [{"name": "write", "args": {"path": "w.txt", "content": "w\n"}}]}, {"text": "ok"}])
    second = await start_repl(model, repo=str(source), permission_mode="bypass")
    await second.warm()
    leaving = second.repl.conversation.workspace
    second.send("go")
    await second.wait_for("ok")

    second.send(f"/resume {earlier}")

    await second.wait_for(f"resumed session {earlier}")
    assert f"hand-back: shipped {leaving.branch} — 1 commit, 1 file" in second.output()
    assert git(source, "show", f"{leaving.branch}:w.txt") == "w"
    assert second.repl.conversation.workspace.session_id == earlier


async def test_a_commit_subject_with_escape_sequences_is_shown_not_obeyed(start_repl, script, source: Path) -> None:
    command = (
        "echo x > x.txt && git add x.txt && git -c user.name=m -c user.email=m@x commit -qm $'evil\\x1b]0;owned\\x07'"
    )
    model = script([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "ok"}])
    session = await start_repl(model, repo=str(source), permission_mode="bypass")
    await session.warm()
    session.send("go")
    await session.wait_for("ok")

    session.send("/ship")

    output = await session.wait_for("hand-back: shipped")
    assert "evil␛]0;owned␇" in output
    assert "\x1b]0;" not in output


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
async def test_resume_shows_where_the_resumed_sessions_commands_run(start_repl, script, project: Path) -> None:
    try:
        earlier = await one_turn_session(start_repl, script, sandbox="bwrap", permission_mode="bypass")
        second = await start_repl(script([{"text": "ok"}]))
        await second.warm()
        assert second.repl.status.sandbox == "none"

        second.send(f"/resume {earlier}")  # a resumed session stays in the sandbox it started in

        await second.wait_for(f"resumed session {earlier}")
        assert second.repl.status.sandbox == "bwrap"  # the footer and /status say so
        second.send("/quit")
        assert await second.exit_code() == 0
    finally:
        await close_sandboxes()  # the sandboxes this process started (as `decode` does when it ends)
