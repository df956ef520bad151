"""Bash Mode: a line that starts with `!` runs the rest as a shell command, without the model.

    !git status ──▶ Permission Gate ──▶ the `bash` tool ──▶ its call's line ──▶ the conversation
                    (allow, ask, deny:    (executor, sandbox,    (✓ bash(git status)   (the model
                     as for the agent)     environment, limits)   · exit 0 · 3 lines)   sees it next)

The user typed the command, but it is judged as the agent's `bash` calls are: the same rules and
mode, an approval question when they ask (an "always" saves the same rule), one refusal line when a
deny rule covers it (nothing is kept then). It then runs through the `bash` tool itself, so the sandbox, the environment
without decode's secrets, the timeout and the output limit are the tool's.

The model sees the command on its next turn, as the user's own message (ADR-0127):

    <bash-input>git status</bash-input>
    <bash-output>
    exit code: 0
    stdout: …
    </bash-output>

It is kept at once, in the history and the Session Log, as a request of its own; pydantic-ai sends
it merged with the next prompt (two requests in a row are one user message). A Bash Mode command
runs in the Turn Runner's slot (`Message.run`), so it waits for a running turn and the stop key
stops it as it stops a turn.
"""

from __future__ import annotations

import asyncio
import re
import secrets
from collections.abc import AsyncIterator, Callable
from dataclasses import replace
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelRequest

    from decode.agent.loop import AgentLoop
    from decode.entities.events import AgentEvent, Notice, ToolOutputDelta
    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import ApproveCallback

PREFIX = "!"
HINT = "bash mode: type a command after the ! (`!git status`); it runs without the model, which sees it next turn"
STOPPED = "[stopped by the user before it finished]"
PLAN = "plan mode changes nothing; switch the mode to run it"
_OPEN, _CLOSE = "<bash-input>", "</bash-input>"
_TAG = re.compile(r"<(\s*/?\s*bash-(?:input|output))", re.IGNORECASE)


def bash_command(line: str) -> str | None:
    """The command of a Bash Mode line (`"!git status"` → `"git status"`, `"!"` → `""`); None for any other line."""
    text = line.strip()
    return text[len(PREFIX) :].strip() if text.startswith(PREFIX) else None


def _fenced(text: str) -> str:
    """`text` unable to open or close a tag of ours: an output cannot pass for the user's next words."""
    return _TAG.sub("\u2039\\1", text)  # `‹/bash-output>`: still readable, no longer the tag


def bash_text(command: str, output: str) -> str:
    """The conversation's form of a command the user ran and what it printed (the `bash` tool's result)."""
    return f"{_OPEN}{_fenced(command)}{_CLOSE}\n<bash-output>\n{_fenced(output).strip()}\n</bash-output>"


def shown_as(text: str) -> str | None:
    """A Bash Mode message as the transcript shows it (`!git status`); None for any other text."""
    if not text.startswith(_OPEN) or _CLOSE not in text:
        return None
    return PREFIX + text[len(_OPEN) : text.index(_CLOSE)]


def bash_request(command: str, output: str) -> ModelRequest:
    """The request that keeps a Bash Mode command in the history: one user part (`bash_text`)."""
    from pydantic_ai.messages import ModelRequest, UserPromptPart

    return ModelRequest(parts=[UserPromptPart(bash_text(command, output))])


