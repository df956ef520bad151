"""The tool registry: each tool is declared once, with what permissions need to know about it."""

from collections.abc import Callable
from dataclasses import dataclass
from enum import StrEnum
from typing import Any

from pydantic_ai import Tool


class ToolKind(StrEnum):
    """What a tool can do to the world; the permission gate decides by it."""

    READ_ONLY = "read-only"
    FILE_EDIT = "file-edit"
    OTHER = "other"


@dataclass(frozen=True)
class ToolSpec:
    """One tool: its name as the model sees it, the function, its kind and how often it may retry.

    `function` takes a `RunContext[AgentDeps]` first; its docstring and annotated parameters
    become the description and JSON schema the model reads.
    """

    name: str
    function: Callable[..., Any]
    kind: ToolKind
    max_retries: int = 2

    def to_tool(self) -> Tool:
        # The kind travels with the tool's definition, so the Permission Gate's hook can read it.
        return Tool(
            self.function,
            name=self.name,
            takes_ctx=True,
            max_retries=self.max_retries,
            metadata={"kind": self.kind.value},
        )
