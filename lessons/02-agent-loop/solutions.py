"""Reference solutions of lesson 02's exercises, and for each a plausible mistake its check catches.

`check_NAME` of exercises.py is tried on `NAME` here (it must pass) and on `wrong_NAME` (it must fail).
"""

from collections.abc import Callable

from pydantic_ai import RunContext, Tool
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models import Model, ModelRequestParameters

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits


async def _react(
    model: Model, prompt: str, tools: dict[str, Callable[..., str]], max_requests: int, *, check_after: bool
) -> list[ModelMessage]:
    parameters = ModelRequestParameters(
        function_tools=[Tool(function, name=name, takes_ctx=False).tool_def for name, function in tools.items()]
    )
    messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart(prompt)], instructions="You count words.")]
    requests = 0
    while True:
        if not check_after and requests == max_requests:
            raise UsageLimitExceeded(f"the next request would exceed the ceiling of {max_requests}")
        response = await model.request(messages, None, parameters)
        requests += 1
        messages.append(response)
        calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
        if not calls:
            return messages
        if check_after and requests > max_requests:  # the mistake: counted only after one request too many
            raise UsageLimitExceeded(f"more than {max_requests} requests")
        results = [
            ToolReturnPart(call.tool_name, tools[call.tool_name](**call.args_as_dict()), tool_call_id=call.tool_call_id)
            for call in calls
        ]
        messages.append(ModelRequest(parts=results))


async def react_with_ceiling(
    model: Model, prompt: str, tools: dict[str, Callable[..., str]], max_requests: int
) -> list[ModelMessage]:
    """Like `react()`, but raise `UsageLimitExceeded` rather than make request `max_requests + 1`."""
    return await _react(model, prompt, tools, max_requests, check_after=False)


async def wrong_react_with_ceiling(
    model: Model, prompt: str, tools: dict[str, Callable[..., str]], max_requests: int
) -> list[ModelMessage]:
    """The off-by-one: it notices the ceiling only after making one request too many."""
    return await _react(model, prompt, tools, max_requests, check_after=True)


def count_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a file of the workspace."""
    return len((ctx.deps.workspace / path).read_text().splitlines())


def count_lines_by_words(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a file of the workspace (the mistake: it counts words)."""
    return len((ctx.deps.workspace / path).read_text().split())


line_count_tool = ToolSpec("count_lines", count_lines, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))
wrong_line_count_tool = ToolSpec(
    "count_lines", count_lines_by_words, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path")
)
