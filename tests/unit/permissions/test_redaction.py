"""Secret Redaction in a real pydantic-ai run: a tool result holding decode's key reaches the model as a marker."""

import json
from collections.abc import AsyncIterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from pydantic import SecretStr
from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, CapabilityOrdering, WrapToolExecuteHandler
from pydantic_ai.messages import (
    ModelMessage,
    ModelMessagesTypeAdapter,
    ModelRequest,
    ToolCallPart,
    ToolReturn,
    ToolReturnPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel
from pydantic_ai.tools import ToolDefinition

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.redaction import redactor_for
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolCallFinished
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.permissions.redaction import SecretRedaction
from decode.processes.local import LocalExecutor
from decode.tools.read import READ

KEY = "sk-or-v1-decode-test-0123456789abcdef"
MARKER = "[REDACTED:OPENROUTER_API_KEY]"


def calling(name: str, args: dict[str, str], seen: list[str]) -> FunctionModel:
    """A model that calls `name(args)` once and records every tool result it is sent."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
        results = [
            part.model_response_str()
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        if not results:
            yield {0: DeltaToolCall(name=name, json_args=json.dumps(args), tool_call_id="c1")}
        else:
            seen.extend(results)
            seen.append(ModelMessagesTypeAdapter.dump_json(messages).decode())  # all it was sent
            yield "done"

    return FunctionModel(stream_function=stream)


async def turn(project: Path, model: FunctionModel, tools: list[ToolSpec]) -> list[ToolCallFinished]:
    settings = Settings(_env_file=None, openrouter_api_key=SecretStr(KEY))  # type: ignore[call-arg]
    agent = build_agent(model, tools=tools, capabilities=[SecretRedaction(redactor_for(settings))])
    deps = AgentDeps(LocalExecutor(project), settings, harness_home=project)
    events = [event async for event in AgentLoop(agent, deps).run_turn("go")]
    return [event for event in events if isinstance(event, ToolCallFinished)]


async def test_a_file_holding_the_key_reaches_the_model_as_a_marker(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"OPENROUTER_API_KEY={KEY}\nDEBUG=1\n")
    seen: list[str] = []
    finished = await turn(tmp_path, calling("read", {"path": ".env"}, seen), [READ])
    assert len(seen) == 2
    assert KEY not in seen[1]
    assert f"OPENROUTER_API_KEY={MARKER}" in seen[0]
    assert "DEBUG=1" in seen[0]
    assert MARKER in finished[0].result.content  # what the front ends and the tracing seam see


async def test_structured_results_and_tool_returns_are_redacted_too(tmp_path: Path) -> None:
    def lookup(ctx: RunContext[AgentDeps]) -> dict[str, list[str]]:
        """Return the settings as data."""
        return {"keys": [KEY, "plain"]}

    def wrapped(ctx: RunContext[AgentDeps]) -> ToolReturn:
        """Return the key in a ToolReturn."""
        return ToolReturn(return_value=f"key: {KEY}", content=[f"also {KEY}"])

    for name, function in (("lookup", lookup), ("wrapped", wrapped)):
        seen: list[str] = []
        await turn(tmp_path, calling(name, {}, seen), [ToolSpec(name, function, ToolTraits(ToolKind.READ_ONLY))])
        assert seen
        assert KEY not in "".join(seen)
        assert MARKER in "".join(seen)


@dataclass
class Recorder(AbstractCapability[Any]):
    """Records each tool result from the outermost position, where Kitaru's recording capability sits."""

    recorded: list[Any] = field(default_factory=list)

    def get_ordering(self) -> CapabilityOrdering:
        return CapabilityOrdering(position="outermost")

    async def wrap_tool_execute(
        self,
        ctx: RunContext[Any],
        *,
        call: ToolCallPart,
        tool_def: ToolDefinition,
        args: dict[str, Any],
        handler: WrapToolExecuteHandler,
    ) -> Any:
        result = await handler(args)
        self.recorded.append(result)
        return result


async def test_a_recording_capability_outside_records_the_marker(tmp_path: Path) -> None:
    (tmp_path / ".env").write_text(f"OPENROUTER_API_KEY={KEY}\n")
    settings = Settings(_env_file=None, openrouter_api_key=SecretStr(KEY))  # type: ignore[call-arg]
    recorder = Recorder()
    model = calling("read", {"path": ".env"}, [])
    agent = build_agent(model, tools=[READ], capabilities=[recorder, SecretRedaction(redactor_for(settings))])
    deps = AgentDeps(LocalExecutor(tmp_path), settings, harness_home=tmp_path)
    [event async for event in AgentLoop(agent, deps).run_turn("go")]
    assert len(recorder.recorded) == 1
    assert KEY not in str(recorder.recorded[0])
    assert MARKER in str(recorder.recorded[0])
