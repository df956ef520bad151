"""LocalExecutor: the executor seam on this machine."""

import os
import stat
import sys
from pathlib import Path

import pytest

from decode.entities.executor import CommandExecutor, EntryKind
from decode.tools.local import LocalExecutor


def test_it_implements_the_seam(workspace: Path) -> None:
    executor: CommandExecutor = LocalExecutor(workspace)
    assert executor.workspace == workspace.resolve()


def test_stat_and_list_dir(workspace: Path) -> None:
    (workspace / "a.txt").write_text("abc")
    (workspace / "d").mkdir()
    (workspace / "link").symlink_to(workspace / "a.txt")
    executor = LocalExecutor(workspace)
    info = executor.stat(workspace / "a.txt")
    assert info is not None
    assert (info.kind, info.size) == (EntryKind.FILE, 3)
    assert executor.stat(workspace / "missing") is None
    assert executor.stat(workspace / "a.txt/below") is None
    kinds = {entry.name: entry.kind for entry in executor.list_dir(workspace)}
    assert kinds == {"a.txt": EntryKind.FILE, "d": EntryKind.DIR, "link": EntryKind.SYMLINK}


def test_write_atomic_replaces_in_one_step_and_keeps_the_mode(workspace: Path) -> None:
    target = workspace / "deep/dir/tool.sh"
    executor = LocalExecutor(workspace)
    executor.write_atomic(target, b"one")
    target.chmod(0o750)
    inode = target.stat().st_ino
    executor.write_atomic(target, b"two")
    assert target.read_bytes() == b"two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert target.stat().st_ino != inode  # a new file renamed over the old: never half-written
    assert sorted(os.listdir(target.parent)) == ["tool.sh"]


def test_which_finds_the_packaged_ripgrep(workspace: Path) -> None:
    assert LocalExecutor(workspace).which("rg") == str(Path(sys.prefix) / "bin" / "rg")
    assert LocalExecutor(workspace).which("no-such-program-here") is None


async def test_run_uses_the_secret_free_environment(workspace: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv("OPENROUTER_API_KEY", "sk-secret")
    monkeypatch.setenv("SOME_SETTING", "visible")
    executor = LocalExecutor(workspace)
    out = bytearray()
    await executor.run(["env"], timeout=10, on_stdout=out.extend, on_stderr=out.extend)
    assert b"SOME_SETTING=visible" in out
    assert b"sk-secret" not in out
