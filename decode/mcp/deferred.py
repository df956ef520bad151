"""pydantic-ai without its MCP client until a server needs it.

`import pydantic_ai` imports the whole MCP client stack (fastmcp, the MCP SDK, their auth and web
dependencies: about 60 % of the import) because `pydantic_ai.capabilities.mcp` imports
`pydantic_ai.mcp` at its top, for the `MCP` capability decode never uses. That import sits in a
`try … except ImportError`, the library's own path for an install without the MCP extra: while that
module is being first imported, the finder below answers "not here", so pydantic-ai loads as if the
extra were absent. Any later `import pydantic_ai.mcp` (decode's MCP servers, a user's code) loads the
real module, and the finder puts the real classes back where the fallback stood. ADR-0102.
"""

import importlib.abc
import sys
from collections.abc import Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

CLIENT = "pydantic_ai.mcp"
IMPORTER = "pydantic_ai.capabilities.mcp"
NAMES = ("MCPToolset", "MCPToolsetClient")  # what IMPORTER takes from CLIENT


def _importer_loading() -> bool:
    """Is `pydantic_ai.capabilities.mcp` being imported right now (its `MCP` class not yet defined)?"""
    module = sys.modules.get(IMPORTER)
    return module is not None and "MCP" not in vars(module)


class _RestoringLoader(importlib.abc.Loader):
    """The real loader of `pydantic_ai.mcp`, which then hands its classes to `capabilities.mcp`."""

    def __init__(self, loader: Any) -> None:
        self._loader = loader

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        self._loader.exec_module(module)
        importer = sys.modules.get(IMPORTER)
        if importer is not None:
            for name in NAMES:
                setattr(importer, name, getattr(module, name))

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename…: tracebacks and inspect ask the loader for them.
        return getattr(self._loader, name)


class DeferredMcpClient(importlib.abc.MetaPathFinder):
    """A finder that hides `pydantic_ai.mcp` from `capabilities.mcp` only, then leaves the path."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if fullname != CLIENT:
            return None
        if _importer_loading():
            raise ImportError(f"{CLIENT} is deferred until an MCP server is used", name=fullname)
        uninstall()  # the real import is under way: nothing is left to defer
        for finder in sys.meta_path:
            spec = finder.find_spec(fullname, path, target)
            if spec is not None:
                if spec.loader is not None:
                    spec.loader = _RestoringLoader(spec.loader)
                return spec
        return None


def defer_mcp_client() -> None:
    """Make the next `import pydantic_ai` skip the MCP client stack (a no-op once it is imported)."""
    if IMPORTER in sys.modules or any(isinstance(finder, DeferredMcpClient) for finder in sys.meta_path):
        return
    sys.meta_path.insert(0, DeferredMcpClient())


def uninstall() -> None:
    """Take the finder off the import path (tests; the real import of `pydantic_ai.mcp`)."""
    sys.meta_path[:] = [finder for finder in sys.meta_path if not isinstance(finder, DeferredMcpClient)]
