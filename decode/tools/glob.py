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

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.entities.search_filter import SearchFilter
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.newest import NewestFirst, newest_first
from decode.tools.paths import Refusal, check_text, display_path, resolve_path, stat_path
from decode.tools.ripgrep import run_rg
from decode.tools.walk import glob_matcher, walk_files

MAX_RESULTS = 100
EXTENSION_GLOB = re.compile(r"\*\.[\w.-]+")  # `*.py`, `*.test.ts`


def anchored(pattern: str) -> str:
    """The pattern as a gitignore-style glob anchored at the searched directory (`*.py` → `/*.py`)."""
    return pattern if pattern.startswith("/") else "/" + pattern


async def matching_files(executor: CommandExecutor, base: Path, pattern: str, *, use_rg: bool = True) -> NewestFirst:
    """The files under `base` whose path relative to it matches `pattern`, newest first."""
    matches = glob_matcher(anchored(pattern))
    rg = await executor.which("rg") if use_rg else None
    if rg is not None:
        # ripgrep lists and sorts (by modification time, in Rust); Python matches what is shown
        # (a `--glob` filter would override .gitignore rules).
        narrow = []
        last = pattern.rsplit("/", 1)[-1]
        if EXTENSION_GLOB.fullmatch(last):  # `*.py`: let ripgrep skip other files (a type keeps ignore rules)
            narrow = [f"--type-add=selected:{last}", "--type=selected"]
        output = await run_rg(executor, rg, ["--files", "--null", "--sortr=modified", *narrow, "."], cwd=base)
        names = output.stdout.decode("utf-8", errors="surrogateescape").split("\0")
        return NewestFirst(executor, base, names, matches)

    found = [path for path in await walk_files(executor, base) if matches(path.relative_to(base).as_posix())]
    return NewestFirst.sorted(executor, base, await newest_first(executor, found))


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


async def first_shown(
    search_filter: SearchFilter, paths: Sequence[Path] | NewestFirst, limit: int
) -> tuple[list[Path], bool]:
    """The first `limit` of `paths` the filter does not hide, and whether another one follows.

    The filter is asked about `limit + 1` paths at a time, and only again for as many as it hid:
    a search checks the files it shows, one more, and the hidden ones it stepped over.
    """
    shown: list[Path] = []
    start = 0
    while len(shown) <= limit:
        wanted = limit + 1 - len(shown)
        batch = await paths.take(start, wanted) if isinstance(paths, NewestFirst) else paths[start : start + wanted]
        if not batch:
            break
        start += len(batch)
        hidden = await search_filter.hidden(batch)
        shown.extend(path for path in batch if path not in hidden)
    return shown[:limit], len(shown) > limit


GLOB = ToolSpec(
    "glob", glob, ToolTraits(ToolKind.READ_ONLY, rules=("Glob", "Read"), path="path", pattern="pattern", searches=True)
)
