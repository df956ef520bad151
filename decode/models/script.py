"""The scripted model: plays a JSON file of responses in order, like a model that knows its lines.

The file is a JSON list; each item is one model response:

    [
      {"tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
      {"text": "The README says hello."}
    ]

An item may carry `text`, `tool_calls` or both (`ScriptedResponse` has every field). Text streams
in small chunks, as a real model's would. When the list runs out the run fails with a clear error
naming the file. Notebooks, tests and demos use it to run offline; you can use it to "be the
model" yourself.
"""

import asyncio
import json
import re
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel
from pydantic_ai.native_tools import AbstractNativeTool

from decode.models.errors import ModelConfigError


class ScriptedToolCall(BaseModel):
    model_config = ConfigDict(extra="forbid")

    name: str
    args: dict[str, Any] = Field(default_factory=dict)


class ScriptedResponse(BaseModel):
    """One response of the script: some text, some tool calls, or both."""

    model_config = ConfigDict(extra="forbid")

    text: str | None = None
    tool_calls: list[ScriptedToolCall] = Field(default_factory=list)
    delay_s: float = Field(default=0, ge=0, le=3600)
    """Seconds the model "thinks" before it answers (`{"text": "Done.", "delay_s": 5}`): a slow
    model to steer or interrupt in a demo or a test."""

    async def pause(self) -> None:
        """Think for `delay_s` seconds, if the script asks for it."""
        if self.delay_s:
            await asyncio.sleep(self.delay_s)


class ScriptExhaustedError(RuntimeError):
    """The model was asked for more responses than the script holds."""


# [lesson 06]
SCRIPT_LIMIT = 16 << 20
"""Bytes of a script file read at most (more is refused)."""
# [/lesson 06]


def load_script(path: Path) -> list[ScriptedResponse]:
    """Read and check a script file; any problem is a `ModelConfigError` naming the file."""
    # [lesson 06]
    from decode.config.safe_read import UnreadableFile, read_bytes

    try:  # `script:` may name any file (a repository's command's `model`): a FIFO or /dev/zero never waits
        data = read_bytes(path, limit=SCRIPT_LIMIT, what="a script")
        if data is None:
            raise ModelConfigError(f"script model: {path} does not exist")
        raw = json.loads(data.decode("utf-8"))
    except UnreadableFile as exc:
        raise ModelConfigError(f"script model: {path} cannot be read ({exc.message})") from None
    # [before lesson 06]
    # try:
    #     raw = json.loads(path.read_text(encoding="utf-8"))
    # except FileNotFoundError:
    #     raise ModelConfigError(f"script model: {path} does not exist") from None
    # except OSError as exc:
    #     raise ModelConfigError(f"script model: {path} cannot be read ({exc.strerror})") from None
    # [/lesson 06]
    except (UnicodeDecodeError, json.JSONDecodeError) as exc:
        raise ModelConfigError(f"script model: {path} is not valid JSON ({exc})") from None
    if not isinstance(raw, list):
        raise ModelConfigError(f"script model: {path} must hold a JSON list of responses")
    responses = []
    for index, item in enumerate(raw):
        try:
            response = ScriptedResponse.model_validate(item)
        except ValidationError as exc:
            problem = exc.errors()[0]
            field = ".".join(str(part) for part in problem["loc"])
            where = f"{field}: " if field else ""  # empty when the item itself is not an object
            raise ModelConfigError(f"script model: {path} item {index}: {where}{problem['msg']}") from None
        if not response.text and not response.tool_calls:
            raise ModelConfigError(f"script model: {path} item {index} has neither 'text' nor 'tool_calls'")
        responses.append(response)
    return responses


def _chunks(text: str) -> list[str]:
    """Split text into word-sized pieces (whitespace kept) so it streams like a real model."""
    return re.findall(r"\s*\S+\s*|\s+", text) or [text]


class ScriptedModel(FunctionModel):
    """A pydantic-ai model that answers each request with the next response of a script."""

    def __init__(self, responses: list[ScriptedResponse], *, source: str = "<script>") -> None:
        self.responses = responses
        self.source = source
        self.played = 0
        super().__init__(self._respond, stream_function=self._stream, model_name=f"script:{source}")

    @classmethod
    def from_file(cls, path: Path) -> "ScriptedModel":
        return cls(load_script(path), source=str(path))

    @classmethod
    def supported_native_tools(cls) -> frozenset[type[AbstractNativeTool]]:  # [lesson 14]
        """None, as a chat-completions model: deferred tools are then found with `search_tools`
        (a FunctionModel claims every provider-native tool, and hides them behind a native search)."""
        return frozenset()

    def _next(self) -> ScriptedResponse:
        if self.played >= len(self.responses):
            raise ScriptExhaustedError(
                f"script model: {self.source} has no response left "
                f"(it holds {len(self.responses)}, the agent asked for one more)"
            )
        response = self.responses[self.played]
        self.played += 1
        return response

    async def _stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        response = self._next()
        await response.pause()
        if response.text:
            for chunk in _chunks(response.text):
                yield chunk
        for index, call in enumerate(response.tool_calls):
            yield {
                index: DeltaToolCall(
                    name=call.name,
                    json_args=json.dumps(call.args),
                    tool_call_id=f"call_{self.played}_{index}",
                )
            }

    async def _respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        response = self._next()
        await response.pause()
        parts: list[TextPart | ToolCallPart] = []
        if response.text:
            parts.append(TextPart(response.text))
        for index, call in enumerate(response.tool_calls):
            parts.append(ToolCallPart(call.name, call.args, tool_call_id=f"call_{self.played}_{index}"))
        return ModelResponse(parts=parts)
