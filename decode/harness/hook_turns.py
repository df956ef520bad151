"""The hooks around a turn: SessionStart and UserPromptSubmit before it, Stop after it, SessionEnd at the end.

    SessionStart       on the conversation's first turn (`source`: startup, resume when it has a
                       history, clear after `/clear`); what it says is context for that first prompt
    UserPromptSubmit   may block the prompt (the user reads why; the model never sees it) or add context
    Stop               when the agent has answered: a block makes it go on, the reason its next prompt
                       (`stop_hook_active` is true then; at most `MAX_CONTINUATIONS` times a turn)
    SessionEnd         when the front end leaves (`session_end`)

The context goes to the model after the prompt in one `<hook-context>` element.
"""

from __future__ import annotations

from collections.abc import AsyncIterator
from typing import TYPE_CHECKING

from decode.hooks.events import HookEvent

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantic_ai.messages import UserContent

    from decode.agent.loop import AgentLoop
    from decode.entities.events import AgentEvent
    from decode.hooks.dispatch import Hooks

MAX_CONTINUATIONS = 5
"""How many times Stop hooks may send the agent back to work in one turn (a hook that always blocks)."""
CONTEXT_TAG = "hook-context"


def with_context(prompt: str, context: list[str]) -> str:
    """`prompt` with what the hooks added after it, in one `<hook-context>` element."""
    if not context:
        return prompt
    joined = "\n\n".join(context)
    return f"{prompt}\n\n<{CONTEXT_TAG}>\n{joined}\n</{CONTEXT_TAG}>"


async def hooked_turn(
    loop: AgentLoop, hooks: Hooks, prompt: str, images: Sequence[UserContent] = ()
) -> AsyncIterator[AgentEvent]:
    """`loop.run_turn(prompt)` with the hooks around it (see the module docstring); `images` (attached
    to the prompt in the REPL) go with the first prompt."""
    from decode.entities.events import Notice, TurnFinished
    from decode.entities.usage import Usage

    context: list[str] = []
    if not hooks.started:
        hooks.started = True
        source = hooks.start_source or ("resume" if loop.history else "startup")
        start = await hooks.fire(HookEvent.SESSION_START, source=source)
        context += start.context
    submitted = await hooks.fire(HookEvent.USER_PROMPT_SUBMIT, prompt=prompt)
    if submitted.blocked or submitted.stopped:
        why = submitted.reason or submitted.stop_reason
        yield Notice(level="warning", message=f"a UserPromptSubmit hook blocked this prompt: {why}")
        yield TurnFinished(output="", usage=Usage())
        return
    text = with_context(prompt, context + submitted.context)
    for continuation in range(MAX_CONTINUATIONS + 1):
        async for event in loop.run_turn([text, *images] if images and not continuation else text):
            yield event
        stop = await hooks.fire(HookEvent.STOP, stop_hook_active=continuation > 0)
        if not stop.blocked or stop.stopped:
            return
        if continuation == MAX_CONTINUATIONS:
            message = f"Stop hooks asked the agent to go on {MAX_CONTINUATIONS} times; it stops here"
            yield Notice(level="warning", message=message)
            return
        yield Notice(message=f"a Stop hook sends the agent back to work: {stop.reason}")
        text = stop.reason


async def session_end(loop: AgentLoop | None, reason: str) -> None:
    """Run the SessionEnd hooks of `loop`'s conversation, if it has any (`reason`: Claude Code's)."""
    if loop is not None and loop.hooks is not None:
        await loop.hooks.fire(HookEvent.SESSION_END, reason=reason)
