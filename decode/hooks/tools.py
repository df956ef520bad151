"""PreToolUse and PostToolUse: the hooks around each tool call.

PreToolUse runs inside the Permission Hook, after the gate's verdict and before anyone is asked
(`pre_tool_use`): a hook's deny refuses the call (the model reads why), its ask makes an allowed
call ask, and its allow answers only the question the mode itself would ask (no rule allows the
call), as an allow rule would: deny rules, ask rules, protected and secret files and unreadable
commands still stand. PostToolUse runs after a call succeeded (`ToolHooks`); what a hook says back
(exit 2's stderr, `decision: "block"`'s reason, `additionalContext`) is added to the result.
Notification (`permission_prompt`) runs when the user is asked about a call (`notify_before`).
"""

import asyncio
import dataclasses
from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability, WrapToolExecuteHandler
from pydantic_ai.messages import ToolCallPart, ToolReturn
from pydantic_ai.tools import ToolDefinition

from decode.hooks.dispatch import Hooks
from decode.hooks.events import HookEvent, claude_name
from decode.permissions.hook import Approval, ApproveCallback
from decode.permissions.types import Decision, Verdict

HOOK_TAG = "hook-feedback"
PERMISSION_PROMPT = "permission_prompt"
_notifying: set[asyncio.Future[Any]] = set()


async def pre_tool_use(hooks: Hooks, tool: str, args: dict[str, Any], call_id: str, verdict: Verdict) -> Verdict:
    """The gate's `verdict` on a call, as the PreToolUse hooks change it (see the module docstring)."""
    if verdict.decision is Decision.DENY:
        return verdict  # a deny stands: the hooks are not asked about a call that cannot run
    outcome = await hooks.fire(
        HookEvent.PRE_TOOL_USE,
        tool_name=claude_name(tool),
        tool_input=hooks.tool_input(tool, args),
        tool_use_id=call_id,
    )
    reason = outcome.reason
    if outcome.decision == "deny" or outcome.stopped:
        why = reason or outcome.stop_reason or "no reason given"
        return Verdict(Decision.DENY, f"a PreToolUse hook refused this call: {why}")
    if outcome.decision == "ask" and verdict.decision is Decision.ALLOW:
        return Verdict(Decision.ASK, f"a PreToolUse hook asks: {reason or 'no reason given'}")
    if outcome.decision == "allow" and verdict.decision is Decision.ASK and verdict.mode_default:
        return dataclasses.replace(verdict, decision=Decision.ALLOW, reason=f"allowed by a PreToolUse hook: {reason}")
    return verdict


@dataclass
class ToolHooks(AbstractCapability[Any]):
    """Runs the PostToolUse hooks after each tool call that succeeded; their feedback joins the result."""

    hooks: Hooks

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

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
        if not self.hooks.selected(HookEvent.POST_TOOL_USE, claude_name(call.tool_name)):
            return result
        response = result.return_value if isinstance(result, ToolReturn) else result
        outcome = await self.hooks.fire(
            HookEvent.POST_TOOL_USE,
            tool_name=claude_name(call.tool_name),
            tool_input=self.hooks.tool_input(call.tool_name, args),
            tool_response=response,
            tool_use_id=call.tool_call_id,
        )
        said = [*outcome.reasons, *outcome.context]
        return with_feedback(result, "\n".join(text for text in said if text)) if said else result


def notify_before(hooks: Hooks, approve: ApproveCallback) -> ApproveCallback:
    """`approve`, with the Notification hooks (`permission_prompt`) started as the question is asked:
    a notifier tells the user decode waits. They run beside the question, never delaying it."""

    async def asking(tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
        if hooks.selected(HookEvent.NOTIFICATION, PERMISSION_PROMPT):
            message = f"decode needs your permission to use {claude_name(tool)}"
            told = hooks.fire(HookEvent.NOTIFICATION, message=message, notification_type=PERMISSION_PROMPT)
            task = asyncio.ensure_future(told)
            _notifying.add(task)  # referenced until done: the event loop keeps only a weak one
            task.add_done_callback(_notifying.discard)
        return await approve(tool, args, verdict)

    return asking


def with_feedback(result: Any, feedback: str) -> Any:
    """`result` with the hooks' `feedback` after it, in one `<hook-feedback>` element."""
    block = f"<{HOOK_TAG}>\n{feedback}\n</{HOOK_TAG}>"
    if isinstance(result, str):
        return f"{result}\n\n{block}"
    if isinstance(result, ToolReturn):
        content = (
            result.content if isinstance(result.content, list) else [] if result.content is None else [result.content]
        )
        result.content = [*content, block]
        return result
    return ToolReturn(return_value=result, content=[block])
