"""The git state in the instructions: `git status --porcelain=v2 --branch` read into a few lines.

`describe_status` is checked on git's own output (real repositories made with real git), and
`git_instructions` through a real executor: a repository, a folder outside one, no git at all.
"""

import asyncio
import os
import re
import subprocess
from pathlib import Path
from typing import Any

import pytest

from decode.agent import git_state
from decode.agent.git_state import MAX_FILES, describe_status, git_instructions
from decode.processes.local import LocalExecutor
from tests.conftest import PLANTED_KINDS, planted_repository, until


class Context:
    """The part of a `RunContext` the instruction reads: `ctx.deps.executor`."""

    def __init__(self, executor: LocalExecutor) -> None:
        self.deps = self
        self.executor = executor


def instructions_in(folder: Path, env: dict[str, str] | None = None) -> str:
    ctx: Any = Context(LocalExecutor(folder, env=env) if env is not None else LocalExecutor(folder))
    return asyncio.run(git_instructions(ctx))


def git(cwd: Path, *args: str) -> str:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    return subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True, text=True).stdout


@pytest.fixture
def repo(tmp_path: Path) -> Path:
    git(tmp_path, "init", "-q", "-b", "main")
    (tmp_path / "a.py").write_text("a\n")
    (tmp_path / "b.py").write_text("b\n")
    git(tmp_path, "add", ".")
    git(tmp_path, "commit", "-q", "-m", "first")
    return tmp_path


def test_a_clean_repository_says_its_branch_and_nothing_to_commit(repo: Path) -> None:
    assert instructions_in(repo) == "Git: branch main, nothing to commit (working tree clean)."


def test_changes_are_listed_staged_and_unstaged_with_renames_by_their_new_name(repo: Path) -> None:
    (repo / "a.py").write_text("changed\n")
    git(repo, "mv", "b.py", "c.py")
    (repo / "new file.txt").write_text("n\n")

    text = instructions_in(repo)

    assert text.splitlines() == [
        "Git: branch main, 3 changed files (paths from the repository root):",
        "   M a.py",
        "  R  c.py",
        "  ?? new file.txt",
    ]


def test_upstream_and_ahead_are_said(repo: Path, tmp_path_factory: pytest.TempPathFactory) -> None:
    remote = tmp_path_factory.mktemp("remote")
    git(remote, "init", "-q", "--bare")
    git(repo, "remote", "add", "origin", str(remote))
    git(repo, "push", "-q", "-u", "origin", "main")
    (repo / "a.py").write_text("more\n")
    git(repo, "commit", "-q", "-am", "second")

    assert (
        instructions_in(repo)
        == "Git: branch main (upstream origin/main, 1 ahead), nothing to commit (working tree clean)."
    )


def test_a_detached_head_is_said(repo: Path) -> None:
    git(repo, "checkout", "-q", "--detach")

    assert instructions_in(repo).startswith("Git: detached HEAD")


def test_a_long_status_lists_a_few_files_and_counts_the_rest(repo: Path) -> None:
    for n in range(MAX_FILES + 5):
        (repo / f"new{n:02}.txt").write_text("x\n")

    lines = instructions_in(repo).splitlines()

    assert lines[0] == f"Git: branch main, {MAX_FILES + 5} changed files (paths from the repository root):"
    assert len(lines) == 1 + MAX_FILES + 1
    assert lines[-1] == "  … and 5 more"


def test_a_cut_output_says_so_and_drops_its_last_line() -> None:
    porcelain = "# branch.oid abc\n# branch.head main\n? one.txt\n? tw"

    assert describe_status(porcelain, cut=True).splitlines() == [
        "Git: branch main, 1+ changed file (paths from the repository root):",
        "  ?? one.txt",
    ]


def test_a_folder_outside_a_repository_says_so(tmp_path: Path) -> None:
    assert instructions_in(tmp_path) == "Git: the working directory is not in a git repository."


def test_no_git_installed_says_so(tmp_path: Path) -> None:
    # env finds its programs on PATH: a PATH without git is a machine without git.
    bin_dir = tmp_path / "bin"
    bin_dir.mkdir()
    env_program = subprocess.run(["which", "env"], capture_output=True, text=True, check=True).stdout.strip()
    (bin_dir / "env").symlink_to(env_program)

    assert instructions_in(tmp_path, env={"PATH": str(bin_dir)}) == "Git: git is not installed here."


