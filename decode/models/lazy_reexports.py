"""Packages whose `__init__.py` only re-exports its submodules' names load each name when it is used.

`import openai` runs `openai/types/__init__.py`, which imports the models of every API the SDK
covers (evals, fine-tuning, realtime, responses, …: about 330 modules, half the SDK's import) only
to re-export their names; its sub-packages (`openai.types.responses`, `.chat`) do the same. decode
calls one or two APIs (chat completions, Responses); from Anthropic's, one (Messages), whose SDK's
`anthropic.types` does the same (about 500 modules decode never reads). For a package listed in
`LAZY`, the finder below hands the import system a loader that reads the `__init__.py` (with `ast`)
instead of running it: when every statement is `from .submodule import Name [as Name]` (or `from
__future__ …`), the package gets a module `__getattr__` (PEP 562) that imports the submodule
defining a name the first time it is asked for, and keeps it, so `openai.types.Batch` is the very
object the full import gives. A submodule's name (`openai.types.chat`) imports that submodule. Any
other statement in the file, or any failure reading it, and the package is imported normally
(logged at debug). ADR-0114.
"""

import ast
import importlib.abc
import logging
import sys
from collections.abc import Callable, Sequence
from importlib.machinery import ModuleSpec
from types import ModuleType
from typing import Any

logger = logging.getLogger(__name__)

LAZY: tuple[str, ...] = ("openai.types", "anthropic.types")
"""Package names whose packages (sub-packages included) load their re-exported names on first use."""
FUTURE = "__future__"


def reexports(source: bytes) -> dict[str, str] | None:
    """Each re-exported name -> the submodule (relative to the package, or `FUTURE`) defining it; None when the
    source does anything else, so running it could differ from importing its names one by one."""
    names: dict[str, str] = {}
    for node in ast.parse(source).body:
        if not isinstance(node, ast.ImportFrom) or not node.module:
            return None
        if node.level == 0 and node.module == FUTURE:  # binds `annotations` too
            module = FUTURE
        elif node.level == 1:
            module = node.module
        else:
            return None
        for alias in node.names:
            if alias.name == "*" or alias.asname not in (None, alias.name):
                return None
            names[alias.name] = module  # a later import of a name wins, as when the file runs
    return names


def _imported(name: str) -> ModuleType:
    """Module `name`, imported as an `import` statement does (`-X importtime` lists it, unlike
    `importlib.import_module`'s)."""
    __import__(name)
    return sys.modules[name]


def _attribute_hook(package: ModuleType, names: dict[str, str]) -> Callable[[str], Any]:
    """The package's `__getattr__`: called only for a name not (yet) in its namespace."""

    def __getattr__(name: str) -> Any:
        submodule = names.get(name)
        if submodule is not None:
            value = getattr(_imported(submodule if submodule == FUTURE else f"{package.__name__}.{submodule}"), name)
            setattr(package, name, value)
            return value
        if not name.startswith("__"):
            # A submodule: the full import binds every one some module imported; this binds any.
            try:
                return _imported(f"{package.__name__}.{name}")  # which binds it on the package
            except ModuleNotFoundError as error:
                if error.name != f"{package.__name__}.{name}":
                    raise
        raise AttributeError(f"module {package.__name__!r} has no attribute {name!r}")

    return __getattr__


class _ReexportingLoader(importlib.abc.Loader):
    """The package's own loader, but for its `__init__`: its names are bound when first used."""

    def __init__(self, loader: Any, names: dict[str, str]) -> None:
        self._loader, self._names = loader, names

    def create_module(self, spec: ModuleSpec) -> ModuleType | None:
        return self._loader.create_module(spec)

    def exec_module(self, module: ModuleType) -> None:
        names = self._names
        vars(module).update(__getattr__=_attribute_hook(module, names), __dir__=lambda: sorted({*vars(module), *names}))

    def __getattr__(self, name: str) -> Any:
        # get_source, get_filename…: tracebacks and inspect ask the loader for them.
        return getattr(self._loader, name)


def _lazy_names(spec: ModuleSpec) -> dict[str, str] | None:
    """The package's re-exports, when its `__init__` does nothing else; None to import it normally."""
    get_data = getattr(spec.loader, "get_data", None)  # a source file's loader has it
    if spec.submodule_search_locations is None or spec.origin is None or get_data is None:
        return None
    try:
        names = reexports(get_data(spec.origin))
    except (OSError, SyntaxError, ValueError) as error:
        logger.debug("%s imported whole: its __init__ could not be read (%s)", spec.name, error)
        return None
    if names is None:
        logger.debug("%s imported whole: its __init__ does more than re-export names", spec.name)
    return names


class LazyReexports(importlib.abc.MetaPathFinder):
    """A finder that gives each package under `LAZY` a loader binding its names on first use."""

    def find_spec(
        self, fullname: str, path: Sequence[str] | None, target: ModuleType | None = None
    ) -> ModuleSpec | None:
        if not any(fullname == root or fullname.startswith(f"{root}.") for root in LAZY):
            return None
        for finder in sys.meta_path:
            if finder is self:
                continue
            spec = finder.find_spec(fullname, path, target)
            if spec is None:
                continue
            names = _lazy_names(spec)
            if names is not None:
                spec.loader = _ReexportingLoader(spec.loader, names)
            return spec
        return None
