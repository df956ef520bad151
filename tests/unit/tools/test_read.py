"""`read`: numbered pages, limits, refusals, odd encodings, bounded memory."""

import subprocess
import sys
from pathlib import Path

import pytest
from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.tools.read import MAX_LINE_CHARS, read


def test_lines_come_numbered_like_cat_n(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("alpha\nbeta\n")
    assert read(ctx, "a.txt") == "     1\talpha\n     2\tbeta"


def test_offset_and_limit_page_through_the_file(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("".join(f"line {n}\n" for n in range(1, 11)))
    page = read(ctx, "a.txt", offset=4, limit=3)
    assert page.splitlines()[:3] == ["     4\tline 4", "     5\tline 5", "     6\tline 6"]
    assert "offset=7" in page


def test_a_page_stops_at_2000_lines_with_a_note_on_how_to_continue(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "big.txt").write_text("x\n" * 5000)
    page = read(ctx, "big.txt", limit=100_000)
    numbered = [line for line in page.splitlines() if "\t" in line]
    assert len(numbered) == 2000
    assert "read with offset=2001 to continue" in page


def test_a_page_stops_at_50_kb(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "wide.txt").write_text(("y" * 1000 + "\n") * 200)
    page = read(ctx, "wide.txt")
    assert len(page) <= 51_000
    assert "more follow" in page


def test_long_lines_are_cut(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "min.js").write_text("z" * 100_000 + "\nnext\n")
    page = read(ctx, "min.js")
    first, second = page.splitlines()
    assert first.startswith("     1\t" + "z" * MAX_LINE_CHARS)
    assert "line cut" in first
    assert second == "     2\tnext"


def test_binary_files_and_images_are_refused(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    (workspace / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert read(ctx, "blob.bin").startswith("blob.bin is not a text file (binary")
    assert "logo.png is not a text file (image/png, 8 bytes)" in read(ctx, "logo.png")


def test_non_utf8_text_is_shown_with_replacement_characters(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "latin1.txt").write_bytes("café\n".encode("latin-1"))
    assert read(ctx, "latin1.txt") == "     1\tcaf\ufffd"


def test_crlf_and_bom_are_not_shown(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    assert read(ctx, "win.txt") == "     1\tone\n     2\ttwo"


def test_missing_files_suggest_close_names(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "config.py").write_text("")
    with pytest.raises(ModelRetry, match=r"confg\.py does not exist\. Did you mean: config\.py\?"):
        read(ctx, "confg.py")


def test_directories_and_bad_offsets_ask_for_a_retry(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "a.txt").write_text("one\n")
    with pytest.raises(ModelRetry, match="is a directory"):
        read(ctx, "src")
    with pytest.raises(ModelRetry, match="past the end"):
        read(ctx, "a.txt", offset=5)


def test_empty_file(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "empty").write_text("")
    assert read(ctx, "empty") == "empty is empty."


def test_reading_records_the_file_in_the_read_ledger(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("one\n")
    read(ctx, "a.txt")
    assert (workspace / "a.txt").resolve() in ctx.deps.read_ledger.stamps


READ_200MB = """
import resource, sys
from pathlib import Path
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage
from decode.entities.deps import AgentDeps
from decode.config.settings import Settings
from decode.tools.read import read

workspace = Path(sys.argv[1])
ctx = RunContext(deps=AgentDeps(workspace, Settings()), model=TestModel(), usage=RunUsage())
before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
pages = [read(ctx, name) for name in ("lines.log", "one-line.txt")]
after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
print((after - before) // 1024, all(len(page) < 60_000 for page in pages))
"""


def test_reading_a_200_mb_file_stays_bounded_in_memory(workspace: Path) -> None:
    size = 200 * 1024 * 1024
    with (workspace / "lines.log").open("wb") as handle:
        line = b"2026-01-01 INFO something happened in the system\n"
        block = line * (1024 * 1024 // len(line))
        while handle.tell() < size:
            handle.write(block)
    with (workspace / "one-line.txt").open("wb") as handle:  # 200 MB and no newline at all
        for _ in range(200):
            handle.write(b"a" * 1024 * 1024)
    # A fresh interpreter, so the peak resident memory measured is the reads' alone.
    out = subprocess.run([sys.executable, "-c", READ_200MB, str(workspace)], capture_output=True, text=True, check=True)
    grown_mb, pages_small = out.stdout.split()
    assert pages_small == "True"
    assert int(grown_mb) < 20, f"reading grew the process by {grown_mb} MB"
