"""Secret Redaction in the agent: every tool result, with decode's own keys replaced, before the model gets it.

The Permission Hook decides whether a tool may run; it cannot know what the tool will return. A
file the user let the model read may hold one of decode's keys (`.env`: `GEMINI_API_KEY=AIza…`).
`SecretRedaction.wrap_tool_execute` takes the result as the tool returns it, before it joins the
conversation: each value `decode.config.redaction` knows becomes `[REDACTED:GEMINI_API_KEY]`.
So the key reaches neither the model's provider, nor a Kitaru recording (Kitaru's capability sits
outermost and records what this wrap returns), nor the Session Log or an Opik span through the
tool's result (those redact again anyway).

A tool that fails (`ModelRetry`) sends the model its message instead: the stores redact that one.
"""

from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, WrapToolExecuteHandler
from pydantic_ai.messages import ToolCallPart, ToolReturn
from pydantic_ai.tools import ToolDefinition

from decode.config.redaction import Redactor


@dataclass
class SecretRedaction(AbstractCapability[Any]):
    """Replaces decode's key values in every tool result (text, nested data, a `ToolReturn`'s parts)."""

    redactor: Redactor

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        handler: WrapToolExecuteHandler,
    ) -> Any:
        # Wrapping, not `after_tool_execute`: an outer capability's handler (Kitaru's recording, the
        # outermost) includes this wrap, but not the other capabilities' after-hooks.
        return self.redact(await handler(args))

    def redact(self, result: Any) -> Any:
        """`result` with decode's keys replaced: text, nested data, a `ToolReturn`'s value and content."""
        if not self.redactor:
            return result
        if isinstance(result, ToolReturn):
            result.return_value = self.redactor.data(result.return_value)
            result.content = self.redactor.data(result.content)
            return result
        return self.redactor.data(result)
