"""Text reports over a Store."""

from crm.models import UserRecord
from crm.store import Store


def by_domain(records: list[UserRecord]) -> dict[str, int]:
    counts: dict[str, int] = {}
    for record in records:
        counts[record.domain()] = counts.get(record.domain(), 0) + 1
    return counts


def summary(store: Store) -> str:
    """'2 active users: example.com 1, example.org 1'."""
    active = store.active()
    parts = ", ".join(f"{d} {n}" for d, n in sorted(by_domain(active).items()))
    return f"{len(active)} active users: {parts}"
