"""The `glob` tool: find files by name pattern, newest first.

`**/*.py` finds Python files at any depth, `src/*.ts` only directly in `src/`, `*.md` only at
the top of the searched directory (glob semantics). Files git ignores are left out (see
`walk.py` for the exact rules). The newest files come first: what the user touched last is most
likely what the task is about. At most 100 paths are shown, and a note says when there are more.

The Search Filter (the Permission Gate's rules for reading) is asked only about what is shown:
the newest matches are taken in order until 100 it lets through are found, so a search over
100,000 files checks about 100 of them, not all. That is also why the note gives no count: the
files past the first 100 were never checked, and a count of them could include hidden ones.
"""

import re
from collections.abc import Sequence
from pathlib import Path
from typing import overload

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps, SearchFilter
from decode.entities.executor import CommandExecutor
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.paths import Refusal, check_text, display_path, resolve_path, stat_path
from decode.tools.ripgrep import run_rg
from decode.tools.walk import glob_matcher, walk_files

MAX_RESULTS = 100
EXTENSION_GLOB = re.compile(r"\*\.[\w.-]+")  # `*.py`, `*.test.ts`


def anchored(pattern: str) -> str:
    """The pattern as a gitignore-style glob anchored at the searched directory (`*.py` → `/*.py`)."""
    return pattern if pattern.startswith("/") else "/" + pattern


async def matching_files(executor: CommandExecutor, base: Path, pattern: str, *, use_rg: bool = True) -> Sequence[Path]:
    """The files under `base` whose path relative to it matches `pattern`, newest first."""
    matches = glob_matcher(anchored(pattern))
    rg = await executor.which("rg") if use_rg else None
    if rg is not None:
        # ripgrep lists and sorts (by modification time, in Rust); Python matches (a `--glob`
        # filter would override .gitignore rules).
        narrow = []
        last = pattern.rsplit("/", 1)[-1]
        if EXTENSION_GLOB.fullmatch(last):  # `*.py`: let ripgrep skip other files (a type keeps ignore rules)
            narrow = [f"--type-add=selected:{last}", "--type=selected"]
        output = await run_rg(executor, rg, ["--files", "--null", "--sortr=modified", *narrow, "."], cwd=base)
        names = output.stdout.decode("utf-8", errors="surrogateescape").split("\0")
        return PathsUnder(base, [name for raw in names if raw and matches(name := raw.removeprefix("./"))])

    found = [path for path in await walk_files(executor, base) if matches(path.relative_to(base).as_posix())]
    return await newest_first(executor, found)


class PathsUnder(Sequence[Path]):
    """Relative names as paths under `base`, each `Path` made only when it is asked for: a glob
    over 100,000 files shows 100, and making the other `Path`s would cost more than listing them."""

    def __init__(self, base: Path, names: list[str]) -> None:
        self.base, self.names = base, names

    def __len__(self) -> int:
        return len(self.names)

    @overload
    def __getitem__(self, index: int) -> Path: ...
    @overload
    def __getitem__(self, index: slice) -> list[Path]: ...
    def __getitem__(self, index: int | slice) -> Path | list[Path]:
        if isinstance(index, slice):
            return [self.base / name for name in self.names[index]]
        return self.base / self.names[index]


async def newest_first(executor: CommandExecutor, paths: list[Path]) -> list[Path]:
    """Sort by modification time, newest first (ties by path, so the order is stable)."""
    stats = await executor.stat_many(paths)  # one round trip for all of them
    stamped = [(-(stat.mtime_ns if stat else 0), str(path), path) for stat, path in zip(stats, paths, strict=True)]
    stamped.sort(key=lambda item: item[:2])  # strings compare much faster than Paths
    return [path for _, _, path in stamped]


async def glob(ctx: RunContext[AgentDeps], pattern: str, path: str = ".") -> str:
    """Find files by glob pattern, newest first. Files ignored by .gitignore are skipped.

    Args:
        pattern: Glob relative to `path`: `**/*.py` (any depth), `src/*.ts` (only in src/).
        path: Directory to search in, relative to the working directory.
    """
    executor = ctx.deps.executor
    if not pattern.strip():
        raise ModelRetry("The pattern is empty; for example **/*.py.")
    check_text(pattern, "pattern")
    base = await resolve_path(executor, path)
    stat = await stat_path(executor, base, path)
    if stat is None or not stat.is_dir:
        raise Refusal(f"{path} is not a directory; give the directory to search in as path.")
    found = await matching_files(executor, base, pattern)
    files, more = await first_shown(ctx.deps.search_filter, found, MAX_RESULTS)  # silently, as grep does
    if not files:
        where = display_path(executor, base)
        return f"No files match {pattern} in {'the working directory' if where == '.' else where}."
    lines = [display_path(executor, file) for file in files]
    if more:
        lines.append("[more files not shown; narrow the pattern or the path]")
    return "\n".join(lines)


async def first_shown(search_filter: SearchFilter, paths: Sequence[Path], limit: int) -> tuple[list[Path], bool]:
    """The first `limit` of `paths` the filter does not hide, and whether another one follows.

    The filter is asked about `limit + 1` paths at a time, and only again for as many as it hid:
    a search checks the files it shows, one more, and the hidden ones it stepped over.
    """
    shown: list[Path] = []
    start = 0
    while start < len(paths) and len(shown) <= limit:
        batch = paths[start : start + limit + 1 - len(shown)]
        start += len(batch)
        hidden = await search_filter.hidden(batch)
        shown.extend(path for path in batch if path not in hidden)
    return shown[:limit], len(shown) > limit


GLOB = ToolSpec(
    "glob", glob, ToolTraits(ToolKind.READ_ONLY, rules=("Glob", "Read"), path="path", pattern="pattern", searches=True)
)
