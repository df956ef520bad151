"""The executor seam: what every backend (local now, sandboxes in lesson 14) must provide."""

import inspect
from pathlib import Path

from decode.entities.executor import CommandExecutor, FileStat
from decode.tools.local import LocalExecutor

SEAM = [name for name, member in vars(CommandExecutor).items() if inspect.isfunction(member) and name[0] != "_"]


def test_the_seam_is_small_and_the_local_executor_implements_all_of_it_with_the_same_signatures() -> None:
    assert sorted(SEAM) == ["list_dir", "open_read", "realpath", "run", "stat", "which", "write_atomic"]
    for name in SEAM:
        expected = inspect.signature(getattr(CommandExecutor, name))
        actual = inspect.signature(getattr(LocalExecutor, name))
        assert list(actual.parameters) == list(expected.parameters), name
        assert inspect.iscoroutinefunction(getattr(LocalExecutor, name)) == (name == "run"), name


def test_file_stat_tells_files_from_directories(tmp_path: Path) -> None:
    (tmp_path / "f.txt").write_text("x")
    executor = LocalExecutor(tmp_path)
    file, folder = executor.stat(tmp_path / "f.txt"), executor.stat(tmp_path)
    assert isinstance(file, FileStat)
    assert file.is_file
    assert not file.is_dir
    assert folder is not None
    assert folder.is_dir
    assert executor.stat(tmp_path / "missing") is None
