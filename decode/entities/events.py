"""The one event stream: everything the agent loop tells the outside world.

The loop yields these; the REPL renders them, `decode run` prints or serialises them, notebooks
display them. Each event has a `kind`, so a list of them round-trips through JSON
(`TypeAdapter(AgentEvent)` reads any of them back).
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from decode.entities.tools import ToolCall, ToolResult
from decode.entities.usage import Usage


class TextDelta(BaseModel):
    """A piece of the answer, as the model streams it."""

    kind: Literal["text"] = "text"
    text: str


class ThinkingDelta(BaseModel):
    """A piece of the model's visible reasoning (shown dimmed, never part of the answer)."""

    kind: Literal["thinking"] = "thinking"
    text: str


class ToolCallStarted(BaseModel):
    """The model called a tool; it is about to run."""

    kind: Literal["tool_call"] = "tool_call"
    call: ToolCall


class ToolCallFinished(BaseModel):
    """A tool finished (or failed in a way the model is told about)."""

    kind: Literal["tool_result"] = "tool_result"
    result: ToolResult


# [lesson 05]
class ToolOutputDelta(BaseModel):
    """A piece of a running tool's output (a long `bash` command's lines), shown as it comes.

    The model sees the tool's result only when the tool finishes; this is for the person watching.
    """

    kind: Literal["tool_output"] = "tool_output"
    call_id: str
    stream: Literal["stdout", "stderr"] = "stdout"
    text: str


# [/lesson 05]
# [lesson 07]
class MessageDelivered(BaseModel):
    """A message the user sent while the turn ran (a steer or a follow-up) reached the model (lesson 07).

    `message_id` is the id the harness got when it handed the message to the running turn.
    """

    kind: Literal["message_delivered"] = "message_delivered"
    message_id: str
    text: str


# [/lesson 07]
class UsageUpdated(BaseModel):
    """One model request completed: its own usage, and the run's total so far."""

    kind: Literal["usage"] = "usage"
    request: Usage
    total: Usage


class Notice(BaseModel):
    """Something the user should know that is not part of the answer (a retry, a warning)."""

    kind: Literal["notice"] = "notice"
    level: Literal["info", "warning", "error"] = "info"
    message: str


class TurnFinished(BaseModel):
    """The turn is over: the final answer and the turn's usage."""

    kind: Literal["turn_finished"] = "turn_finished"
    output: str
    usage: Usage


AgentEvent = Annotated[
    TextDelta
    | ThinkingDelta
    | ToolCallStarted
    | ToolOutputDelta  # [lesson 05]
    | ToolCallFinished
    | MessageDelivered  # [lesson 07]
    | UsageUpdated
    | Notice
    | TurnFinished,
    Field(discriminator="kind"),
]
