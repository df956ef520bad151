"""The Permission Gate in the agent: a pydantic-ai capability consulted before every tool runs.

`PermissionHook.before_tool_execute` runs after the model's arguments are validated and before
the tool function is called. It asks its `PermissionGate`, passing the traits the tool declared
(they travel in the tool definition's metadata):

- `allow`: the tool runs;
- `deny`: the tool does not run; the model gets the reason as the call's result
  (`outcome='denied'` in the history), with a plea not to work around it;
- `ask`: the front end's `approve` callback decides (the REPL asks the user: yes, no,
  always, or no with a reason the model is told). It receives an `Asking` verdict: the call's id
  and the rule choices an "always" may save (`gate.rule_choices`: `Bash(python3 -m pytest:*)`,
  then the exact command; ADR-0085); the hook saves only one of those, and tells the answer's
  `on_saved` where it wrote them. Without one — `decode run` is headless and never
  blocks on a prompt — an `ask` becomes a refusal the model is told about.
"""

import functools
import logging
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.exceptions import SkipToolExecution
from pydantic_ai.messages import ToolCallPart
from pydantic_ai.tools import ToolDefinition, ToolDenied

from decode.entities.tools import ToolTraits, traits_of
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.settings_files import add_allow_rules
from decode.permissions.types import Decision, Layer, RuleSource, Verdict

logger = logging.getLogger(__name__)

DO_NOT_WORK_AROUND = "Do not try to reach the same result another way; tell the user what you wanted to do."


class Answer(StrEnum):
    """The user's answer to an approval prompt."""

    YES = "yes"
    NO = "no"
    ALWAYS = "always"


@dataclass(frozen=True)
class Saved:
    """What an "always" answer saved: the rules, and the file (None when it could not be written)."""

    rules: tuple[str, ...]
    path: Path | None
    error: str = ""


@dataclass(frozen=True)
class Approval:
    """An answer, and for `no` the reason the user gave (told to the model), if any.

    For `always`: `rules` is the choice of `Asking.choices` to save (empty: the first, the most
    useful one), and `on_saved` hears where they were saved.
    """

    answer: Answer
    reason: str = ""
    rules: tuple[str, ...] = ()
    on_saved: Callable[[Saved], None] | None = field(default=None, compare=False, repr=False)


@dataclass(frozen=True)
class Asking(Verdict):
    """An `ask` verdict as the front end receives it: which call waits, and what "always" may save."""

    call_id: str = ""
    choices: tuple[tuple[str, ...], ...] = ()


# The front end's prompt: (tool name, its arguments, the gate's verdict) -> the user's answer.
ApproveCallback = Callable[[str, dict[str, Any], Verdict], Awaitable[Approval]]
# [lesson 12]
Judge = Callable[[dict[str, Any]], Awaitable[Verdict]]
"""The gate's verdict on the same call with other arguments (a hook's `updatedInput`)."""
# (the call, its tool, its arguments, the gate's verdict, the gate) -> verdict and arguments as the hooks change them.
PreToolCheck = Callable[
    [ToolCallPart, ToolDefinition, dict[str, Any], Verdict, Judge], Awaitable[tuple[Verdict, dict[str, Any]]]
]
# [/lesson 12]


def refusal(verdict: Verdict, *, headless: bool = False) -> str:
    """What the model reads instead of the tool's result."""
    if verdict.decision is Decision.DENY and verdict.rule is None:
        return f"Permission denied: {verdict.reason}"  # plan mode: the reason is the guidance
    if verdict.decision is Decision.DENY:
        return f"Permission denied: {verdict.reason} ({verdict.source}). {DO_NOT_WORK_AROUND}"
    if headless and verdict.rule is not None and verdict.rule.action is Decision.ASK:
        where = f" in {verdict.source}" if verdict.source else ""
        return (
            f"Permission needed ({verdict.reason}), and this run is headless: the ask rule {verdict.rule.text}{where} "
            f"asks in every mode, bypass included, so only the user can approve it. {DO_NOT_WORK_AROUND}"
        )
    if headless:
        return (
            f"Permission needed ({verdict.reason}), and this run is headless: nothing that needs the "
            f"user's approval can run. {DO_NOT_WORK_AROUND} They can allow it with a rule in "
            f".decode/settings.local.json or a --permission-mode."
        )
    return f"The user did not allow this ({verdict.reason}). {DO_NOT_WORK_AROUND}"