async def run_bash_mode(
    loop: AgentLoop, command: str, gate: PermissionGate, approve: ApproveCallback | None
) -> AsyncIterator[AgentEvent]:
    """Judge `command`, run it as the `bash` tool, keep it in the conversation; its events, as a turn's.

    `approve` asks the user when the gate asks (None: no one can, and an `ask` is a refusal).
    """
    from decode.entities.events import Notice, ToolCallFinished, ToolCallStarted, TurnFinished
    from decode.entities.tool_calls import ToolCall, ToolResult
    from decode.entities.usage import Usage
    from decode.permissions.decision_order import PLAN_GUIDANCE
    from decode.permissions.hook import Answer, Asked
    from decode.permissions.types import Decision
    from decode.tools.bash import BASH

    args = {"command": command}
    verdict = await gate.check("bash", args, BASH.traits)
    reason = PLAN if verdict.reason == PLAN_GUIDANCE else verdict.reason  # the guidance speaks to the model
    refused = f"not run: {reason}" + (f" ({verdict.source})" if verdict.source else "")
    if verdict.decision is Decision.DENY:  # one line; nothing ran, so nothing joins the conversation
        yield Notice(level="error", message=refused)
        yield TurnFinished(output="", usage=Usage())
        return
    call = ToolCall(id=f"bash-mode-{secrets.token_hex(4)}", name="bash", args=args)
    yield ToolCallStarted(call=call)  # shown running (or waiting for the answer) like the agent's calls
    if verdict.decision is Decision.ASK and approve is not None:
        asked = Asked(gate, approve, loop.deps.harness_home)
        approval = await asked.approval("bash", args, BASH.traits, verdict, call.id)
        refused = "not run: you said no" if approval.answer is Answer.NO else ""
    elif verdict.decision is Decision.ALLOW:
        refused = ""
    if refused:
        yield ToolCallFinished(result=ToolResult(call_id=call.id, name="bash", content=refused, is_error=True))
        yield TurnFinished(output="", usage=Usage())
        return
    started = asyncio.get_running_loop().time()
    output, unsaved = await _run(loop, command, call.id)
    duration = asyncio.get_running_loop().time() - started
    yield ToolCallFinished(result=ToolResult(call_id=call.id, name="bash", content=output, duration_s=duration))
    if unsaved is not None:
        yield unsaved
    yield TurnFinished(output="", usage=Usage())


async def _run(loop: AgentLoop, command: str, call_id: str) -> tuple[str, Notice | None]:
    """Run `command` through the `bash` tool and keep it; stopped, the tail it printed is kept.
    Returns the tool's result, and a warning if the Session Log refused it."""
    from pydantic_ai import RunContext
    from pydantic_ai.models import Model, infer_model
    from pydantic_ai.usage import RunUsage

    from decode.tools.bash import bash

    limit = loop.deps.settings.tool_output_limit
    printed = _Tail(limit, loop.deps.on_tool_output)
    deps = replace(loop.deps, on_tool_output=printed.add)
    model = loop.model if isinstance(loop.model, Model) else infer_model(loop.model)
    ctx = RunContext(deps=deps, model=model, usage=RunUsage(), tool_call_id=call_id, tool_name="bash")
    try:
        output = await bash(ctx, command)
    except asyncio.CancelledError:
        _keep(loop, command, f"{printed.text}\n{STOPPED}")
        raise
    return output, _keep(loop, command, output)


class _Tail:
    """The last `limit` characters a command printed (kept if it is stopped), passed on to the front end."""

    def __init__(self, limit: int, sink: Callable[[ToolOutputDelta], None] | None) -> None:
        self.limit, self.sink, self.text = limit, sink, ""

    def add(self, delta: ToolOutputDelta) -> None:
        self.text = (self.text + delta.text)[-self.limit :]
        if self.sink is not None:
            self.sink(delta)


def _keep(loop: AgentLoop, command: str, output: str) -> Notice | None:
    """Add the command to the history and the Session Log as the user's own request (decode's keys
    redacted); a warning when the log could not be written (the history has it all the same)."""
    from decode.config.redaction import redactor_for
    from decode.entities.events import Notice
    from decode.entities.usage import Usage

    request = bash_request(command, redactor_for(loop.deps.settings).text(output))
    try:
        loop.keep_turn([*loop.history, request], [request], Usage())
    except (OSError, ValueError) as exc:
        return Notice(level="warning", message=f"could not save the session: {exc}")
    return None
