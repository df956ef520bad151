"""Reference solutions of lesson 10's exercises, and a plausible mistake for each that its check rejects."""

from pydantic_ai.exceptions import UserError
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart, UserPromptPart

INTERRUPTED = "Interrupted by the user: this call was stopped before it finished."


def steer(run, text: str, waiting: list[str]) -> str | None:
    """Into the running turn, before the model's next request; if the run has ended, the next turn."""
    try:
        return run.enqueue(text, priority="asap")
    except UserError:  # the run has closed its queue: the message must not be lost
        waiting.append(text)
        return None


def wrong_steer(run, text: str, waiting: list[str]) -> str | None:
    """Forgets that a run ends: a message sent just after it is lost in an exception."""
    return run.enqueue(text, priority="asap")


def close_turn(messages: list[ModelMessage]) -> list[ModelMessage]:
    """Every tool call of the last response answered once; then a note from the user."""
    kept = list(messages)
    answered = {
        part.tool_call_id
        for message in kept
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, ToolReturnPart)
    }
    response = next(message for message in reversed(kept) if isinstance(message, ModelResponse))
    synthetic = [
        ToolReturnPart(call.tool_name, INTERRUPTED, tool_call_id=call.tool_call_id)
        for call in response.tool_calls
        if call.tool_call_id not in answered
    ]
    return [*kept, ModelRequest(parts=[*synthetic, UserPromptPart("[The user interrupted this turn.]")])]


def wrong_close_turn(messages: list[ModelMessage]) -> list[ModelMessage]:
    """Marks every call interrupted, even the one whose result came back: that call now has two results."""
    response = next(message for message in reversed(messages) if isinstance(message, ModelResponse))
    synthetic = [
        ToolReturnPart(call.tool_name, INTERRUPTED, tool_call_id=call.tool_call_id) for call in response.tool_calls
    ]
    return [*messages, ModelRequest(parts=[*synthetic, UserPromptPart("[The user interrupted this turn.]")])]
