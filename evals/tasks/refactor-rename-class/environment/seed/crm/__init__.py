"""A small customer store.

from crm import UserRecord, Store
store = Store()
store.add(UserRecord("ana", "ana@example.com"))
"""

from crm.models import UserRecord
from crm.report import summary
from crm.store import Store

__all__ = ["Store", "UserRecord", "summary"]
