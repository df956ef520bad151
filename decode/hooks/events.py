"""The events a hook can follow, and decode's tools under the names Claude Code gives them.

A hook written for Claude Code matches `Bash` or `Edit|Write` and reads `tool_input.file_path`:
`claude_name` and `claude_input` give it exactly that for decode's `bash`, `edit`, `write`…,
so the same script works unchanged. MCP tools keep their own `mcp__server__tool` names.
"""

from collections.abc import Mapping
from enum import StrEnum
from pathlib import Path
from typing import Any


class HookEvent(StrEnum):
    """When a hook runs (Claude Code's names; `dispatch.Hooks.fire` runs them)."""

    PRE_TOOL_USE = "PreToolUse"
    """Before a tool call, after the model chose its arguments: may block, allow or ask."""
    POST_TOOL_USE = "PostToolUse"
    """After a tool call succeeded: may tell the model something about the result."""
    USER_PROMPT_SUBMIT = "UserPromptSubmit"
    """The user sent a prompt: may block it or add context."""
    STOP = "Stop"
    """The agent is done answering: may make it continue."""
    SUBAGENT_STOP = "SubagentStop"
    """A subagent has answered (its hooks are heard; unlike Stop, a block does not send it back)."""
    SESSION_START = "SessionStart"
    """The conversation's first turn is about to start (new or resumed): may add context."""
    SESSION_END = "SessionEnd"
    """The front end leaves the session."""
    NOTIFICATION = "Notification"
    """decode asks the user about a tool call (`notification_type`: permission_prompt)."""
    PRE_COMPACT = "PreCompact"
    """The history is about to be summarised (`trigger`: manual for `/compact`, which a block stops; auto)."""


MATCHED_BY: dict[HookEvent, str] = {
    HookEvent.PRE_TOOL_USE: "tool_name",
    HookEvent.POST_TOOL_USE: "tool_name",
    HookEvent.SESSION_START: "source",
    HookEvent.SESSION_END: "reason",
    HookEvent.PRE_COMPACT: "trigger",
    HookEvent.NOTIFICATION: "notification_type",
}
"""The input field a matcher is compared with; the other events run every hook they have."""

CLAUDE_NAMES = {
    "bash": "Bash",
    "read": "Read",
    "write": "Write",
    "edit": "Edit",
    "glob": "Glob",
    "grep": "Grep",
    "web_fetch": "WebFetch",
    "web_search": "WebSearch",
    "todo_write": "TodoWrite",
    "agent": "Task",
    "ask_user": "AskUserQuestion",
    "exit_plan_mode": "ExitPlanMode",
    "skill": "Skill",
    "lsp": "LSP",
}
"""decode's tool -> Claude Code's name for it (a matcher `Task` matches decode's `agent`)."""
_PATH_TOOLS = {"read", "write", "edit", "lsp"}


def claude_name(tool: str) -> str:
    """The name a hook sees and matches: Claude Code's for decode's own tools, else the tool's own."""
    return CLAUDE_NAMES.get(tool, tool)


def claude_input(tool: str, args: Mapping[str, Any], cwd: Path) -> dict[str, Any]:
    """The call's arguments as Claude Code's tool would have them: `file_path`, absolute, for a
    file tool's `path`; the others as they are."""
    shaped = dict(args)
    if tool in _PATH_TOOLS and isinstance(shaped.get("path"), str):
        shaped["file_path"] = str(cwd / Path(shaped.pop("path")).expanduser())
    elif tool == "agent":
        shaped.setdefault("subagent_type", shaped.get("agent", ""))
    return shaped


def from_claude_input(tool: str, updated: Mapping[str, Any], args: Mapping[str, Any], cwd: Path) -> dict[str, Any]:
    """`args` with what a hook's `updatedInput` (in Claude Code's shape) changes: its fields replace
    theirs, the others stay; a file tool's `file_path` is decode's `path` (as the model wrote it,
    when the hook gave it back unchanged)."""
    decoded = dict(updated)
    if tool in _PATH_TOOLS and "file_path" in decoded:
        decoded["path"] = decoded.pop("file_path")
        if isinstance(path := args.get("path"), str) and decoded["path"] == str(cwd / Path(path).expanduser()):
            decoded["path"] = path
    elif tool == "agent" and "subagent_type" in decoded:
        decoded.setdefault("agent", decoded.pop("subagent_type"))
    return {**args, **decoded}
