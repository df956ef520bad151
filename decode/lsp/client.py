"""A language client: the LSP requests decode makes, over one `Connection`.

It opens the documents it asks about (`didOpen`, then `didChange` with the full text and a new
version whenever the text it is given differs), so the server always sees what is on disk. For
diagnostics it announces *pull* support: a `textDocument/diagnostic` request sent after a
`didChange` is answered from that new text, fresh by construction, with no wait for a push that
may or may not reflect the edit (ADR-0060). A server without pull support (pylsp) pushes
`publishDiagnostics`; the client keeps the newest per document and waits, briefly, for the one of
the current version.
"""

import asyncio
import contextlib
import logging
from pathlib import Path
from typing import Any

from decode.lsp.jsonrpc import Connection
from decode.lsp.positions import Position

logger = logging.getLogger(__name__)

PUSH_WAIT_S = 1.0
"""How long a push-only server gets to publish the diagnostics of a new version."""

CLIENT_CAPABILITIES: dict[str, Any] = {
    "general": {"positionEncodings": ["utf-16"]},
    "textDocument": {
        "synchronization": {"dynamicRegistration": False, "didSave": False},
        "diagnostic": {"dynamicRegistration": False, "relatedDocumentSupport": False},
        "publishDiagnostics": {"versionSupport": True},
        "definition": {"linkSupport": False},
        "references": {},
        "hover": {"contentFormat": ["plaintext", "markdown"]},
        "documentSymbol": {"hierarchicalDocumentSymbolSupport": True},
    },
    "workspace": {"symbol": {}, "configuration": True, "workspaceFolders": True},
    "window": {"workDoneProgress": False},
}


def uri_of(path: Path) -> str:
    return path.as_uri()


def path_of(uri: str) -> Path | None:
    """The file a `file://` URI names; None for another scheme."""
    if not uri.startswith("file://"):
        return None
    from urllib.parse import unquote, urlparse  # only when a result comes back

    return Path(unquote(urlparse(uri).path))


class LspClient:
    """One initialised server: the documents it has open, and the requests decode makes of it."""

    def __init__(self, connection: Connection, root: Path, language_id: str, *, timeout: float) -> None:
        self.connection, self.root, self.language_id, self.timeout = connection, root, language_id, timeout
        self.capabilities: dict[str, Any] = {}
        self.documents: dict[Path, tuple[int, str]] = {}
        """What the server has open: path → (version, text)."""
        self.pushed: dict[str, tuple[int | None, list[dict[str, Any]]]] = {}
        self._pushed_changed = asyncio.Event()
        connection.on_notification = self._on_notification
        connection.on_request = self._on_request

    async def initialize(self, options: dict[str, Any] | None = None) -> None:
        params = {
            "processId": None,  # the server must not watch decode's pid: in a sandbox it is another namespace
            "rootUri": uri_of(self.root),
            "workspaceFolders": [{"uri": uri_of(self.root), "name": self.root.name}],
            "capabilities": CLIENT_CAPABILITIES,
            "initializationOptions": options or {},
            "clientInfo": {"name": "decode"},
        }
        result = await self.connection.request("initialize", params, timeout=self.timeout)
        self.capabilities = (result or {}).get("capabilities", {})
        await self.connection.notify("initialized", {})

    @property
    def pulls(self) -> bool:
        """Does the server answer `textDocument/diagnostic`?"""
        return bool(self.capabilities.get("diagnosticProvider"))

    def supports(self, provider: str) -> bool:
        return bool(self.capabilities.get(provider))

    async def sync(self, path: Path, text: str) -> None:
        """Make the server's copy of `path` read `text` (open it, or change it to a new version)."""
        known = self.documents.get(path)
        uri = uri_of(path)
        if known is None:
            self.documents[path] = (1, text)
            document = {"uri": uri, "languageId": self.language_id, "version": 1, "text": text}
            await self.connection.notify("textDocument/didOpen", {"textDocument": document})
        elif known[1] != text:
            version = known[0] + 1
            self.documents[path] = (version, text)
            await self.connection.notify(
                "textDocument/didChange",
                {"textDocument": {"uri": uri, "version": version}, "contentChanges": [{"text": text}]},
            )

    async def at(self, method: str, path: Path, position: Position, **extra: Any) -> Any:
        """A request about one position of an open document (definition, references, hover)."""
        params = {"textDocument": {"uri": uri_of(path)}, "position": position, **extra}
        return await self.connection.request(method, params, timeout=self.timeout)

    async def document_symbols(self, path: Path) -> list[dict[str, Any]]:
        params = {"textDocument": {"uri": uri_of(path)}}
        return await self.connection.request("textDocument/documentSymbol", params, timeout=self.timeout) or []

    async def workspace_symbols(self, query: str) -> list[dict[str, Any]]:
        return await self.connection.request("workspace/symbol", {"query": query}, timeout=self.timeout) or []

    async def diagnostics(self, path: Path, *, timeout: float | None = None) -> list[dict[str, Any]]:  # noqa: ASYNC109
        """The diagnostics of the open document `path` as the server sees its current version."""
        wait = self.timeout if timeout is None else timeout
        if self.pulls:
            params = {"textDocument": {"uri": uri_of(path)}}
            report = await self.connection.request("textDocument/diagnostic", params, timeout=wait)
            return list((report or {}).get("items", []))  # an "unchanged" report never comes: no resultId sent
        return await self._pushed_for(path, min(wait, PUSH_WAIT_S))

    async def _pushed_for(self, path: Path, wait: float) -> list[dict[str, Any]]:
        version = self.documents.get(path, (None, ""))[0]
        uri = uri_of(path)
        loop = asyncio.get_running_loop()
        deadline = loop.time() + wait
        while True:
            seen = self.pushed.get(uri)
            if seen is not None and (seen[0] is None or version is None or seen[0] >= version):
                return seen[1]
            left = deadline - loop.time()
            if left <= 0:
                return seen[1] if seen is not None else []
            self._pushed_changed.clear()
            with contextlib.suppress(TimeoutError):
                await asyncio.wait_for(self._pushed_changed.wait(), left)

    def _on_notification(self, method: str, params: Any) -> None:
        if method == "textDocument/publishDiagnostics" and isinstance(params, dict):
            self.pushed[str(params.get("uri"))] = (params.get("version"), list(params.get("diagnostics", [])))
            self._pushed_changed.set()
        elif method == "window/logMessage" and isinstance(params, dict):
            logger.debug("language server: %s", params.get("message"))

    async def _on_request(self, method: str, params: Any) -> Any:
        if method == "workspace/configuration":  # no settings: the server's defaults
            items = params.get("items", []) if isinstance(params, dict) else []
            return [None for _ in items]
        if method in ("client/registerCapability", "client/unregisterCapability", "window/workDoneProgress/create"):
            return None
        if method == "workspace/workspaceFolders":
            return [{"uri": uri_of(self.root), "name": self.root.name}]
        raise LookupError(method)

    async def shutdown(self) -> None:
        """Ask the server to stop (politely, briefly), then end it."""
        try:
            await self.connection.request("shutdown", None, timeout=min(self.timeout, 1.0))
            await self.connection.notify("exit", None)
        except Exception:
            logger.debug("language server did not shut down cleanly", exc_info=True)
        await self.connection.close()
