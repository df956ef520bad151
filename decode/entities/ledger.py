"""The Read Ledger: which files the agent has read in this session, and as what.

`edit` replaces text the model believes is in a file. If the model never read the file, or the
file changed on disk since (the user saved it, a formatter ran), that belief is stale and the
edit could destroy work. So reading records a stamp (size and modification time), writing and
editing refresh it, and `edit` (or `write` over an existing file) refuses a file whose stamp is
missing or different, asking the model to read it again.
"""

from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path

from decode.entities.executor import FileStat


class Freshness(StrEnum):
    FRESH = "fresh"  # read (or written) in this session, unchanged since
    UNREAD = "unread"
    CHANGED = "changed"


@dataclass(frozen=True)
class Stamp:
    size: int
    mtime_ns: int

    @classmethod
    def of(cls, stat: FileStat) -> "Stamp":
        return cls(stat.size, stat.mtime_ns)


@dataclass
class ReadLedger:
    """Stamps of the files the agent has seen, by resolved path."""

    stamps: dict[Path, Stamp] = field(default_factory=dict)

    def record(self, path: Path, stat: FileStat) -> None:
        """The agent now knows this file as it is."""
        self.stamps[path] = Stamp.of(stat)

    def check(self, path: Path, stat: FileStat) -> Freshness:
        """Is what the agent knows of `path` still what is on disk?"""
        known = self.stamps.get(path)
        if known is None:
            return Freshness.UNREAD
        return Freshness.FRESH if known == Stamp.of(stat) else Freshness.CHANGED


def require_fresh(ledger: ReadLedger, path: Path, stat: FileStat, shown: str) -> None:
    """Raise a `ModelRetry` asking to read `shown` first unless the ledger knows it as it is."""
    from pydantic_ai import ModelRetry

    freshness = ledger.check(path, stat)
    if freshness is Freshness.UNREAD:
        raise ModelRetry(f"{shown} has not been read in this session: read it first, then change it.")
    if freshness is Freshness.CHANGED:
        raise ModelRetry(f"{shown} changed on disk since you last read it: read it again, then change it.")
