"""What the hooks of one event said, read as Claude Code reads it.

    exit 0      done; stdout is context for UserPromptSubmit and SessionStart, else only logged,
                unless it is a JSON object (below)
    exit 2      blocks: the tool call (stderr to the model), the prompt (stderr to the user), the
                stop (stderr to the model, which goes on), `/compact` (stderr to the user);
                PostToolUse's stderr goes to the model
    other       a hook that failed: one warning line, and the work goes on
    timed out   the same, killed with all it started

JSON on stdout (exit 0): `continue: false` (+ `stopReason`) stops; `systemMessage` is a warning for
the user; `decision: "block"` + `reason`; `hookSpecificOutput.permissionDecision` allow | deny | ask
(+ `permissionDecisionReason`, and `updatedInput`: the arguments to run with, PreToolUse);
`hookSpecificOutput.additionalContext` for the model.
"""

import json
import logging
from collections.abc import Sequence
from dataclasses import dataclass, field
from typing import Any, Literal

from decode.hooks.events import HookEvent
from decode.hooks.running import HookRun

logger = logging.getLogger(__name__)

PermissionDecision = Literal["allow", "deny", "ask"]
BLOCKS = 2
_CONTEXT_FROM_STDOUT = (HookEvent.USER_PROMPT_SUBMIT, HookEvent.SESSION_START)
_ORDER: tuple[PermissionDecision, ...] = ("deny", "ask", "allow")
_LEGACY: dict[str, PermissionDecision] = {"approve": "allow", "block": "deny"}


@dataclass
class HookOutcome:
    """The hooks' joint answer: deny beats ask beats allow, any block blocks, every context is kept."""

    blocked: bool = False
    reasons: list[str] = field(default_factory=list)
    """Why it is blocked: for the model (tool calls, Stop) or the user (a prompt)."""
    decision: PermissionDecision | None = None
    """PreToolUse's permission decision, if a hook gave one."""
    context: list[str] = field(default_factory=list)
    """Text the model gets: `additionalContext`, PostToolUse feedback, a prompt's stdout."""
    stopped: bool = False
    stop_reason: str = ""
    warnings: list[str] = field(default_factory=list)
    """What the user is told: a hook that failed or timed out, a `systemMessage`."""
    updated_input: dict[str, Any] | None = None
    """PreToolUse's `updatedInput`: arguments the call runs with instead (the last hook's that gave one)."""

    @property
    def reason(self) -> str:
        return "\n".join(reason for reason in self.reasons if reason)

    def decide(self, decision: PermissionDecision, reason: str) -> None:
        if self.decision is None or _ORDER.index(decision) < _ORDER.index(self.decision):
            self.decision = decision
        if decision == "deny":
            self.blocked = True
        self.reasons.append(reason)


def read_outcome(event: HookEvent, runs: Sequence[HookRun]) -> HookOutcome:
    """The joint outcome of `runs`, the hooks of `event` (see the module docstring)."""
    outcome = HookOutcome()
    for run in runs:
        _read_run(event, run, outcome)
    for warning in outcome.warnings:
        logger.warning("%s", warning)
    return outcome


def _read_run(event: HookEvent, run: HookRun, outcome: HookOutcome) -> None:
    name = f"{event} hook {run.hook.command!r} ({run.hook.where})"
    if run.timed_out:
        outcome.warnings.append(f"{name} ran past its {run.hook.timeout_s:.0f}s and was stopped")
    elif run.exit_code == BLOCKS:
        _blocked(event, run.stderr.strip() or f"blocked by {name}", outcome)
    elif run.exit_code != 0:
        said = f": {_first_line(run.stderr)}" if run.stderr.strip() else ""
        outcome.warnings.append(f"{name} failed with exit code {run.exit_code}{said}")
    elif (data := _json_object(run.stdout)) is not None:
        _read_json(event, data, outcome, name)
    elif run.stdout.strip():
        if event in _CONTEXT_FROM_STDOUT:
            outcome.context.append(run.stdout.strip())
        else:
            logger.info("%s said: %s", name, run.stdout.strip())


def _blocked(event: HookEvent, reason: str, outcome: HookOutcome) -> None:
    if event is HookEvent.PRE_TOOL_USE:
        outcome.decide("deny", reason)
    elif event is HookEvent.POST_TOOL_USE:
        outcome.context.append(reason)  # the tool ran: the model is told what the hook objects to
    elif event in (HookEvent.USER_PROMPT_SUBMIT, HookEvent.STOP, HookEvent.SUBAGENT_STOP, HookEvent.PRE_COMPACT):
        outcome.blocked = True
        outcome.reasons.append(reason)
    else:  # nothing to block: the user sees it
        outcome.warnings.append(reason)


def _read_json(event: HookEvent, data: dict[str, Any], outcome: HookOutcome, name: str) -> None:
    if data.get("continue") is False:
        outcome.stopped = True
        outcome.stop_reason = _text(data.get("stopReason")) or f"stopped by {name}"
    if message := _text(data.get("systemMessage")):
        outcome.warnings.append(message)
    specific = data.get("hookSpecificOutput")
    specific = specific if isinstance(specific, dict) else {}
    if context := _text(specific.get("additionalContext")):
        outcome.context.append(context)
    decision, reason = data.get("decision"), _text(data.get("reason"))
    if event is HookEvent.PRE_TOOL_USE:
        chosen = specific.get("permissionDecision")
        if isinstance(updated := specific.get("updatedInput"), dict):
            outcome.updated_input = updated
        if chosen in _ORDER:
            outcome.decide(chosen, _text(specific.get("permissionDecisionReason")) or reason)
        elif isinstance(decision, str) and decision in _LEGACY:
            outcome.decide(_LEGACY[decision], reason)
    elif decision == "block":
        _blocked(event, reason or f"blocked by {name}", outcome)


def _json_object(stdout: str) -> dict[str, Any] | None:
    text = stdout.strip()
    if not text.startswith("{"):
        return None
    try:
        data = json.loads(text)
    except ValueError:
        return None
    return data if isinstance(data, dict) else None


def _text(value: object) -> str:
    return value.strip() if isinstance(value, str) else ""


def _first_line(text: str) -> str:
    lines = text.strip().splitlines()
    return lines[0][:300] if lines else ""
