"""`glob`: glob semantics, .gitignore respected, newest first, capped; ripgrep and Python agree.

The tests that take `ctx` or `executor` run against both executors (see conftest.py).
"""

import os
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.processes.local import LocalExecutor
from decode.tools.glob import MAX_RESULTS, glob, matching_files

PATTERNS = ["**/*.py", "*.md", "src/*.py", "**/*.log", "src/**", "**/top-only.txt", "docs/*", "*"]


@pytest.mark.parametrize("pattern", PATTERNS)
async def test_ripgrep_and_the_python_fallback_find_the_same_files(
    tree: Path, executor: CommandExecutor, pattern: str
) -> None:
    with_rg = await matching_files(LocalExecutor(tree), tree, pattern, use_rg=True)
    without = await matching_files(executor, tree, pattern, use_rg=False)
    assert sorted(await with_rg.all()) == sorted(await without.all())


async def test_glob_semantics_and_gitignore(ctx: RunContext[AgentDeps], tree: Path) -> None:
    assert set((await glob(ctx, "**/*.py")).splitlines()) == {"src/main.py", "src/util.py", "src/pkg/deep.py"}
    assert (await glob(ctx, "*.py")).startswith("No files match")  # `*` stays in the top directory
    assert set((await glob(ctx, "*.py", path="src")).splitlines()) == {"src/main.py", "src/util.py"}


async def test_newest_first(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    for age, name in enumerate(["new.txt", "mid.txt", "old.txt"]):
        (workspace / name).write_text(name)
        os.utime(workspace / name, (1_700_000_000 - age * 100, 1_700_000_000 - age * 100))
    assert (await glob(ctx, "*.txt")).splitlines() == ["new.txt", "mid.txt", "old.txt"]
    for use_rg in (True, False):
        found = await matching_files(ctx.deps.executor, workspace, "*.txt", use_rg=use_rg)
        assert [path.name for path in await found.all()] == ["new.txt", "mid.txt", "old.txt"], use_rg


async def test_results_are_capped_with_a_note_that_more_follow(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    for n in range(MAX_RESULTS + 25):
        (workspace / f"f{n:03}.txt").write_text("")
    lines = (await glob(ctx, "*.txt")).splitlines()
    assert len(lines) == MAX_RESULTS + 1
    assert lines[-1] == "[more files not shown; narrow the pattern or the path]"


async def test_bad_directories_ask_for_a_retry(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("")
    with pytest.raises(ToolFailed, match="not a directory"):
        await glob(ctx, "*", path="a.txt")
    with pytest.raises(ToolFailed, match="outside the working directory"):
        await glob(ctx, "*", path="/etc")


def _files(folder: Path, count: int, mtime: int) -> None:
    """`count` files in `folder`, all modified at `mtime` (newer files sort first)."""
    folder.mkdir(parents=True, exist_ok=True)
    for n in range(count):
        (folder / f"f{n:04}.txt").write_text("needle\n")
        os.utime(folder / f"f{n:04}.txt", (mtime, mtime))


async def test_the_gate_is_asked_only_about_the_files_shown(
    gated: tuple[RunContext[AgentDeps], Any], workspace: Path
) -> None:
    ctx, gate = gated
    _files(workspace / "src", 1000, 1_700_000_000)
    lines = (await glob(ctx, "**/*.txt")).splitlines()
    assert len(lines) == MAX_RESULTS + 1
    assert lines[-1] == "[more files not shown; narrow the pattern or the path]"
    assert gate.asked == MAX_RESULTS + 1  # the 100 shown and one more, not all 1,000


async def test_mostly_hidden_matches_still_show_a_full_page(
    gated: tuple[RunContext[AgentDeps], Any], workspace: Path
) -> None:
    ctx, gate = gated
    _files(workspace / "secret", 300, 1_700_000_900)  # the newest: stepped over, never shown
    _files(workspace / "src", 120, 1_700_000_000)
    lines = (await glob(ctx, "**/*.txt")).splitlines()
    assert len(lines) == MAX_RESULTS + 1
    assert all(line.startswith("src/") for line in lines[:-1])
    assert lines[-1].startswith("[more files not shown")
    assert gate.asked == 300 + MAX_RESULTS + 1


async def test_a_note_says_more_only_when_more_can_be_shown(
    gated: tuple[RunContext[AgentDeps], Any], workspace: Path
) -> None:
    ctx, _ = gated
    _files(workspace / "secret", 300, 1_700_000_000)  # the oldest: past the page, all hidden
    _files(workspace / "src", MAX_RESULTS, 1_700_000_900)
    lines = (await glob(ctx, "**/*.txt")).splitlines()
    assert len(lines) == MAX_RESULTS
    assert not any("secret" in line or "more" in line for line in lines)


async def test_denied_files_tied_with_shown_ones_across_a_page_end_stay_hidden(
    gated: tuple[RunContext[AgentDeps], Any], workspace: Path
) -> None:
    # One moment for every file (a checkout): ties go by path, and `secret/` sorts between shown
    # folders, across the page's end.
    for folder, count in (("a", 60), ("secret", 80), ("t", 60)):
        _files(workspace / folder, count, 1_700_000_000)
    ctx, _ = gated
    lines = (await glob(ctx, "**/*.txt")).splitlines()
    assert lines[-1].startswith("[more files not shown")
    shown = lines[:-1]
    assert len(shown) == MAX_RESULTS
    assert not any("secret" in line for line in shown)
    assert shown == sorted(shown)  # path order, whichever files the tie run crossed
