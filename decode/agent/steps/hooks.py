"""The hooks step (lesson 12): the settings files' hooks, around every tool call and turn.

`load_hooks` reads the hooks of every settings file (`decode.hooks.config`); when there are any,
the Permission Hook asks the PreToolUse hooks (`pre_tool_use`), the `ToolHooks` capability runs
the PostToolUse ones, and the loop carries them (`AgentLoop.hooks`) for the harness to run around
each turn. A repository's own hooks wait for Project Trust, checked at each event.
"""

import functools
import logging
from pathlib import Path

from decode.agent.build import Build
from decode.config.redaction import redactor_for
from decode.hooks.config import load_hooks
from decode.hooks.dispatch import Hooks
from decode.hooks.tools import ToolHooks, notify_before, pre_tool_use
from decode.permissions.hook import PermissionHook
from decode.processes.environment import inherited_environment

logger = logging.getLogger(__name__)


def hooks(b: Build) -> None:
    """Read the hooks; with any, wire them into the Permission Hook and the tool calls."""
    config = load_hooks(b.options.home, command_line=b.options.settings_layer)
    # [lesson 15]
    if b.options.parent is None:  # a subagent's hooks are its parent's: their problems are said once
        for problem in config.problems:
            logger.warning("hook %s", problem)
    # [before lesson 15]
    # for problem in config.problems:
    #     logger.warning("hook %s", problem)
    # [/lesson 15]
    if not config.hooks:
        return
    gate, session = b.gate, b.session
    found = Hooks(
        config,
        project=b.options.home,
        env=inherited_environment(),
        tool_root=Path(gate.workspace),  # a `--repo` clone's paths are the clone's
        trusted=lambda: gate.settings is not None and gate.settings.trusted,  # no settings read: nothing trusted
        session_id=lambda: session.session_id,
        transcript_path=lambda: str(session.log.path),
        permission_mode=lambda: gate.mode.value,
        redact=redactor_for(b.settings).data,
    )
    b.hooks = found
    for capability in b.capabilities:  # the gate's verdict goes through the PreToolUse hooks first
        if isinstance(capability, PermissionHook):
            capability.pre_tool = functools.partial(pre_tool_use, found)
            if capability.approve is not None:  # the user is asked: the Notification hooks hear it
                capability.approve = notify_before(found, capability.approve)
    b.capabilities.append(ToolHooks(found))


def attach_hooks(b: Build) -> None:
    """The loop carries the hooks: the harness runs UserPromptSubmit, Stop… around each turn."""
    b.loop.hooks = b.hooks
