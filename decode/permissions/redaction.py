"""Secret Redaction in the agent: every tool result, with decode's own keys replaced, before the model gets it.

The Permission Hook decides whether a tool may run; it cannot know what the tool will return. A
file the user let the model read may hold one of decode's keys (`.env`: `GEMINI_API_KEY=AIza…`).
`SecretRedaction.after_tool_execute` runs once the tool has finished and before its result joins
the conversation: each value `decode.config.redaction` knows becomes `[REDACTED:GEMINI_API_KEY]`.
So the key reaches neither the model's provider, nor a Kitaru recording (it records what the model
got), nor the Session Log or an Opik span through the tool's result (those redact again anyway).

A tool that fails (`ModelRetry`) sends the model its message instead: the stores redact that one.
"""

from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
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

    async def after_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: dict[str, Any], result: Any
    ) -> Any:
        if not self.redactor:
            return result
        if isinstance(result, ToolReturn):
            result.return_value = self.redactor.data(result.return_value)
            result.content = self.redactor.data(result.content)
            return result
        return self.redactor.data(result)
