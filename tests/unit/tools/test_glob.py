"""`glob`: glob semantics, .gitignore respected, newest first, capped; ripgrep and Python agree.

The tests that take `ctx` or `executor` run against both executors (see conftest.py).
"""

import os
from pathlib import Path

import pytest
from pydantic_ai import RunContext, ToolFailed

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.tools.glob import MAX_RESULTS, glob, matching_files
from decode.tools.local import LocalExecutor

PATTERNS = ["**/*.py", "*.md", "src/*.py", "**/*.log", "src/**", "**/top-only.txt", "docs/*", "*"]


@pytest.mark.parametrize("pattern", PATTERNS)
async def test_ripgrep_and_the_python_fallback_find_the_same_files(
    tree: Path, executor: CommandExecutor, pattern: str
) -> None:
    with_rg = await matching_files(LocalExecutor(tree), tree, pattern, use_rg=True)
    without = await matching_files(executor, tree, pattern, use_rg=False)
    assert sorted(with_rg) == sorted(without)


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
        assert [path.name for path in found] == ["new.txt", "mid.txt", "old.txt"], use_rg


async def test_results_are_capped_with_a_count_of_the_rest(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    for n in range(MAX_RESULTS + 25):
        (workspace / f"f{n:03}.txt").write_text("")
    lines = (await glob(ctx, "*.txt")).splitlines()
    assert len(lines) == MAX_RESULTS + 1
    assert lines[-1] == "[25 more files not shown; narrow the pattern or the path]"


async def test_bad_directories_ask_for_a_retry(ctx: RunContext[AgentDeps], workspace: Path) -> None:
    (workspace / "a.txt").write_text("")
    with pytest.raises(ToolFailed, match="not a directory"):
        await glob(ctx, "*", path="a.txt")
    with pytest.raises(ToolFailed, match="outside the working directory"):
        await glob(ctx, "*", path="/etc")
