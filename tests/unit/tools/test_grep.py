"""`grep`: ripgrep and the pure-Python fallback give the same results in every mode.

The tests that take `ctx` or `executor` run against both executors (see conftest.py).
"""

import asyncio
import os
import stat
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import ModelRetry, RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.processes.local import LocalExecutor
from decode.tools.grep import MAX_FILES, Matches, Query, find_matches, grep, render
from decode.tools.read import read

QUERIES = [
    Query("TODO"),
    Query("TODO", mode="content"),
    Query("TODO", mode="count"),
    Query("todo", mode="content", ignore_case=True),
    Query(r"^\s+return", mode="content", context=1),
    Query("TODO", mode="content", context=2, glob="*.py"),
    Query("TODO", glob="src/**/*.py"),
    Query("TODO", glob="*.log"),
    Query(r"crlf$|bom", mode="content"),
    Query("no such text anywhere"),
]


@pytest.mark.parametrize("query", QUERIES, ids=lambda q: f"{q.mode}-{q.pattern}-{q.glob}-{q.context}-{q.ignore_case}")
async def test_ripgrep_and_python_agree(tree: Path, executor: CommandExecutor, query: Query) -> None:
    local = LocalExecutor(tree)
    for target in (tree, tree / "src", tree / "docs/win.txt"):
        with_rg = await find_matches(local, target, query, use_rg=True)
        without = await find_matches(executor, target, query, use_rg=False)
        assert await render(local, with_rg, query.mode) == await render(executor, without, query.mode)


async def test_files_mode_respects_gitignore_and_skips_binaries(ctx: RunContext[AgentDeps], tree: Path) -> None:
    files = set((await grep(ctx, "TODO")).splitlines())
    assert files == {
        ".github/ci.yml",
        "README.md",
        "keep.log",
        "docs/bom.txt",
        "docs/win.txt",
        "src/main.py",
        "src/pkg/deep.py",
        "src/top-only.txt",
    }


async def test_content_mode_shows_path_line_and_context(ctx: RunContext[AgentDeps], tree: Path) -> None:
    out = await grep(ctx, "parse args", path="src", output_mode="content", context=1)
    assert out == "src/main.py-3-def main():\nsrc/main.py:4:    # TODO: parse args\nsrc/main.py-5-    print('hi')"


async def test_count_mode(ctx: RunContext[AgentDeps], tree: Path) -> None:
    out = await grep(ctx, "TODO|todo", path="src", output_mode="count")
    assert out.splitlines() == [
        "src/main.py:1",
        "src/pkg/deep.py:1",
        "src/top-only.txt:1",
        "src/util.py:1",
        "[4 matching lines in 4 files]",
    ]


async def test_a_glob_never_brings_back_ignored_files(ctx: RunContext[AgentDeps], tree: Path) -> None:
    assert "src/generated.py" not in await grep(ctx, "TODO", glob="*.py")
    assert "app.log" not in await grep(ctx, "TODO", glob="*.log")


async def test_a_single_file_can_be_searched(ctx: RunContext[AgentDeps], tree: Path) -> None:
    assert await grep(ctx, "crlf", path="docs/win.txt", output_mode="content") == "docs/win.txt:2:TODO crlf"


async def test_no_match_and_bad_input(ctx: RunContext[AgentDeps], tree: Path) -> None:
    assert (await grep(ctx, "zzz-nothing")).startswith("No matches for zzz-nothing")
    with pytest.raises(ModelRetry, match="grep failed"):
        await grep(ctx, "(unclosed")
    with pytest.raises(ToolFailed, match="does not exist"):
        await grep(ctx, "x", path="nope")


async def test_large_results_are_shortened_and_saved(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "many.txt").write_text("".join(f"match number {n}\n" for n in range(20_000)))
    out = await grep(ctx, "match", output_mode="content")
    assert len(out) < ctx.deps.settings.tool_output_limit + 500
    saved = out.split("the full output is in ")[1].split(" ")[0]
    assert saved.startswith("harness:tool-output/")
    # All 20,000 lines are in it, and the tools can open it: the last page is the last line.
    assert await read(ctx, saved, offset=20_000) == " 20000\tmany.txt:20000:match number 19999"


# -- what would block: never opened ------------------------------------------------------------

can_mknod = pytest.mark.skipif(os.geteuid() != 0, reason="creating a device node needs root")


@pytest.fixture
def specials(workspace: Path) -> Path:
    """A folder with a FIFO (opening it waits for a writer forever), a symlink to it and a regular file."""
    (workspace / "found.txt").write_text("needle here\n")
    os.mkfifo(workspace / "pipe")
    (workspace / "to-pipe").symlink_to(workspace / "pipe")
    if os.geteuid() == 0:
        os.mknod(workspace / "zero", 0o600 | stat.S_IFCHR, os.makedev(1, 5))  # /dev/zero: never ends
    return workspace


@pytest.mark.parametrize("target", ["pipe", "to-pipe", pytest.param("zero", marks=can_mknod)])
async def test_a_fifo_or_a_device_as_the_target_is_refused_before_anything_opens_it(
    ctx: RunContext[AgentDeps], specials: Path, target: str
) -> None:
    with pytest.raises(ToolFailed, match=f"{target} is not a regular file"):
        await asyncio.wait_for(grep(ctx, "needle", path=target), 30)  # a hang fails, it does not hang


@pytest.mark.parametrize("use_rg", [True, False], ids=["ripgrep", "python"])
async def test_a_fifo_or_a_device_inside_a_folder_is_passed_over(
    executor: CommandExecutor, specials: Path, use_rg: bool
) -> None:
    found = await asyncio.wait_for(find_matches(executor, specials, Query("needle"), use_rg=use_rg), 30)
    assert list(found.counts) == [specials / "found.txt"]
    assert await find_matches(executor, specials / "pipe", Query("needle"), use_rg=use_rg) == Matches()


async def test_files_mode_asks_the_gate_only_about_the_files_shown(
    gated: tuple[RunContext[AgentDeps], Any], workspace: Path
) -> None:
    ctx, gate = gated
    for folder, stamp in (("secret", 1_700_000_900), ("src", 1_700_000_000)):  # secret/ newest
        (workspace / folder).mkdir()
        for n in range(150):
            (workspace / folder / f"f{n:03}.txt").write_text("needle\n")
            os.utime(workspace / folder / f"f{n:03}.txt", (stamp, stamp))
    lines = (await grep(ctx, "needle")).splitlines()
    assert len(lines) == MAX_FILES + 1
    assert all(line.startswith("src/") for line in lines[:-1])
    assert lines[-1] == "[more files not shown; narrow the pattern, path or glob]"
    assert gate.asked == 150 + MAX_FILES + 1  # the hidden ones stepped over, the page and one more
    gate.asked = 0
    counted = await grep(ctx, "needle", output_mode="count")  # every file is shown: every one is asked about
    assert gate.asked == 300
    assert "secret" not in counted
    assert "[150 matching lines in 150 files]" in counted
