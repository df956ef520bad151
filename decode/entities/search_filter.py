"""Which of the files a search found it may show: what `grep` and `glob` ask before they show a file.

A filter can hide files the user keeps from the agent: the permission gate of lesson 06 is one.
"""

from collections.abc import Sequence
from pathlib import Path
from typing import Protocol


class SearchFilter(Protocol):
    """Which of the files a search found it may show (a filter can hide files the user keeps from the agent)."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        """The paths among `paths` whose content or name a search must not show."""
        ...


class ShowAll:
    """The filter that hides nothing: what a conversation gets unless it is given another."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        return set()
