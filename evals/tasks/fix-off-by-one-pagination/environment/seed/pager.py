"""Split a list into pages for the listing screens.

Pages are numbered from 1: ``paginate(items, 1, 10)`` is the first ten items.
"""

from math import ceil


def page_count(total: int, per_page: int) -> int:
    """Return how many pages ``total`` items fill at ``per_page`` items a page."""
    if per_page < 1:
        raise ValueError("per_page must be at least 1")
    return ceil(total / per_page)


def paginate(items: list, page: int, per_page: int) -> list:
    """Return the items on ``page`` (1-based); a page past the end is empty."""
    if page < 1 or per_page < 1:
        raise ValueError("page and per_page must be at least 1")
    start = (page - 1) * per_page
    end = start + per_page + 1
    return items[start:end]
