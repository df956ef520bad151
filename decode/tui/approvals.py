"""Approvals in the REPL: the Permission Gate says `ask`, the user answers on the input line.

While a tool call waits, the line above the `❯` asks the question and the next line the user
sends is the answer instead of a prompt:

    y / yes         run it this once
    a / always      run it, and save the narrowest rule that covers it (`.decode/settings.local.json`)
    n / no          do not run it; the model is told the user said no
    anything else   do not run it, and tell the model this text: "no, use pnpm here"

An empty line changes nothing (the question stays). The turn can be stopped as always.
The question goes through the Decision Channel (`decode/harness/decisions.py`, shown by
`questions.py`), so parallel tool calls ask one at a time. Shift+Tab cycles the Permission Mode
(default → accept-edits → plan); `decode --permission-mode` picks the first one.
"""

from __future__ import annotations

from typing import TYPE_CHECKING, Any

from decode.harness.decisions import DecisionChannel, Option, Question, Reply

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import Approval
    from decode.permissions.types import Verdict
    from decode.tui.app import Repl

OPTIONS = (Option("y", "yes"), Option("a", "always"), Option("n", "no"))
INSTEAD = "type what to do instead"
HELP = Question("", OPTIONS, INSTEAD).hint()  # y = yes · a = always · n = no · or type what to do instead
MODE_HELP = {
    "default": "reads run; edits and commands ask",
    "accept-edits": "reads and edits in the project run; commands ask",
    "plan": "reads run; nothing is changed, the model presents a plan",
    "bypass": "everything runs except what a deny rule forbids",
}


def parse_answer(text: str) -> Approval | None:
    """The user's line as an answer; None for an empty line (ask again)."""
    reply = Question("", OPTIONS, INSTEAD).parse(text)
    return to_approval(reply) if reply is not None else None


def to_approval(reply: Reply) -> Approval:
    """A reply to the approval question as the Permission Hook's `Approval`."""
    from decode.permissions.hook import Answer, Approval

    if reply.choice == "y":
        return Approval(Answer.YES)
    if reply.choice == "a":
        return Approval(Answer.ALWAYS)
    if reply.choice == "n":
        return Approval(Answer.NO)
    return Approval(Answer.NO, reply.text)  # their own words: no, and this is what to do instead


class Approvals:
    """The REPL's approval prompt (the Permission Hook's `approve`), asked through the Decision Channel."""

    def __init__(self, channel: DecisionChannel) -> None:
        self.channel = channel

    async def ask(self, tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
        """Ask whether the call may run and wait for the answer (the `ApproveCallback` of the hook)."""
        from decode.entities.tools import ToolCall

        summary = ToolCall(id="", name=tool, args=args).summary(width=80)
        question = Question(
            f"allow {summary}?", OPTIONS, INSTEAD, detail=f"permission needed: {summary} — {verdict.reason}"
        )
        return to_approval(await self.channel.ask(question))


def start_permissions(repl: Repl) -> None:
    """After the warm-up: report broken settings files and show the mode the conversation starts in."""
    from decode.permissions.settings_files import repository_grants

    gate = _gate(repl)
    if gate is None:
        return
    for problem in [*gate.problems, *repository_grants(gate.rules, gate.mode, gate.mode_source)]:  # once
        repl.renderer.notice(f"permissions: {problem}", "warning" if problem.level == "warning" else "info")
    repl.status.permission_mode = gate.mode.value


def cycle_mode(repl: Repl) -> None:
    """Shift+Tab: default → accept-edits → plan → default (bypass is only chosen at start)."""
    gate = _gate(repl)
    if gate is None or repl.conversation is None:
        repl.renderer.notice("the permission mode can be changed once the agent has started")
        return
    gate.mode = gate.mode.next()
    repl.status.permission_mode = gate.mode.value
    repl.conversation.session.switch_mode(gate.mode.value)  # [lesson 08]
    repl.renderer.notice(f"permission mode: {gate.mode} — {MODE_HELP[gate.mode.value]}")
    repl.questions.invalidate()


def _gate(repl: Repl) -> PermissionGate | None:
    return repl.conversation.gate if repl.conversation is not None else None
