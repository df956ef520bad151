"""run_rg(): ripgrep pinned to decode's rules (the same the pure-Python walk follows)."""

import os
from pathlib import Path

import pytest

from decode.processes.local import LocalExecutor
from decode.tools.ripgrep import relative, run_rg


@pytest.fixture
async def rg(tmp_path: Path) -> str:
    found = await LocalExecutor(tmp_path).which("rg")
    if found is None:
        pytest.skip("rg is not installed (the ripgrep wheel provides it on x86_64 Linux)")
    return found


async def test_hidden_files_in_git_dir_out_gitignore_honoured(tmp_path: Path, rg: str) -> None:
    (tmp_path / ".git").mkdir()
    (tmp_path / ".git" / "config").write_text("needle\n")
    (tmp_path / ".hidden").write_text("needle\n")
    (tmp_path / "seen.txt").write_text("needle\n")
    (tmp_path / "ignored.log").write_text("needle\n")
    (tmp_path / ".gitignore").write_text("*.log\n")
    (tmp_path / ".ignore").write_text("seen.txt\n")  # not a .gitignore: decode ignores it, as the walk does

    output = await run_rg(LocalExecutor(tmp_path), rg, ["--files-with-matches", "--null", "needle", "."], cwd=tmp_path)
    found = sorted(relative(raw) for raw in output.stdout.split(b"\0") if raw)
    assert found == [".hidden", "seen.txt"]
    assert output.exit_code == 0
    assert not output.cut_short


async def test_no_match_is_exit_code_1_with_empty_output(tmp_path: Path, rg: str) -> None:
    (tmp_path / "a.txt").write_text("hay\n")
    output = await run_rg(LocalExecutor(tmp_path), rg, ["needle", "."], cwd=tmp_path)
    assert (output.exit_code, output.stdout) == (1, b"")


def processes_naming(text: str) -> list[int]:
    """The live processes whose command line mentions `text`."""
    found = []
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit():
            try:
                if text.encode() in (entry / "cmdline").read_bytes():
                    found.append(int(entry.name))
            except OSError:
                continue  # gone meanwhile
    return found


async def test_a_search_past_its_timeout_is_cut_short_and_ripgrep_is_killed(tmp_path: Path, rg: str) -> None:
    fifo = tmp_path / "blocks-forever"
    os.mkfifo(fifo)  # named explicitly, ripgrep opens it and waits for a writer that never comes
    output = await run_rg(LocalExecutor(tmp_path), rg, ["needle", fifo.name], cwd=tmp_path, max_seconds=0.5)
    assert output.cut_short
    assert output.exit_code is None
    assert processes_naming(str(fifo.name)) == []  # killed and reaped before run_rg returned
