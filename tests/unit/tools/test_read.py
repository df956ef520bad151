"""`read`: numbered pages, limits, refusals, odd encodings, bounded memory (through either executor)."""

import os
import subprocess
import sys
from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.tools.read import MAX_LINE_CHARS, read


async def test_lines_come_numbered_like_cat_n(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("alpha\nbeta\n")
    assert await read(ctx, "a.txt") == "     1\talpha\n     2\tbeta"


async def test_offset_and_limit_page_through_the_file(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("".join(f"line {n}\n" for n in range(1, 11)))
    page = await read(ctx, "a.txt", offset=4, limit=3)
    assert page.splitlines()[:3] == ["     4\tline 4", "     5\tline 5", "     6\tline 6"]
    assert "offset=7" in page


async def test_a_page_stops_at_2000_lines_with_a_note_on_how_to_continue(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    (workspace / "big.txt").write_text("x\n" * 5000)
    page = await read(ctx, "big.txt", limit=100_000)
    numbered = [line for line in page.splitlines() if "\t" in line]
    assert len(numbered) == 2000
    assert "read with offset=2001 to continue" in page


async def test_a_page_stops_at_50_kb(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "wide.txt").write_text(("y" * 1000 + "\n") * 200)
    page = await read(ctx, "wide.txt")
    assert len(page) <= 51_000
    assert "more follow" in page


async def test_long_lines_are_cut(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "min.js").write_text("z" * 100_000 + "\nnext\n")
    page = await read(ctx, "min.js")
    first, second = page.splitlines()
    assert first.startswith("     1\t" + "z" * MAX_LINE_CHARS)
    assert "line cut" in first
    assert second == "     2\tnext"


async def test_binary_files_and_images_are_refused(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "blob.bin").write_bytes(b"\x00\x01\x02" * 100)
    (workspace / "logo.png").write_bytes(b"\x89PNG\r\n\x1a\n")
    assert (await read(ctx, "blob.bin")).startswith("blob.bin is not a text file (binary")
    with pytest.raises(ToolFailed, match=r"logo\.png starts like an image but its header is cut short"):
        await read(ctx, "logo.png")


async def test_non_utf8_text_is_shown_with_replacement_characters(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "latin1.txt").write_bytes("café\n".encode("latin-1"))
    assert await read(ctx, "latin1.txt") == "     1\tcaf\ufffd"


async def test_crlf_and_bom_are_not_shown(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "win.txt").write_bytes(b"\xef\xbb\xbfone\r\ntwo\r\n")
    assert await read(ctx, "win.txt") == "     1\tone\n     2\ttwo"


async def test_missing_files_suggest_close_names(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "config.py").write_text("")
    with pytest.raises(ToolFailed, match=r"confg\.py does not exist\. Did you mean: config\.py\?"):
        await read(ctx, "confg.py")


async def test_directories_and_bad_offsets_ask_for_a_retry(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "src").mkdir()
    (workspace / "a.txt").write_text("one\n")
    with pytest.raises(ToolFailed, match="is a directory"):
        await read(ctx, "src")
    with pytest.raises(ToolFailed, match="past the end"):
        await read(ctx, "a.txt", offset=5)


async def test_empty_file(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "empty").write_text("")
    assert await read(ctx, "empty") == "empty is empty."


async def test_reading_records_the_file_in_the_read_ledger(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("one\n")
    await read(ctx, "a.txt")
    assert (workspace / "a.txt").resolve() in ctx.deps.read_ledger.stamps


async def test_a_symlink_inside_the_workspace_is_read_through(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("one\n")
    (workspace / "alias.txt").symlink_to(workspace / "a.txt")
    assert await read(ctx, "alias.txt") == "     1\tone"
    assert (workspace / "a.txt").resolve() in ctx.deps.read_ledger.stamps


async def test_a_fifo_is_refused_without_blocking(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    os.mkfifo(workspace / "pipe")  # opening it to read would wait for a writer forever
    with pytest.raises(ToolFailed, match="pipe is not a regular file"):
        await read(ctx, "pipe")


READ_200MB = """
import asyncio, resource, sys
from pathlib import Path
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.tools.read import read


async def main() -> None:
    workspace = Path(sys.argv[1])
    deps = AgentDeps(LocalExecutor(workspace), Settings(), harness_home=workspace)
    ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
    before = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    pages = [await read(ctx, name) for name in ("lines.log", "one-line.txt")]
    after = resource.getrusage(resource.RUSAGE_SELF).ru_maxrss
    print((after - before) // 1024, all(len(page) < 60_000 for page in pages))


asyncio.run(main())
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
