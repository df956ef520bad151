"""Keeping UserRecord objects by handle."""

from crm.models import UserRecord


class Store:
    """UserRecord objects by handle; handles are unique."""

    def __init__(self) -> None:
        self._records: dict[str, UserRecord] = {}

    def add(self, record: UserRecord) -> None:
        if not isinstance(record, UserRecord):
            raise TypeError("Store.add() takes a UserRecord")
        if record.handle in self._records:
            raise KeyError(f"duplicate handle {record.handle!r}")
        self._records[record.handle] = record

    def get(self, handle: str) -> UserRecord:
        return self._records[handle]

    def active(self) -> list[UserRecord]:
        """Active UserRecord objects, by handle."""
        return [r for _, r in sorted(self._records.items()) if r.active]