def test_a_git_that_does_not_answer_in_time_is_given_up_on(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    fake = tmp_path / "bin"
    fake.mkdir()
    (fake / "git").write_text("#!/bin/sh\nexec sleep 30\n")
    (fake / "git").chmod(0o755)
    monkeypatch.setattr(git_state, "TIMEOUT_S", 0.2)

    text = instructions_in(tmp_path, env={"PATH": f"{fake}:{os.environ['PATH']}"})

    assert text == "Git: status unavailable (git status did not answer within 0.2 s)."


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_the_status_line_runs_no_program_the_repository_names(tmp_path: Path, kind: str) -> None:
    markers = tmp_path / "markers"
    repo = planted_repository(tmp_path, kind, markers)

    text = instructions_in(repo)

    assert text.startswith("Git: branch main"), text
    assert sorted(p.name for p in markers.iterdir()) == []


def test_a_config_key_that_cannot_be_switched_off_stops_the_status(repo: Path, tmp_path: Path) -> None:
    git(repo, "config", "filter.a=b.clean", f"touch {tmp_path}/ran; cat")  # `-c` cannot name it
    (repo / ".gitattributes").write_text("* filter=a=b\n")
    (repo / "a.py").write_bytes((repo / "a.py").read_bytes())

    text = instructions_in(repo)

    assert text.startswith("Git: unknown (git status was not run: the repository's config names a program"), text
    assert not (tmp_path / "ran").exists()


class TurnContext(Context):
    """A `RunContext`'s parts `GitStatus` reads: the executor, and the run (turn) it is in."""

    def __init__(self, executor: LocalExecutor, run_id: str) -> None:
        super().__init__(executor)
        self.run_id = run_id


def counting_git(tmp_path: Path, body: str = 'exec git "$@"') -> tuple[dict[str, str], Path]:
    """A PATH whose `git` logs each status it runs (to `calls`) before doing `body`."""
    fake = tmp_path / "bin"
    fake.mkdir()
    calls = tmp_path / "calls"
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True).stdout.strip()
    script = f'#!/bin/sh\ncase " $* " in *" status "*) echo status >> {calls};; esac\n{body.replace("git", real, 1)}\n'
    (fake / "git").write_text(script)
    (fake / "git").chmod(0o755)
    return {"PATH": f"{fake}:{os.environ['PATH']}"}, calls


def statuses(calls: Path) -> int:
    return len(calls.read_text().splitlines()) if calls.exists() else 0


async def test_the_status_is_taken_once_per_turn_and_again_the_next_turn(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_state, "GRACE_S", 60.0)  # a small repository: its status is waited for
    monkeypatch.setattr(git_state, "QUICK_S", 60.0)  # however busy the machine
    env, calls = counting_git(tmp_path_factory.mktemp("git"))
    executor = LocalExecutor(repo, env=env)
    status = git_state.GitStatus()
    first: Any = TurnContext(executor, "turn-1")

    texts = [await status.instructions(first) for _ in range(5)]
    (repo / "a.py").write_text("edited during the turn\n")
    texts.append(await status.instructions(first))

    assert statuses(calls) == 1
    assert set(texts) == {"Git: branch main, nothing to commit (working tree clean)."}
    second: Any = TurnContext(executor, "turn-2")
    assert (await status.instructions(second)).splitlines() == [
        "Git: branch main, 1 changed file (paths from the repository root):",
        "   M a.py",
    ]
    assert statuses(calls) == 2


