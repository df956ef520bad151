"""LocalExecutor: the executor seam on this machine, with direct I/O.

What every executor must do is tested against both in tests/unit/entities/test_executor.py; here,
what only the local one does: its own file operations, the packaged ripgrep, the secret-free
environment, and a spawned program with live pipes.
"""

import os
import stat
import sys
from pathlib import Path

import pytest

from decode.entities.executor import CommandExecutor, EntryKind, ExecRequest
from decode.processes.local import LocalExecutor, local_realpath


def test_it_implements_the_seam(workspace: Path) -> None:
    executor: CommandExecutor = LocalExecutor(workspace)
    assert executor.workspace == workspace.resolve()


async def test_stat_and_list_dir(workspace: Path) -> None:
    (workspace / "a.txt").write_text("abc")
    (workspace / "d").mkdir()
    (workspace / "link").symlink_to(workspace / "a.txt")
    executor = LocalExecutor(workspace)
    info = await executor.stat(workspace / "a.txt")
    assert info is not None
    assert (info.kind, info.size) == (EntryKind.FILE, 3)
    assert await executor.stat(workspace / "missing") is None
    assert await executor.stat(workspace / "a.txt/below") is None
    kinds = {entry.name: entry.kind for entry in await executor.list_dir(workspace)}
    assert kinds == {"a.txt": EntryKind.FILE, "d": EntryKind.DIR, "link": EntryKind.SYMLINK}


async def test_write_atomic_replaces_in_one_step_and_keeps_the_mode(workspace: Path) -> None:
    target = workspace / "deep/dir/tool.sh"
    executor = LocalExecutor(workspace)
    await executor.write_atomic(target, b"one")
    target.chmod(0o750)
    inode = target.stat().st_ino
    await executor.write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert target.stat().st_ino != inode  # a new file renamed over the old: never half-written
    assert sorted(os.listdir(target.parent)) == ["tool.sh"]


async def test_realpath_follows_symlinks_and_keeps_missing_components(workspace: Path) -> None:
    (workspace / "real").mkdir()
    (workspace / "alias").symlink_to(workspace / "real")
    executor = LocalExecutor(workspace)
    assert await local_realpath(workspace / "alias/new.txt") == executor.workspace / "real/new.txt"
    assert await executor.realpath(workspace / "alias") == executor.workspace / "real"


def fake_programs(folder: Path, *names: str) -> Path:
    """`folder` holding an executable script per name: a user's own programs on their PATH."""
    folder.mkdir()
    for name in names:
        (folder / name).write_text("#!/bin/sh\nexit 0\n")
        (folder / name).chmod(0o755)
    return folder


async def test_which_takes_the_users_program_before_decodes_own(workspace: Path, tmp_path: Path) -> None:
    user_bin = fake_programs(tmp_path / "user-bin", "pylsp", "rg")
    executor = LocalExecutor(workspace, env={"PATH": f"{user_bin}:/usr/bin:/bin"})
    # decode's venv has both (pylsp with the dev group): the user's PATH wins for each.
    assert await executor.which("pylsp") == str(user_bin / "pylsp")
    assert await executor.which("rg") == str(user_bin / "rg")


async def test_which_never_takes_a_named_program_from_decodes_venv(workspace: Path, tmp_path: Path) -> None:
    executor = LocalExecutor(workspace, env={"PATH": str(fake_programs(tmp_path / "empty"))})
    assert (Path(sys.executable).parent / "pylsp").exists(), "the dev group installs pylsp in decode's venv"
    assert await executor.which("pylsp") is None
    assert await executor.which("no-such-program-here") is None
    # `rg` comes with decode (the `ripgrep` package): found beside decode's Python when PATH has none.
    assert await executor.which("rg") == str(Path(sys.executable).parent / "rg")


async def test_run_uses_the_secret_free_environment(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-secret")
    monkeypatch.setenv("SOME_SETTING", "visible")
    executor = LocalExecutor(workspace)
    out = bytearray()
    await executor.run(ExecRequest(["env"], timeout=10, on_stdout=out.extend, on_stderr=out.extend))
    assert b"SOME_SETTING=visible" in out
    assert b"sk-secret" not in out


async def test_spawn_gives_a_live_process_with_pipes(workspace: Path) -> None:
    process = await LocalExecutor(workspace).spawn(["cat"])
    try:
        process.stdin.write(b"hello over a pipe\n")
        await process.stdin.drain()
        assert await process.stdout.readline() == b"hello over a pipe\n"
        assert process.returncode is None  # still running, waiting for more
    finally:
        process.kill()
    assert await process.wait() == -9  # SIGKILL, to the whole process group
    assert process.returncode == -9


async def test_spawn_runs_in_the_workspace_with_the_command_environment(
    workspace: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("GEMINI_API_KEY", "AIza-secret")
    executor = LocalExecutor(workspace)
    process = await executor.spawn(["sh", "-c", 'pwd; echo "key=${GEMINI_API_KEY:-unset}"'])
    out = await process.stdout.read()
    assert await process.wait() == 0
    assert out.decode().splitlines() == [str(executor.workspace), "key=unset"]


async def test_write_atomic_never_follows_a_symlink_below_the_workspace(workspace: Path, tmp_path: Path) -> None:
    outside = tmp_path / "outside"
    outside.mkdir()
    (workspace / "d").symlink_to(outside)  # swapped in after the tool resolved `d/f.txt`, say
    with pytest.raises(OSError, match="symbolic link"):
        await LocalExecutor(workspace).write_atomic(workspace / "d/f.txt", b"x")
    assert os.listdir(outside) == []
