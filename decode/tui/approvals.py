"""Approvals in the REPL: the Permission Gate says `ask`, the user answers with one key.

While a tool call waits, the transcript shows what it wants to run — the whole command, never
cut: short ones on the "permission needed" line, long or multi-line ones in a panel — and the
lines above the `❯` ask the question with its choices (wrapped, never cut at the edge):

    y               run it this once
    a               run it, and always allow what the choice names, shown whole before the
                    key is pressed: `a = always: Bash(python3 -m pytest:*)` (`gate.rule_choices`,
                    ADR-0085), saved to `.decode/settings.local.json` — the line after says so
    e               (when it differs) run it, and always allow exactly this command
    n               do not run it; the model is told the user said no
    anything else   do not run it, and tell the model this text: "use pnpm here"

`y`, `a`, `e` and `n` answer as soon as they are pressed on an empty input line (no Enter);
any other key starts a sentence, sent with Enter (an uppercase letter too: `Always` types). An
empty line changes nothing (the question stays). A command no rule may ever allow (a hazard:
`$(…)`, `bash -c`) offers no "always", and destructive commands (`rm`, `git push`…) only the
exact one. The turn can be stopped as always. The time shown for a call leaves out the wait.

The question goes through the Decision Channel (`decode/harness/decisions.py`, shown by
`questions.py`), so parallel tool calls ask one at a time. An `edit` or `write` shows its diff
above the question (`diffs.change_preview`): the user sees the change before answering.
Shift+Tab cycles the Permission Mode (default → accept-edits → plan); `decode --permission-mode`
picks the first one.
"""

from __future__ import annotations

import os
from collections.abc import Callable
from pathlib import Path
from typing import TYPE_CHECKING, Any

from decode.harness.decisions import DecisionChannel, Option, Question, Reply

if TYPE_CHECKING:
    from rich.console import RenderableType

    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import Approval, Saved
    from decode.permissions.types import Verdict
    from decode.tui.app import Repl

OPTIONS = (Option("y", "yes"), Option("a", "always"), Option("n", "no"))
INSTEAD = "type what to do instead"
HELP = Question("", OPTIONS, INSTEAD).hint()  # y = yes · a = always · n = no · or type what to do instead
INLINE = 60
"""A call's argument up to this long, on one line, is shown inline; a longer one in a panel."""
RULES_INLINE = 160
"""Rules up to this long, on one line, are named in the hint (`a = always: Bash(python3 -m pytest:*)`);
longer ones are printed whole with the question's detail, and the hint points to them."""
MODE_HELP = {
    "default": "reads run; edits and commands ask",
    "accept-edits": "reads and edits in the project run; commands ask",
    "plan": "reads run; nothing is changed, the model presents a plan",
    "bypass": "everything runs except what a deny rule forbids or an ask rule asks",
}


def parse_answer(text: str) -> Approval | None:
    """The user's line as an answer; None for an empty line (ask again)."""
    reply = Question("", OPTIONS, INSTEAD).parse(text)
    return to_approval(reply) if reply is not None else None


def to_approval(
    reply: Reply, choices: tuple[tuple[str, ...], ...] = (), on_saved: Callable[[Saved], None] | None = None
) -> Approval:
    """A reply to the approval question as the Permission Hook's `Approval` (`choices`: what "always" may save)."""
    from decode.permissions.hook import Answer, Approval

    if reply.choice == "y":
        return Approval(Answer.YES)
    if reply.choice == "a":
        return Approval(Answer.ALWAYS, rules=choices[0] if choices else (), on_saved=on_saved)
    if reply.choice == "e" and choices:
        return Approval(Answer.ALWAYS, rules=choices[-1], on_saved=on_saved)
    if reply.choice == "n":
        return Approval(Answer.NO)
    return Approval(Answer.NO, reply.text)  # their own words: no, and this is what to do instead


def approval_question(tool: str, args: dict[str, Any], verdict: Verdict) -> Question:
    """The question for one call: its whole argument (inline, or in a panel), the reason, the choices."""
    from decode.permissions.hook import Asking

    asking = verdict if isinstance(verdict, Asking) else None
    choices = asking.choices if asking is not None else ()
    about = asking.call_id if asking is not None else ""
    argument = str(next(iter(args.values()), "")) if args else ""
    call = f"{tool}({argument})"
    options = (Option("y", "yes"), *_always_options(choices), Option("n", "no"))
    saves = "" if not choices or _inline(choices[0]) else f"\na = always saves: {_named(choices[0])}"
    if "\n" in argument or len(argument) > INLINE:  # whole, in a panel; the question points to it
        return Question(
            f"allow the {tool} call above?",
            options,
            INSTEAD,
            detail=f"permission needed: {verdict.reason}{saves}",
            body=argument,
            title=tool,
            about=about,
        )
    return Question(
        f"allow {call}?", options, INSTEAD, detail=f"permission needed: {call} — {verdict.reason}{saves}", about=about
    )


