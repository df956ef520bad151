"""A dynamic instruction carries its signature, so pydantic-ai's reading of it before each request is a look-up."""

import inspect
from pathlib import Path

from pydantic_ai import Agent, RunContext
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.agent.factory import environment_instructions
from decode.entities.instructions import dynamic_instruction


def test_the_signature_is_read_once_and_is_the_functions_own() -> None:
    async def note(ctx: RunContext[str]) -> str:
        return f"note: {ctx.deps}"

    signed = dynamic_instruction(note)

    assert signed is note
    assert inspect.signature(note) is note.__signature__
    assert list(inspect.signature(note).parameters) == ["ctx"]
    assert inspect.signature(environment_instructions) is environment_instructions.__signature__


async def test_pydantic_ai_still_calls_it_with_the_run_context(tmp_path: Path) -> None:
    seen: list[str | None] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info.instructions)
        return ModelResponse(parts=[TextPart("ok")])

    @dynamic_instruction
    async def note(ctx: RunContext[str]) -> str:
        return f"note: {ctx.deps}"

    @dynamic_instruction
    def plain() -> str:
        return "no context"

    await Agent(FunctionModel(model), deps_type=str, instructions=[note, plain]).run("go", deps="here")

    assert seen == ["note: here\n\nno context"]