@dataclass
class PermissionHook(AbstractCapability[Any]):
    """Consults `gate` before each tool call; `approve` asks the user (None: headless, ask = no).

    `harness_home` is where an "always" answer saves its rule (`.decode/settings.local.json`).
    """

    gate: PermissionGate
    harness_home: Path
    approve: ApproveCallback | None = None
    pre_tool: PreToolCheck | None = None  # [lesson 12]
    """The PreToolUse hooks (`decode.hooks.tools.pre_tool_use`): they see the gate's verdict first."""

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    async def before_tool_execute(
        self, ctx: RunContext[Any], *, call: ToolCallPart, tool_def: ToolDefinition, args: dict[str, Any]
    ) -> dict[str, Any]:
        traits = traits_of(tool_def.metadata)
        verdict = await self.gate.check(call.tool_name, args, traits)
        if self.pre_tool is not None:  # the PreToolUse hooks see the verdict first  # [lesson 12]
            judge = functools.partial(self.gate.check, call.tool_name, traits=traits)
            verdict, args = await self.pre_tool(call, tool_def, args, verdict, judge)
        logger.info("%s %s: %s", verdict.decision, call.tool_name, verdict.reason)
        if verdict.decision is Decision.ALLOW:
            return args
        if verdict.decision is Decision.DENY or self.approve is None:
            raise SkipToolExecution(ToolDenied(refusal(verdict, headless=self.approve is None)))
        asked = Asked(self.gate, self.approve, self.harness_home)
        approval = await asked.approval(call.tool_name, args, traits, verdict, call.tool_call_id)
        if approval.answer is Answer.NO:
            said = f" They said: {approval.reason.strip().rstrip('.')}." if approval.reason.strip() else ""
            raise SkipToolExecution(ToolDenied(f"The user said no.{said} {DO_NOT_WORK_AROUND}"))
        return args


@dataclass(frozen=True)
class Asked:
    """The user, asked about a call the gate asks about: by the Permission Hook, and by the REPL
    for a `!command` (Bash Mode), the same question with the same "always"."""

    gate: PermissionGate
    approve: ApproveCallback
    harness_home: Path

    async def approval(
        self, tool: str, args: dict[str, Any], traits: ToolTraits, verdict: Verdict, call_id: str = ""
    ) -> Approval:
        """The user's answer; an "always" saves its rules first (only a choice the gate offered)."""
        choices = tuple(await self.gate.rule_choices(tool, args, traits))
        asking = Asking(verdict.decision, verdict.reason, verdict.rule, call_id=call_id, choices=choices)
        approval = await self.approve(tool, args, asking)
        if approval.answer is Answer.ALWAYS:
            # Only a choice the gate offered is saved: the front end cannot widen it.
            rules = approval.rules if approval.rules in choices else (choices[0] if choices else ())
            saved = remember_rules(self.gate, rules, self.harness_home)
            if approval.on_saved is not None and saved is not None:
                approval.on_saved(saved)
        return approval


def remember_rules(gate: PermissionGate, rules: tuple[str, ...], harness_home: Path) -> Saved | None:
    """Save `rules` to the local settings file, and obey them now; None when there are none.

    A call no rule can cover (a script with a hazard) saves nothing: it ran once. A local settings
    file that cannot be written is logged, and the rules still hold for this session.
    """
    if not rules:
        return None
    source = None
    try:
        path = add_allow_rules(harness_home, list(rules))
        source = RuleSource(Layer.LOCAL, path)
    except (OSError, ValueError) as exc:
        logger.warning("could not save %s: %s", ", ".join(rules), exc)
        gate.add_rules(parse_rule(rule, Decision.ALLOW, None) for rule in rules)
        return Saved(rules, None, str(exc))
    gate.add_rules(parse_rule(rule, Decision.ALLOW, source) for rule in rules)
    return Saved(rules, path)