async def test_a_status_given_up_on_is_not_asked_again_until_the_index_changes(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    env, calls = counting_git(
        tmp_path_factory.mktemp("git"), body='case " $* " in *" status "*) exec sleep 30;; esac\nexec git "$@"'
    )
    monkeypatch.setattr(git_state, "TIMEOUT_S", 0.2)
    monkeypatch.setattr(git_state, "GRACE_S", 60.0)
    executor = LocalExecutor(repo, env=env)
    status = git_state.GitStatus()

    given_up = [await status.instructions(TurnContext(executor, f"turn-{n}")) for n in range(3)]

    assert given_up == ["Git: status unavailable (git status did not answer within 0.2 s)."] * 3
    assert statuses(calls) == 1
    git(repo, "add", "a.py")  # the index changes (git rewrites it even with nothing new to stage)
    (repo / "a.py").write_text("staged\n")
    git(repo, "add", "a.py")
    await status.instructions(TurnContext(executor, "turn-4"))
    assert statuses(calls) == 2


def held_git(tmp_path: Path) -> tuple[dict[str, str], Path, Path]:
    """A PATH whose `git status` waits until the file `release` exists (the config listing does not).

    Each status it starts leaves a line in `started`, so a test can tell a status is under way.
    """
    fake, release, started = tmp_path / "bin", tmp_path / "release", tmp_path / "started"
    fake.mkdir()
    real = subprocess.run(["which", "git"], capture_output=True, text=True, check=True).stdout.strip()
    (fake / "git").write_text(
        f'#!/bin/sh\ncase " $* " in *" status "*) echo status >> {started}\n'
        f"  n=0; while [ ! -e {release} ] && [ $n -lt 1200 ]; do sleep 0.05; n=$((n+1)); done;; esac\n"
        f'exec {real} "$@"\n'
    )
    (fake / "git").chmod(0o755)
    return {"PATH": f"{fake}:{os.environ['PATH']}"}, release, started


async def test_a_slow_status_does_not_hold_up_the_turns_requests_and_a_later_one_carries_it(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_state, "TIMEOUT_S", 60.0)
    monkeypatch.setattr(git_state, "GRACE_S", 0.1)
    env, release, _ = held_git(tmp_path_factory.mktemp("held"))
    status = git_state.GitStatus()
    turn: Any = TurnContext(LocalExecutor(repo, env=env), "turn-1")

    first = await status.instructions(turn)  # git is held: this returns while it still works

    assert first == "Git: the status is being taken (a later request will carry it)."
    assert status._taking is not None
    assert not status._taking.done()  # git still works, unreleased
    release.touch()
    assert await until(lambda: status._taking is not None and status._taking.done())
    assert await status.instructions(turn) == "Git: branch main, nothing to commit (working tree clean)."


async def test_the_next_turn_is_told_the_last_status_with_its_time_until_the_new_one_is_in(
    repo: Path, tmp_path_factory: pytest.TempPathFactory, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(git_state, "TIMEOUT_S", 60.0)
    monkeypatch.setattr(git_state, "GRACE_S", 0.1)
    env, release, started = held_git(tmp_path_factory.mktemp("held"))
    executor = LocalExecutor(repo, env=env)
    status = git_state.GitStatus()
    await status.instructions(TurnContext(executor, "turn-1"))
    release.touch()
    assert await until(lambda: status._taking is not None and status._taking.done())
    release.unlink()  # the next status is held again
    (repo / "a.py").write_text("edited between the turns\n")
    second: Any = TurnContext(executor, "turn-2")

    stale = await status.instructions(second)

    assert re.fullmatch(
        r"Git \(as of \d\d:\d\d:\d\d UTC, before this turn; a new one is being taken\): "
        r"branch main, nothing to commit \(working tree clean\)\.",
        stale,
    ), stale
    assert await until(lambda: len(started.read_text().splitlines()) == 2)  # the new one is under way
    release.touch()
    assert await until(lambda: status._taking is not None and status._taking.done())
    assert (await status.instructions(second)).splitlines()[1:] == ["   M a.py"]


def test_the_stamp_follows_a_worktree_to_its_own_index_and_head(
    repo: Path, tmp_path_factory: pytest.TempPathFactory
) -> None:
    worktree = tmp_path_factory.mktemp("wt") / "side"
    git(repo, "worktree", "add", "-q", "-b", "side", str(worktree))
    (worktree / "sub").mkdir()
    before = git_state.repository_stamp(worktree / "sub")  # found from a folder inside it too

    (worktree / "a.py").write_text("side\n")
    git(worktree, "commit", "-qam", "on the side")

    assert before is not None
    assert git_state.repository_stamp(worktree) != before
    assert git_state.repository_stamp(tmp_path_factory.mktemp("plain")) is None