def _always_options(choices: tuple[tuple[str, ...], ...]) -> list[Option]:
    """`a` names the exact rules it saves (or points to where they are printed whole); `e` too, when short."""
    if not choices:
        return []  # no rule can cover it: it runs once, or not at all
    first = Option("a", "always", f": {_named(choices[0])}" if _inline(choices[0]) else ": the rules printed above")
    if len(choices) == 1:
        return [first]
    exact = f": {_named(choices[-1])}" if _inline(choices[-1]) else " this command, always"
    return [first, Option("e", "exactly", exact)]


def _named(rules: tuple[str, ...]) -> str:
    """The rules as the user reads them: every character shown, none obeyed (`visible`)."""
    from decode.visible import visible

    return visible(", ".join(rules))


def _inline(rules: tuple[str, ...]) -> bool:
    named = ", ".join(rules)
    return len(named) <= RULES_INLINE and "\n" not in named


def saved_line(saved: Saved, cwd: Path | None = None) -> tuple[str, str]:
    """The line after an "always": which rules, and the file they went to (or why they did not); and its level."""
    rules = ", ".join(saved.rules)
    if saved.path is None:
        return f"could not save {rules} ({saved.error}); it holds until decode exits", "warning"
    cwd = cwd or Path.cwd()
    shown = os.path.relpath(saved.path, cwd) if saved.path.is_relative_to(cwd) else str(saved.path)
    return f"saved {rules} to {shown}", "info"


class Approvals:
    """The REPL's approval prompt (the Permission Hook's `approve`), asked through the Decision Channel.

    `notice` prints the line that says where an "always" saved its rules. With a `workspace` and
    `attach` (`QuestionLine.attach`), an `edit` or `write` shows its diff as its question comes up
    (`diffs.change_preview`), so the user sees the change before answering.
    """

    def __init__(
        self,
        channel: DecisionChannel,
        notice: Callable[[str, str], None] | None = None,
        workspace: Path | None = None,
        attach: Callable[[Question, RenderableType], None] | None = None,
    ) -> None:
        self.channel = channel
        self.notice = notice
        self.workspace = workspace
        self.attach = attach

    async def ask(self, tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
        """Ask whether the call may run and wait for the answer (the `ApproveCallback` of the hook)."""
        from decode.permissions.hook import Asking

        choices = verdict.choices if isinstance(verdict, Asking) else ()
        question = approval_question(tool, args, verdict)
        if self.attach is not None and self.workspace is not None:
            from decode.tui.diffs import change_preview

            if (preview := change_preview(tool, args, self.workspace)) is not None:
                self.attach(question, preview)
        reply = await self.channel.ask(question)
        return to_approval(reply, choices, self._saved)

    def _saved(self, saved: Saved) -> None:
        if self.notice is not None:
            self.notice(*saved_line(saved))


def start_permissions(repl: Repl) -> None:
    """After the warm-up: report broken settings files and show the mode the conversation starts in."""
    from decode.permissions.settings_files import repository_grants
    from decode.tui.settings_trust import ask_settings_trust

    gate = _gate(repl)
    if gate is None:
        return
    for problem in [*gate.problems, *repository_grants(gate.settings)]:  # once
        repl.renderer.notice(f"permissions: {problem}", "warning" if problem.level == "warning" else "info")
    repl.status.permission_mode = gate.mode.value
    ask_settings_trust(repl, gate)  # the repository's grants wait for a yes  # [lesson 09]


def cycle_mode(repl: Repl) -> None:
    """Shift+Tab: default → accept-edits → plan → default (bypass is only chosen at start)."""
    gate = _gate(repl)
    if gate is None or repl.conversation is None:
        repl.renderer.notice("the permission mode can be changed once the agent has started")
        return
    gate.mode = gate.mode.next()
    repl.status.permission_mode = gate.mode.value
    repl.conversation.session.switch_mode(gate.mode.value)  # [lesson 11]
    repl.renderer.notice(f"permission mode: {gate.mode} — {MODE_HELP[gate.mode.value]}")
    repl.questions.invalidate()


def _gate(repl: Repl) -> PermissionGate | None:
    return repl.conversation.gate if repl.conversation is not None else None
