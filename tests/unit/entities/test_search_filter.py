from pathlib import Path

from decode.entities.search_filter import SearchFilter, ShowAll


async def test_the_default_filter_hides_nothing() -> None:
    search_filter: SearchFilter = ShowAll()
    assert await search_filter.hidden([Path("a.py"), Path(".env")]) == set()
