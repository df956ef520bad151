"""pydantic-ai and the provider SDKs without the optional parts decode does not use, until asked for.

`import pydantic_ai` imports the whole MCP client stack (fastmcp, the MCP SDK, their auth and web
dependencies: about 60 % of the import) because `pydantic_ai.capabilities.mcp` imports
`pydantic_ai.mcp` at its top, for the `MCP` capability decode never uses. The openai SDK imports
aiohttp for a transport decode never picks, and httpx its command-line client. Each of those imports
sits in a `try … except ImportError`, the library's own path for an install without that extra:
while the importing module is being first imported, the finder below answers "not here", so the
library loads as if the extra were absent. Any later import of the module (decode's MCP servers, a
user's code) loads the real one, and the names the fallback stood in for are put back. ADR-0102.
"""

import importlib.abc
import sys
import threading
from collections.abc import Sequence
from dataclasses import dataclass
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any


@dataclass(frozen=True)
class Deferral:
    """`importer` imports the deferred module under `try`; it has not finished while `defined_last`
    is missing from it. `restore`: the names it took from the module, put back on a real import."""

    importer: str
    defined_last: str
    restore: tuple[str, ...] = ()


DEFERRED: dict[str, Deferral] = {
    "pydantic_ai.mcp": Deferral("pydantic_ai.capabilities.mcp", "MCP", ("MCPToolset", "MCPToolsetClient")),
    "openai._vendor.httpx_aiohttp": Deferral("openai._base_client", "_DefaultAioHttpClient"),
    "httpx._main": Deferral("httpx", "main", ("main",)),
}


_importing_thread: dict[str, int] = {}
"""The thread that found each importer's spec: the one that runs its first import."""


def _importing(deferral: Deferral) -> bool:
    """Is the module that imports a deferred one being imported right now (not yet finished), by
    this thread? Another thread (the REPL's warm-up imports pydantic-ai on one) gets the real module."""
    module = sys.modules.get(deferral.importer)
    if module is None or deferral.defined_last in vars(module):
        return False
    return _importing_thread.get(deferral.importer) == threading.get_ident()


class _RestoringLoader(importlib.abc.Loader):
    """The real loader of a deferred module, which then puts its names back into the importer."""

    def __init__(self, loader: Any, deferral: Deferral) -> None:
        self._loader, self._deferral = loader, deferral

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        if (importer := sys.modules.get(self._deferral.importer)) is not None:
            for name in self._deferral.restore:
                setattr(importer, name, getattr(module, name))

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename…: tracebacks and inspect ask the loader for them.
        return getattr(self._loader, name)


class DeferredImports(importlib.abc.MetaPathFinder):
    """A finder that hides each deferred module from its importer only, and steps aside for any other."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if any(deferral.importer == fullname for deferral in DEFERRED.values()):
            # Found under its import lock: this thread runs the importer's first import.
            _importing_thread[fullname] = threading.get_ident()
        deferral = DEFERRED.get(fullname)
        if deferral is None:
            return None
        if _importing(deferral):
            raise ImportError(
                f"{fullname} is deferred until it is used (decode.models.deferred_imports)", name=fullname
            )
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RestoringLoader(spec.loader, deferral)
                return spec
        return None


def defer_imports() -> None:
    """Make the next imports of pydantic-ai and the SDKs skip what `DEFERRED` names, and load the
    packages of `lazy_reexports.LAZY` name by name (once is enough)."""
    from decode.models.lazy_reexports import LazyReexports

    if not any(isinstance(finder, LazyReexports) for finder in sys.meta_path):
        sys.meta_path.insert(0, LazyReexports())
    if not any(isinstance(finder, DeferredImports) for finder in sys.meta_path):
        sys.meta_path.insert(0, DeferredImports())


def uninstall() -> None:
    """Take the finders off the import path."""
    from decode.models.lazy_reexports import LazyReexports

    finders = (DeferredImports, LazyReexports)
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, finders)]
