"""The one event stream: everything the agent loop tells the outside world.

The loop yields these; the REPL renders them, `decode run` prints or serialises them, notebooks
display them. Each event has a `kind`, so a list of them round-trips through JSON
(`TypeAdapter(AgentEvent)` reads any of them back).
"""

from typing import Annotated, Literal

from pydantic import BaseModel, Field

from decode.entities.todos import Todo
from decode.entities.tool_calls import ToolCall, ToolResult
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


class ToolOutputDelta(BaseModel):
    """A piece of a running tool's output (a long `bash` command's lines), shown as it comes.

    The model sees the tool's result only when the tool finishes; this is for the person watching.
    """

    kind: Literal["tool_output"] = "tool_output"
    call_id: str
    stream: Literal["stdout", "stderr"] = "stdout"
    text: str


class MessageDelivered(BaseModel):  # [lesson 10]
    """A message the user sent while the turn ran (a steer or a follow-up) reached the model (lesson 10).

    `message_id` is the id the harness got when it handed the message to the running turn.
    """

    kind: Literal["message_delivered"] = "message_delivered"
    message_id: str
    text: str


class TodosUpdated(BaseModel):  # [lesson 13]
    """The To-do List changed (`todo_write`): the whole list as it is now."""

    kind: Literal["todos"] = "todos"
    todos: list[Todo]


class SubagentProgress(BaseModel):  # [lesson 15]
    """How a subagent is doing, one line's worth: sent when it starts, calls a tool, and ends.

    `call_id` is the parent's `agent` tool call that runs it; `agent_id` the child's own id (its
    transcript's name). It comes beside the turn's stream (`LoopOptions.on_subagent`), as it happens.
    """

    kind: Literal["subagent"] = "subagent"
    call_id: str
    agent_id: str
    agent: str
    description: str = ""
    last_tool: str = ""
    """The child's latest tool call, `grep(def test_)`; '' before its first."""
    tools: int = 0
    """How many tool calls the child has made so far (the REPL folds them under the `agent` call)."""
    requests: int = 0
    state: Literal["running", "finished", "failed"] = "running"

    def line(self) -> str:
        """`explore · find the tests · grep(def test_) · 3 requests`."""
        requests = f"{self.requests} request" + ("" if self.requests == 1 else "s")
        parts = [self.agent, self.description, self.last_tool, requests]
        if self.state != "running":
            parts.append(self.state)
        return " · ".join(part for part in parts if part)


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
    | ToolOutputDelta
    | ToolCallFinished
    | MessageDelivered  # [lesson 10]
    | TodosUpdated  # [lesson 13]
    | SubagentProgress  # [lesson 15]
    | UsageUpdated
    | Notice
    | TurnFinished,
    Field(discriminator="kind"),
]
