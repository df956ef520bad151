"""A path the model spells with `\\xNN` escapes, mapped back to the name on disk before anyone judges it.

Tool results spell a file name that is not UTF-8 as `caf\\xe9.txt` (`decode/escaped_bytes.py`);
the model can only send that spelling back. `EscapedNames.before_tool_execute` runs first among
the capabilities: when a tool's path argument (its `path` trait) holds such a spelling and no
file of that literal name exists, the argument becomes the real name. The Permission Gate and
the tool then judge and open the same file: the mapping happens once, never twice.
Decision: docs/adr/0092-names-that-are-not-utf-8-are-spelled-with-x-escapes.md.
"""

from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition

from decode.entities.deps import AgentDeps
from decode.entities.tools import traits_of
from decode.escaped_bytes import unescape_bytes


async def real_name(deps: AgentDeps, raw: str) -> str:
    """`raw`, or the name its `\\xNN` escapes spell when no file is named `raw` literally."""
    if (restored := unescape_bytes(raw)) is None:
        return raw
    executor = deps.executor
    try:
        if await executor.stat(executor.workspace / raw) is not None:
            return raw  # a file really named with a backslash: the literal wins
    except (OSError, ValueError):
        return raw  # the literal cannot even be looked at: the tool will say why
    return restored


@dataclass
class EscapedNames(AbstractCapability[AgentDeps]):
    """Maps an escaped spelling in a tool's path argument to the real name, before the gate sees it."""

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    async def before_tool_execute(
        self, ctx: RunContext[AgentDeps], *, call: ToolCallPart, tool_def: ToolDefinition, args: dict[str, Any]
    ) -> dict[str, Any]:
        name = traits_of(tool_def.metadata).path
        if name is None or not isinstance(raw := args.get(name), str):
            return args
        if (real := await real_name(ctx.deps, raw)) == raw:
            return args
        return {**args, name: real}
