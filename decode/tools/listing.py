"""A bounded listing of a tree's files, as `glob` and `grep` see them: what `@path` mentions use.

The REPL completes `@` from the Workspace's files while the user types, and a folder mention sends
its entries. Both must stay quick on a tree of a million files, so the listing is bounded twice: it
stops after `max_seconds` and keeps at most `limit` paths (what it has by then is the answer,
marked `cut_short`). It is ripgrep's walk (`rg --files`, unsorted: the fastest) with the rules of
`ripgrep.py`, or, without ripgrep, the pure-Python walk of `walk.py`: `.gitignore` applies, hidden
files are in, `.git` is out.
"""

import asyncio
from dataclasses import dataclass
from pathlib import Path

from decode.entities.executor import CommandExecutor
from decode.tools.ripgrep import run_rg
from decode.tools.walk import walk_files

MAX_LISTED = 20_000
"""Paths a listing keeps: enough for most projects, few enough to match on every key typed."""
LIST_TIMEOUT_S = 2.0
BYTES_PER_PATH = 128  # what `limit` paths may take of ripgrep's output, on average


@dataclass(frozen=True)
class Listing:
    """Files under a folder, relative to it (posix, in no particular order), and whether some were left out."""

    paths: list[str]
    cut_short: bool = False


async def list_files(
    executor: CommandExecutor,
    base: Path,
    *,
    limit: int = MAX_LISTED,
    max_seconds: float = LIST_TIMEOUT_S,
    use_rg: bool = True,
) -> Listing:
    """The files under `base` that git does not ignore: at most `limit`, found within `max_seconds`."""
    rg = await executor.which("rg") if use_rg else None
    if rg is None:
        try:
            found = await asyncio.wait_for(walk_files(executor, base), max_seconds)
        except TimeoutError:
            return Listing([], cut_short=True)
        names = sorted(path.relative_to(base).as_posix() for path in found)
        return Listing(names[:limit], cut_short=len(names) > limit)
    output = await run_rg(
        executor, rg, ["--files"], cwd=base, max_seconds=max_seconds, max_bytes=limit * BYTES_PER_PATH
    )
    lines = output.stdout.split(b"\n")[:-1]  # rg ends every line: what follows the last newline is cut
    names = []
    for line in lines:
        try:
            names.append(line.decode("utf-8"))
        except UnicodeDecodeError:  # a name no one can type (lesson 06 spells them escaped): not offered
            continue
    return Listing(names[:limit], cut_short=output.cut_short or len(names) > limit)
