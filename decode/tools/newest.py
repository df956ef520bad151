"""Newest first: the order `glob` and `grep` show files in, worked out only as far as it is shown.

ripgrep lists a tree already sorted by modification time (`--sortr=modified`): its walk stats
every file in Rust, which is the cheapest way to stat 100,000 files found here (ADR-0110). What
is left for Python is small, and done only for the files taken: matching each name against the
pattern, and putting files modified at the same moment (common after a checkout or an unpacked
archive) in path order, so the same tree always shows the same page, as the fallback does. A file
that vanished after it was listed is left out, not shown and not an error.
"""

from collections.abc import Callable, Sequence
from pathlib import Path

from decode.entities.executor import CommandExecutor

CHUNK = 64  # names statted at a time while a run of equal times is followed


class NewestFirst:
    """Paths under `base`, newest first, ties by path: taken a page at a time (`take`).

    `names` are relative paths as ripgrep printed them (newest first by its own stat, `./` in
    front); each is matched, statted again and placed only when a page reaches it.
    """

    def __init__(self, executor: CommandExecutor, base: Path, names: list[str], matches: Callable[[str], bool]) -> None:
        self.executor, self.base, self.names, self.matches = executor, base, names, matches
        self.looked = 0  # names before this one were matched
        self.ready: list[Path] = []  # in their final order
        self.held: list[tuple[int, str]] = []  # statted, not placed yet: what follows `ready`

    @classmethod
    def sorted(cls, executor: CommandExecutor, base: Path, paths: list[Path]) -> "NewestFirst":
        """Paths already in their final order (the Python fallback sorts them all)."""
        listing = cls(executor, base, [], lambda _: True)
        listing.ready = paths
        return listing

    async def take(self, start: int, count: int) -> list[Path]:
        """Paths `start` to `start + count` of the order (fewer past the end)."""
        while len(self.ready) < start + count and (self.held or self.looked < len(self.names)):
            await self._place(start + count - len(self.ready))
        return self.ready[start : start + count]

    async def all(self) -> list[Path]:
        return await self.take(0, len(self.ready) + len(self.held) + len(self.names))

    async def _place(self, wanted: int) -> None:
        """Place `wanted` more paths (fewer at the end), and every path modified when the last one was."""
        stamped, self.held = self.held, []
        while len(stamped) < wanted and (fresh := await self._stamped(wanted - len(stamped))):
            stamped += fresh
        if len(stamped) > wanted:  # what is held past `wanted` is placed only with its whole run of ties
            stamped, self.held = stamped[:wanted], stamped[wanted:]
        if not stamped:
            return
        last = stamped[-1][0]
        while True:  # a run of equal times crossing the page's end: take all of it, to sort it by path
            if not self.held:
                self.held = await self._stamped(CHUNK)
                if not self.held:
                    break
            ties = next((n for n, (mtime, _) in enumerate(self.held) if mtime != last), len(self.held))
            stamped += self.held[:ties]
            self.held = self.held[ties:]
            if self.held:
                break
        stamped.sort(key=lambda item: (-item[0], item[1]))
        self.ready += [self.base / name for _, name in stamped]

    async def _stamped(self, count: int) -> list[tuple[int, str]]:
        """The next `count` matching names with their modification times (vanished ones left out)."""
        stamped: list[tuple[int, str]] = []
        while len(stamped) < count and self.looked < len(self.names):
            found: list[str] = []
            while len(stamped) + len(found) < count and self.looked < len(self.names):
                raw = self.names[self.looked]
                self.looked += 1
                if raw and self.matches(name := raw.removeprefix("./")):
                    found.append(name)
            stats = await self.executor.stat_many([self.base / name for name in found])
            stamped += [(stat.mtime_ns, name) for stat, name in zip(stats, found, strict=True) if stat is not None]
        return stamped


async def newest_first(executor: CommandExecutor, paths: Sequence[Path]) -> list[Path]:
    """Sort by modification time, newest first, ties by path; a path no longer there is left out."""
    stats = await executor.stat_many(paths)  # one round trip for all of them
    stamped = [(-stat.mtime_ns, str(path), path) for stat, path in zip(stats, paths, strict=True) if stat]
    stamped.sort(key=lambda item: item[:2])  # strings compare much faster than Paths
    return [path for _, _, path in stamped]
