"""Newest first: ripgrep's sorted listing, placed only as far as it is shown, ties by path.

The order must be the one `glob` gave when it took ripgrep's whole sorted list (`old_order`
below is that code), except that files modified at the same moment now come in path order on
every file system, with or without ripgrep, and a file gone before it was placed is left out.
"""

import os
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path

import pytest
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor, FileStat
from decode.processes.local import LocalExecutor
from decode.tools.glob import MAX_RESULTS, anchored, glob, matching_files
from decode.tools.ripgrep import RULE_FLAGS
from decode.tools.walk import glob_matcher

RG = str(Path(sys.prefix) / "bin" / "rg")
SECOND = 1_000_000_000


def old_order(base: Path, pattern: str) -> list[str]:
    """What `glob` listed before pages were placed lazily: ripgrep's sorted list, matched whole."""
    argv = [RG, *RULE_FLAGS, "--files", "--null", "--sortr=modified", "."]
    out = subprocess.run(argv, cwd=base, capture_output=True, check=True).stdout.decode()
    matches = glob_matcher(anchored(pattern))
    return [name for raw in out.split("\0") if raw and matches(name := raw.removeprefix("./"))]


def _touch(path: Path, mtime_ns: int) -> None:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(path.name)
    os.utime(path, ns=(mtime_ns, mtime_ns))


def _generated_tree(root: Path) -> Path:
    """A repository of 600 files, each modified at its own time, with ignore rules at two levels."""
    subprocess.run(["git", "init", "-q", str(root)], check=True)
    (root / ".gitignore").write_text("*.log\nbuild/\n!keep.log\n")
    (root / "pkg3" / ".gitignore").parent.mkdir(parents=True)
    (root / "pkg3" / ".gitignore").write_text("*.py\n!main.py\n")
    for n in range(600):
        name = ["f{}.py", "f{}.log", "f{}.txt", ".hidden{}.py"][n % 4].format(n)
        folder = f"build/x{n % 3}" if n % 50 == 0 else f"pkg{n % 7}/mod{n % 11}"
        _touch(root / folder / name, 1_700_000_000 * SECOND + n * 7919 % 600 * SECOND)
    _touch(root / "keep.log", 1_600_000_000 * SECOND)
    _touch(root / "pkg3" / "main.py", 1_650_000_000 * SECOND)
    return root


@pytest.mark.parametrize("pattern", ["**/*.py", "**/*", "pkg3/**/*.py", "*.log", "**/f1*"])
async def test_the_order_is_the_one_ripgreps_whole_sorted_list_gave(tmp_path: Path, pattern: str) -> None:
    tree = _generated_tree(tmp_path / "tree")
    found = await matching_files(LocalExecutor(tree), tree, pattern)
    expected = old_order(tree, pattern)
    assert expected  # every pattern finds something here
    assert [path.relative_to(tree).as_posix() for path in await found.all()] == expected
    assert [p.relative_to(tree).as_posix() for p in await found.take(0, 10)] == expected[:10]


@pytest.mark.parametrize("use_rg", [True, False])
async def test_files_modified_at_the_same_moment_come_in_path_order(
    executor: CommandExecutor, workspace: Path, use_rg: bool
) -> None:
    stamp = 1_700_000_000 * SECOND
    names = [f"d{n % 5}/f{n:03}.txt" for n in range(250)]
    for name in reversed(names):  # created in reverse: a directory's listing order is not the answer
        _touch(workspace / name, stamp)
    _touch(workspace / "newest.txt", stamp + SECOND)
    _touch(workspace / "oldest.txt", stamp - SECOND)
    found = await matching_files(executor, workspace, "**/*.txt", use_rg=use_rg)
    first = await found.take(0, MAX_RESULTS + 1)  # the page ends inside the run of equal times
    expected = ["newest.txt", *sorted(names), "oldest.txt"]
    assert [path.relative_to(workspace).as_posix() for path in first] == expected[: MAX_RESULTS + 1]
    assert [path.relative_to(workspace).as_posix() for path in await found.all()] == expected


class VanishingExecutor(LocalExecutor):
    """The local executor, where `doomed` is deleted after it was listed and before it is statted."""

    def __init__(self, workspace: Path, doomed: Path) -> None:
        super().__init__(workspace)
        self.doomed = doomed

    async def stat_many(self, paths: Sequence[Path]) -> list[FileStat | None]:
        self.doomed.unlink(missing_ok=True)
        return await super().stat_many(paths)


@pytest.mark.parametrize("use_rg", [True, False])
async def test_a_file_gone_after_it_was_listed_is_left_out(workspace: Path, use_rg: bool) -> None:
    for n in range(5):
        _touch(workspace / f"f{n}.txt", (1_700_000_000 + n) * SECOND)
    executor = VanishingExecutor(workspace, workspace / "f3.txt")
    found = await matching_files(executor, workspace, "*.txt", use_rg=use_rg)
    assert [path.name for path in await found.all()] == ["f4.txt", "f2.txt", "f1.txt", "f0.txt"]


async def test_glob_shows_a_page_without_the_vanished_file_and_no_error(
    ctx: RunContext[AgentDeps], workspace: Path
) -> None:
    for n in range(3):
        _touch(workspace / f"f{n}.txt", (1_700_000_000 + n) * SECOND)
    ctx.deps.executor = VanishingExecutor(workspace, workspace / "f1.txt")
    assert (await glob(ctx, "*.txt")).splitlines() == ["f2.txt", "f0.txt"]
