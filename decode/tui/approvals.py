"""Approvals in the REPL: the Permission Gate says `ask`, the user answers on the input line.

While a tool call waits, the line above the `❯` asks the question and the next line the user
sends is the answer instead of a prompt:

    y / yes         run it this once
    a / always      run it, and save the narrowest rule that covers it (`.decode/settings.local.json`)
    n / no          do not run it; the model is told the user said no
    anything else   do not run it, and tell the model this text: "no, use pnpm here"

An empty line changes nothing (the question stays). Ctrl-C stops the turn, as always. Parallel
tool calls ask one at a time. Shift+Tab cycles the Permission Mode (default → accept-edits →
plan); `decode --permission-mode` picks the first one.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from typing import TYPE_CHECKING, Any

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import Approval
    from decode.permissions.types import Verdict
    from decode.tui.app import Repl
    from decode.tui.render import Renderer

HELP = "y = yes · a = always · n = no · or type what to do instead"
MODE_HELP = {
    "default": "reads run; edits and commands ask",
    "accept-edits": "reads and edits in the project run; commands ask",
    "plan": "reads run; nothing is changed, the model presents a plan",
    "bypass": "everything runs except what a deny rule forbids",
}


def parse_answer(text: str) -> Approval | None:
    """The user's line as an answer; None for an empty line (ask again)."""
    from decode.permissions.hook import Answer, Approval

    answer = text.strip()
    if not answer:
        return None
    word = answer.lower()
    if word in ("y", "yes"):
        return Approval(Answer.YES)
    if word in ("a", "always"):
        return Approval(Answer.ALWAYS)
    if word in ("n", "no"):
        return Approval(Answer.NO)
    return Approval(Answer.NO, answer)


class Approvals:
    """The REPL's side of `deps.approve`: one question at a time, answered from the input line."""

    def __init__(self, renderer: Renderer, invalidate: Callable[[], None]) -> None:
        self.renderer = renderer
        self.invalidate = invalidate
        self.question = ""  # what the line above the prompt asks, while an answer is awaited
        self._answer: asyncio.Future[Approval] | None = None
        self._one_at_a_time = asyncio.Lock()

    @property
    def pending(self) -> bool:
        return self._answer is not None and not self._answer.done()

    async def ask(self, tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
        """Show the question and wait for the user's answer (the `ApproveCallback` of the hook)."""
        from decode.entities.tools import ToolCall

        async with self._one_at_a_time:
            summary = ToolCall(id="", name=tool, args=args).summary(width=80)
            self.renderer.notice(f"permission needed: {summary} — {verdict.reason}", "warning")
            self.question = f"allow {summary}? ({HELP}) "
            self._answer = asyncio.get_running_loop().create_future()
            self.invalidate()
            try:
                return await self._answer
            finally:
                self._answer = None
                self.question = ""
                self.invalidate()

    def answer(self, line: str) -> bool:
        """Take `line` as the answer if a question is waiting; False when none is (a prompt)."""
        if not self.pending:
            return False
        approval = parse_answer(line)
        if approval is None:
            self.renderer.notice(HELP)
            return True
        assert self._answer is not None
        self._answer.set_result(approval)
        said = f": {approval.reason}" if approval.reason else ""
        self.renderer.notice(f"→ {approval.answer}{said}")
        return True


def start_permissions(repl: Repl, *, explicit_mode: bool) -> None:
    """After the warm-up: report broken settings files, resume a session's mode, show the mode."""
    gate = _gate(repl)
    if gate is None:
        return
    for problem in gate.problems:
        repl.renderer.notice(f"permissions: {problem}", "warning")
    session = repl.loop.session if repl.loop is not None else None
    if session is not None:
        if not explicit_mode and session.mode in MODE_HELP:  # `decode --resume` keeps the session's mode
            from decode.permissions.types import Mode

            gate.mode = Mode.parse(session.mode)
        session.switch_mode(gate.mode.value)
    repl.status.permission_mode = gate.mode.value


def cycle_mode(repl: Repl) -> None:
    """Shift+Tab: default → accept-edits → plan → default (bypass is only chosen at start)."""
    gate = _gate(repl)
    if gate is None:
        repl.renderer.notice("the permission mode can be changed once the agent has started")
        return
    gate.mode = gate.mode.next()
    repl.status.permission_mode = gate.mode.value
    if repl.loop is not None and repl.loop.session is not None:
        repl.loop.session.switch_mode(gate.mode.value)
    repl.renderer.notice(f"permission mode: {gate.mode} — {MODE_HELP[gate.mode.value]}")
    repl.approvals.invalidate()


def _gate(repl: Repl) -> PermissionGate | None:
    return repl.loop.deps.permissions if repl.loop is not None else None
