"""`Hooks`: the configured hooks of one conversation, fired by the parts of decode where events happen.

The Permission Hook fires PreToolUse (`tools.pre_tool_use`), the `ToolHooks` capability
PostToolUse, the harness UserPromptSubmit, SessionStart and Stop around each turn
(`decode.harness.hook_turns`), the front ends SessionEnd, the Agent Loop and `/compact` PreCompact.
A repository's own hooks are left out until the project's settings are trusted (`trusted`), checked
at each event: trusting them in the REPL puts them in force at once.
"""

import logging
from collections.abc import Callable, Mapping
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from decode.hooks.config import HookCommand, HookConfig
from decode.hooks.events import MATCHED_BY, HookEvent, claude_input
from decode.hooks.matching import matches
from decode.hooks.outcome import HookOutcome, read_outcome
from decode.hooks.running import run_hooks

logger = logging.getLogger(__name__)


def _nothing() -> str:
    return ""


def _unchanged(value: Any) -> Any:
    return value


def _yes() -> bool:
    return True


@dataclass
class Hooks:
    """Runs the hooks an event selects, with Claude Code's input, and reads their outcome.

    `env`: the hooks' environment (decode's commands' own, without decode's keys). `redact`
    replaces decode's key values in what goes to a hook and what comes back to the model.
    """

    config: HookConfig
    project: Path
    env: Mapping[str, str]
    tool_root: Path | None = None
    """Where the tools' relative paths start (the Workspace: a `--repo` clone's own); None: `project`."""
    trusted: Callable[[], bool] = _yes
    """Are the project's settings trusted now? Until they are, the repository's hooks do not run."""
    session_id: Callable[[], str] = _nothing
    transcript_path: Callable[[], str] = _nothing
    permission_mode: Callable[[], str] = _nothing
    redact: Callable[[Any], Any] = _unchanged
    started: bool = False
    """SessionStart has run (on the first turn)."""
    start_source: str = ""
    """What the next SessionStart says it follows: `clear` after `/clear` (empty: startup or resume)."""
    waiting_logged: set[HookEvent] = field(default_factory=set)

    def selected(self, event: HookEvent, subject: str | None = None) -> list[HookCommand]:
        """The hooks `event` runs for `subject` (a tool's Claude Code name, a source…), trust permitting."""
        trusted = self.trusted()
        chosen = []
        for hook in self.config.hooks:
            if hook.event is not event:
                continue
            if hook.source.shared and not trusted:  # before its matcher: an untrusted expression never runs
                if event not in self.waiting_logged:
                    self.waiting_logged.add(event)
                    logger.info("the repository's %s hooks wait for the project's settings to be trusted", event)
                continue
            if subject is None or matches(hook.matcher, subject):
                chosen.append(hook)
        return chosen

    def tool_input(self, tool: str, args: Mapping[str, Any]) -> dict[str, Any]:
        """A call's arguments as a hook reads them: Claude Code's shape, paths absolute in the Workspace."""
        return claude_input(tool, args, self.tool_root or self.project)

    def has(self, event: HookEvent) -> bool:
        """Does any hook (trusted or not) follow `event`?"""
        return any(hook.event is event for hook in self.config.hooks)

    async def fire(self, event: HookEvent, **fields: Any) -> HookOutcome:
        """Run the hooks `event` selects with the event's `fields` (its input beyond the common ones)."""
        subject_key = MATCHED_BY.get(event)
        subject = fields.get(subject_key) if subject_key else None
        hooks = self.selected(event, subject if isinstance(subject, str) else None)
        if not hooks:
            return HookOutcome()
        payload = {
            "session_id": self.session_id(),
            "transcript_path": self.transcript_path(),
            "cwd": str(self.project),
            "permission_mode": self.permission_mode(),
            "hook_event_name": str(event),
            **fields,
        }
        runs = await run_hooks(hooks, self.redact(payload), self.project, self.env)
        outcome = read_outcome(event, runs)
        outcome.reasons = [self.redact(reason) for reason in outcome.reasons]
        outcome.context = [self.redact(context) for context in outcome.context]
        return outcome

    async def pre_compact(self, trigger: Literal["manual", "auto"], instructions: str = "") -> str | None:
        """Run the PreCompact hooks (`/compact`'s focus is their `custom_instructions`); why they stop
        the compaction, or None. Only `/compact` stops: an automatic one makes room for the turn, so
        a hook's block is a warning then."""
        outcome = await self.fire(HookEvent.PRE_COMPACT, trigger=trigger, custom_instructions=instructions)
        if not (outcome.blocked or outcome.stopped):
            return None
        why = outcome.reason or outcome.stop_reason or "no reason given"
        if trigger == "auto":
            logger.warning("a PreCompact hook cannot stop an automatic compaction: %s", why)
            return None
        return why
