"""The traits a tool declares, and the tool itself as decode declares it (`ToolSpec`)."""

import posixpath
from collections.abc import Callable, Mapping
from dataclasses import dataclass
from enum import StrEnum
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from pydantic_ai import Tool


class ToolKind(StrEnum):
    """What a tool can do to the world, so a call can be judged by the tool's kind.

    `read-only` reads the Workspace; `file-edit` changes files; `side-effect-free` touches nothing
    outside the conversation, like a to-do list or a question to the user; `other` runs commands or
    reaches the network.
    """

    READ_ONLY = "read-only"
    FILE_EDIT = "file-edit"
    SIDE_EFFECT_FREE = "side-effect-free"
    OTHER = "other"


@dataclass(frozen=True)
class ToolTraits:
    """What it takes to judge a call to a tool, declared once beside the tool's function.

    `rules` are the rule names the tool answers to (`("Grep", "Read")`: a `Read` deny covers
    grep too); an empty tuple means no rule can name it. `path`, `url` and `command` name the
    argument that holds a path, a URL or a shell command; `pattern` a glob whose fixed start
    narrows `path`; `searches` says the path is a folder the tool reads everything in.
    """

    kind: ToolKind
    rules: tuple[str, ...] = ()
    path: str | None = None
    url: str | None = None
    command: str | None = None
    pattern: str | None = None
    searches: bool = False
    plan_only: bool = False  # offered only in plan mode (`exit_plan_mode`), hidden elsewhere  # [lesson 13]
    subject: str | None = None  # the argument a rule names exactly: `agent`, in `Agent(explore)`  # [lesson 15]
    network: str | None = None  # the boolean argument asking for the network (`bash`'s)  # [lesson 17]

    def __post_init__(self) -> None:
        if (self.path or self.url or self.command) and not self.rules:
            raise ValueError("a tool that takes a path, URL or command must name the rules that govern it")

    def argument(self, args: Mapping[str, Any]) -> str | None:
        """The argument rules talk about: the command, the path (narrowed by `pattern`) or the URL."""
        if self.command is not None:
            return _text(args.get(self.command))
        if self.url is not None:
            return _text(args.get(self.url))
        if self.path is None:
            return None
        folder = _text(args.get(self.path)) or "."
        if self.pattern is None:
            return folder
        # Only the fixed start of a glob says where it looks: `../../**/*.pem` leaves the tree.
        pattern = _text(args.get(self.pattern)) or ""
        fixed = pattern.split("*", 1)[0].split("?", 1)[0].split("[", 1)[0].rpartition("/")[0]
        return posixpath.normpath(posixpath.join(folder, fixed)) if fixed else folder  # absolute `fixed` wins


UNDECLARED = ToolTraits(ToolKind.OTHER)
"""The traits of a tool that declared none: no rule names it, and the mode treats it as `other`."""


def _text(value: Any) -> str | None:
    return value if isinstance(value, str) else None


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name as the model sees it, the function, its traits and how often it may retry.

    `function` takes a `RunContext[AgentDeps]` first; its docstring and annotated parameters
    become the description and JSON schema the model reads. Declare it beside the function:
    `READ = ToolSpec("read", read, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))`.
    """

    name: str
    function: Callable[..., Any]
    traits: ToolTraits
    max_retries: int = 2

    def to_tool(self) -> "Tool[Any]":
        from pydantic_ai import Tool

        return Tool(
            self.function,
            name=self.name,
            takes_ctx=True,
            max_retries=self.max_retries,
            # The traits travel with the tool's definition: whatever judges a call reads them there.
            metadata=traits_metadata(self),
        )


def traits_metadata(spec: ToolSpec) -> dict[str, Any]:
    """The metadata a tool definition carries so whatever judges a call (the Permission Hook) finds its traits."""
    return {TRAITS_KEY: spec.traits}


def traits_of(metadata: Mapping[str, Any] | None) -> ToolTraits:
    """The traits a tool definition's metadata carries; `UNDECLARED` when it carries none."""
    traits = (metadata or {}).get(TRAITS_KEY)
    return traits if isinstance(traits, ToolTraits) else UNDECLARED


TRAITS_KEY = "decode_traits"
