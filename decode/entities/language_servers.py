"""The language servers of a conversation, as its tools see them (`decode.lsp.manager.LspManager` is one)."""

from typing import Protocol


class LanguageServers(Protocol):
    """The language servers of a conversation (`decode.lsp.manager.LspManager`)."""

    async def close(self) -> None:
        """Shut every server down."""
        ...
