"""Abort: what an interrupted turn leaves in the conversation.

When the user stops a turn (Esc, Ctrl-C), pydantic-ai tears the run down — the model stream is
closed, running tools are cancelled (`bash` kills its whole process group) — and hands back
everything the run had produced so far (`RunCancelled.all_messages()`). That history can end in a
state no provider accepts: a model response asked for tools, and some of them never answered.
A tool call without its result is an *orphan*, and the next request would be rejected.

`close_interrupted_turn()` makes the partial turn valid and keeps it, so the model knows what
happened: the user's prompt, what the model had said, the tool calls with the results that came
back, a synthetic "interrupted by the user" result for every call that did not, and a short note
from the user that they stopped the turn.
"""

from collections.abc import Sequence
from dataclasses import replace

from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelRequestPart,
    ModelResponse,
    RetryPromptPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)

INTERRUPTED_RESULT = "Interrupted by the user: this tool call was stopped before it finished; its result is unknown."
INTERRUPTED_NOTE = "[The user interrupted this turn.]"


def interrupted_result(call: ToolCallPart) -> ToolReturnPart:
    """The synthetic result of a tool call the abort cut short."""
    return ToolReturnPart(
        tool_name=call.tool_name, content=INTERRUPTED_RESULT, tool_call_id=call.tool_call_id, outcome="interrupted"
    )


def orphan_calls(messages: Sequence[ModelMessage]) -> list[ToolCallPart]:
    """Tool calls of the last model response that no later request answers."""
    for index in range(len(messages) - 1, -1, -1):
        response = messages[index]
        if isinstance(response, ModelResponse):
            answered = {
                part.tool_call_id
                for request in messages[index + 1 :]
                if isinstance(request, ModelRequest)
                for part in request.parts
                if isinstance(part, ToolReturnPart | RetryPromptPart)
            }
            return [call for call in response.tool_calls if call.tool_call_id not in answered]
    return []


def close_interrupted_turn(messages: Sequence[ModelMessage], note: str = INTERRUPTED_NOTE) -> list[ModelMessage]:
    """The messages of an interrupted turn, made valid for the next request.

    The results that came back before the abort are kept; every orphan call gets
    `interrupted_result()`; `note` closes the turn as a user message, so the history ends with a
    request and the next prompt follows naturally.
    """
    kept = list(messages)
    finished: list[ModelRequestPart] = []
    last = kept[-1] if kept else None
    if isinstance(last, ModelRequest) and last.state == "interrupted":
        # The request pydantic-ai was assembling when the abort came: the results that did come back.
        kept.pop()
        finished = list(last.parts)
    synthetic = [interrupted_result(call) for call in orphan_calls([*kept, ModelRequest(parts=finished)])]
    closing: list[ModelRequestPart] = [*finished, *synthetic, UserPromptPart(note)]
    if kept and isinstance(kept[-1], ModelRequest):  # stopped before the model answered: one request
        kept[-1] = replace(kept[-1], parts=[*kept[-1].parts, *closing])
    else:
        kept.append(ModelRequest(parts=closing))
    return kept
