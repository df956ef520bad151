"""PreToolUse and PostToolUse: the hooks around each tool call.

PreToolUse runs inside the Permission Hook, after the gate's verdict and before anyone is asked
(`pre_tool_use`): a hook's deny refuses the call (the model reads why), its ask makes an allowed
call ask, and its allow answers only the question the mode itself would ask (no rule allows the
call), as an allow rule would: deny rules, ask rules, protected and secret files and unreadable
commands still stand. Its `updatedInput` replaces the fields it names, and the gate judges the call
again as it will run (a hook cannot launder a denied path); the call's line and the history show
the arguments that ran. PostToolUse runs after a call succeeded (`ToolHooks`); what a hook says back
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
from decode.hooks.events import HookEvent, claude_name, from_claude_input
from decode.permissions.hook import Approval, ApproveCallback, Judge
from decode.permissions.types import Decision, Verdict

HOOK_TAG = "hook-feedback"
PERMISSION_PROMPT = "permission_prompt"
_notifying: set[asyncio.Future[Any]] = set()


async def pre_tool_use(
    hooks: Hooks, call: ToolCallPart, tool_def: ToolDefinition, args: dict[str, Any], verdict: Verdict, judge: Judge
) -> tuple[Verdict, dict[str, Any]]:
    """The gate's `verdict` on a call, as the PreToolUse hooks change it, and the arguments it runs
    with (a hook's `updatedInput`, judged again by `judge`, the gate); see the module docstring."""
    if verdict.decision is Decision.DENY:
        return verdict, args  # a deny stands: the hooks are not asked about a call that cannot run
    tool = call.tool_name
    outcome = await hooks.fire(
        HookEvent.PRE_TOOL_USE,
        tool_name=claude_name(tool),
        tool_input=hooks.tool_input(tool, args),
        tool_use_id=call.tool_call_id,
    )
    reason = outcome.reason
    if outcome.decision == "deny" or outcome.stopped:
        why = reason or outcome.stop_reason or "no reason given"
        return Verdict(Decision.DENY, f"a PreToolUse hook refused this call: {why}"), args
    if outcome.updated_input is not None:
        updated = from_claude_input(tool, outcome.updated_input, args, hooks.tool_root or hooks.project)
        if updated != args:
            if problem := unfit(updated, tool_def.parameters_json_schema):
                return Verdict(Decision.DENY, f"a PreToolUse hook's updatedInput does not fit {tool}: {problem}"), args
            changed = {name: value for name, value in updated.items() if args.get(name) != value}
            call.args = {**call.args_as_dict(), **changed}  # the history and the call's line show what ran
            args, verdict = updated, await judge(updated)  # the call as it will run: no laundered path
            if verdict.decision is Decision.DENY:
                return dataclasses.replace(verdict, reason=f"{verdict.reason} (as a PreToolUse hook rewrote it)"), args
    if outcome.decision == "ask" and verdict.decision is Decision.ALLOW:
        return Verdict(Decision.ASK, f"a PreToolUse hook asks: {reason or 'no reason given'}"), args
    if outcome.decision == "allow" and verdict.decision is Decision.ASK and verdict.mode_default:
        allowed = dataclasses.replace(
            verdict, decision=Decision.ALLOW, reason=f"allowed by a PreToolUse hook: {reason}"
        )
        return allowed, args
    return verdict, args


_JSON_TYPES: dict[str, tuple[type, ...]] = {
    "string": (str,),
    "integer": (int,),
    "number": (int, float),
    "boolean": (bool,),
    "array": (list,),
    "object": (dict,),
}


def unfit(args: dict[str, Any], schema: dict[str, Any]) -> str:
    """Why `args` cannot be the tool's arguments by its JSON schema ('' when they can): an unknown
    or missing field, a value of another JSON type. The tool itself checks the rest."""
    properties = schema.get("properties", {})
    if unknown := [name for name in args if name not in properties]:
        return f"it takes no {', '.join(map(repr, unknown))}"
    if missing := [name for name in schema.get("required", []) if name not in args]:
        return f"{', '.join(map(repr, missing))} missing"
    for name, value in args.items():
        kind = properties[name].get("type") if isinstance(properties[name], dict) else None
        allowed = _JSON_TYPES.get(kind, (object,)) if isinstance(kind, str) else (object,)
        if not isinstance(value, allowed) or (isinstance(value, bool) and bool not in allowed):
            return f"{name!r} should be a {kind}"
    return ""


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
