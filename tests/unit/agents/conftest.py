"""A model that plays parent and children at once, routed by the first prompt it is given.

A subagent inherits its parent's model object, so one FunctionModel answers both; it knows which
conversation asks by the first user prompt of the messages (a child's is its task alone: a fresh
history). Nothing depends on the order in which concurrent children reach the model.
"""

import json
from collections.abc import AsyncIterator, Awaitable, Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, DeltaToolCalls, FunctionModel

from decode.config.settings import Settings

if TYPE_CHECKING:
    from decode.agent.compose import Conversation
    from decode.entities.events import ToolCallFinished, TurnFinished

Answer = str | list[tuple[str, dict[str, Any]]]
"""Text, or tool calls (name, args)."""
Script = Callable[[str, list[ModelMessage]], Awaitable[Answer]]


def first_prompt(messages: list[ModelMessage]) -> str:
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    return part.content
    return ""


def tool_results(messages: list[ModelMessage]) -> list[str]:
    """The contents of every tool result the conversation has received so far."""
    return [
        str(part.content)
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    ]


def routed_model(script: Script) -> FunctionModel:
    """A FunctionModel answering `await script(first prompt, messages)`, streamed or not."""
    counter = iter(range(100_000))

    async def respond(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        answer = await script(first_prompt(messages), messages)
        if isinstance(answer, str):
            return ModelResponse(parts=[TextPart(answer)])
        return ModelResponse(parts=[ToolCallPart(n, a, tool_call_id=f"c{next(counter)}") for n, a in answer])

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str | DeltaToolCalls]:
        answer = await script(first_prompt(messages), messages)
        if isinstance(answer, str):
            yield answer
            return
        for index, (name, args) in enumerate(answer):
            yield {index: DeltaToolCall(name=name, json_args=json.dumps(args), tool_call_id=f"c{next(counter)}")}

    return FunctionModel(respond, stream_function=stream)


@pytest.fixture
def home(tmp_path: Path) -> Path:
    root = tmp_path / "project"
    root.mkdir()
    return root


def conversation(home: Path, settings: Settings, script: Script, **options: Any) -> "Conversation":
    """A parent conversation built by the composition root, answered by `routed_model(script)`:
    its children inherit this very model object."""
    from decode.agent.compose import LoopOptions, build_loop

    built = build_loop(LoopOptions(home, model="test", **options), settings)
    built.loop.model = routed_model(script)
    return built


async def run_turn(built: "Conversation", prompt: str) -> tuple[list["ToolCallFinished"], "TurnFinished"]:
    """One turn of `built`: the tool results it saw, and how it finished."""
    from decode.entities.events import ToolCallFinished, TurnFinished

    results, finished = [], None
    async for event in built.loop.run_turn(prompt):
        if isinstance(event, ToolCallFinished):
            results.append(event)
        elif isinstance(event, TurnFinished):
            finished = event
    assert finished is not None
    return results, finished
