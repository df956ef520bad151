"""The agent's own questions in the REPL: `ask_user`, and a plan to approve (`exit_plan_mode`).

Both go through the one Decision Channel (`decode/harness/decisions.py`), like approvals, so a
question never talks over another one. `ask_user` offers the model's options under keys `1`, `2`,
`3`… (one key answers on an empty line), and any other line is an answer in the user's words:

    which database should the tests use?
    1 = sqlite · 2 = postgres · or type your answer

`exit_plan_mode` prints the plan as Markdown in a panel, then asks:

    carry out this plan?
    a = yes, and accept edits · y = yes, and ask before edits · n = no, keep planning · or type what to change

`a` and `y` switch the Permission Mode through the gate, as Shift+Tab does (the footer and the
Session Log follow); `n` or a line of feedback keeps plan mode, and the model reads the feedback.
Stopping the turn takes the question away, as it takes any.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING

from decode.harness.decisions import Option, Question
from decode.visible import visible

if TYPE_CHECKING:
    from decode.entities.asking import PlanReview
    from decode.permissions.types import Mode
    from decode.tui.app import Repl

ANSWER = "type your answer"
PLAN_OPTIONS = (
    Option("a", "yes, and accept edits"),
    Option("y", "yes, and ask before edits"),
    Option("n", "no, keep planning"),
)
PLAN_MODES = {"a": "accept-edits", "y": "default"}
"""The Permission Mode each approving key switches to."""


def user_question(question: str, options: Sequence[str]) -> Question:
    """The Decision Channel's question for `ask_user`: each option under its number, free text welcome."""
    return Question(question, tuple(Option(str(number), label) for number, label in enumerate(options, 1)), ANSWER)


class AgentQuestions:
    """The REPL's side of `ask_user` and `exit_plan_mode` (the `LoopOptions` callbacks)."""

    def __init__(self, repl: Repl) -> None:
        self.repl = repl

    async def ask_user(self, question: str, options: Sequence[str]) -> str:
        """Ask through the Decision Channel; the chosen option's text, or the user's own words."""
        asked = user_question(question, options)
        reply = await self.repl.questions.channel.ask(asked)
        chosen = next((option for option in asked.options if option.key == reply.choice), None)
        return chosen.label if chosen is not None else reply.text

    async def review_plan(self, plan: str) -> PlanReview | None:
        """Show `plan` and ask to carry it out; approving switches the mode. None when not in plan mode."""
        from rich.markdown import Markdown
        from rich.panel import Panel

        from decode.entities.asking import PlanReview
        from decode.permissions.types import Mode

        conversation = self.repl.conversation
        if conversation is None or conversation.gate.mode is not Mode.PLAN:
            return None
        question = Question("carry out this plan?", PLAN_OPTIONS, "type what to change", about="")
        panel = Panel(Markdown(visible(plan)), title="plan", title_align="left", border_style="cyan")
        self.repl.questions.attach(question, panel)
        reply = await self.repl.questions.channel.ask(question)
        if reply.choice in PLAN_MODES:
            mode = Mode.parse(PLAN_MODES[reply.choice])
            switch_mode(self.repl, mode)
            return PlanReview(approved=True, mode=mode.value)
        return PlanReview(approved=False, feedback="" if reply.choice == "n" else reply.text)


def switch_mode(repl: Repl, mode: Mode) -> None:
    """Put the conversation in `mode` as Shift+Tab does: the gate, the footer, the Session Log, a notice."""
    from decode.tui.approvals import MODE_HELP

    conversation = repl.conversation
    if conversation is None:
        return
    conversation.gate.mode = mode
    repl.status.permission_mode = mode.value
    conversation.session.switch_mode(mode.value)
    repl.renderer.notice(f"permission mode: {mode} — {MODE_HELP[mode.value]}")
    repl.questions.invalidate()
