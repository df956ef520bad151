"""The Read Ledger tells fresh, unread and changed files apart."""

from pathlib import Path

import pytest
from pydantic_ai import ModelRetry

from decode.entities.executor import EntryKind, FileStat
from decode.entities.ledger import Freshness, ReadLedger, require_fresh

SEEN = FileStat(EntryKind.FILE, size=10, mtime_ns=1, mode=0o644)


def test_freshness() -> None:
    ledger = ReadLedger()
    path = Path("/w/a.py")
    assert ledger.check(path, SEEN) is Freshness.UNREAD
    ledger.record(path, SEEN)
    assert ledger.check(path, SEEN) is Freshness.FRESH
    assert ledger.check(path, FileStat(EntryKind.FILE, size=10, mtime_ns=2, mode=0o644)) is Freshness.CHANGED
    assert ledger.check(path, FileStat(EntryKind.FILE, size=11, mtime_ns=1, mode=0o644)) is Freshness.CHANGED


def test_require_fresh_asks_the_model_to_read() -> None:
    with pytest.raises(ModelRetry, match=r"a\.py has not been read"):
        require_fresh(ReadLedger(), Path("/w/a.py"), SEEN, "a.py")
