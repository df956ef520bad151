"""An Agent Definition: a Markdown file with front matter, in Claude Code's format.

    ---
    name: explore
    description: Find things in the code base and report where they are. Use for searches.
    tools: read, glob, grep, bash        # or a YAML list; absent: every tool
    disallowedTools: web_fetch           # taken away from what `tools` gives
    model: inherit                       # or a Model String
    permissionMode: plan                 # default, acceptEdits, plan (never bypass)
    readOnly: true                       # decode's own key: commands off the read-only list are denied
    ---
    You are a search specialist. …      (the body: the agent's instructions)

Tool names are decode's (`read`, `bash`, `agent`…) or Claude Code's (`Read`, `Bash`, `Task`…),
so the files in a project's `.claude/agents/` work as they are. `mcp__server` selects every tool
of an MCP server, `mcp__server__tool` one of them. A file that breaks these rules raises
`AgentError`, naming the file.
"""

import fnmatch
import re
from dataclasses import dataclass
from enum import StrEnum
from pathlib import Path
from typing import Any

from pydantic import BaseModel, ConfigDict, Field, ValidationError, field_validator

from decode.config.safe_read import UnreadableFile, read_text
from decode.permissions.types import Decision, Mode, Rule

INHERIT = "inherit"
CLAUDE_MODEL_ALIASES = frozenset({"sonnet", "opus", "haiku"})
"""Claude Code's model names: decode cannot run them, so an agent naming one inherits its parent's."""
CLAUDE_TOOL_NAMES = {
    "Read": "read",
    "Write": "write",
    "Edit": "edit",
    "MultiEdit": "edit",
    "Glob": "glob",
    "LS": "glob",
    "Grep": "grep",
    "Bash": "bash",
    "WebFetch": "web_fetch",
    "TodoWrite": "todo_write",
    "AskUserQuestion": "ask_user",
    "ExitPlanMode": "exit_plan_mode",
    "Skill": "skill",
    "Task": "agent",
    "Agent": "agent",
}
"""Claude Code's tool names, as decode's."""
AGENT_TOOL = "agent"
MCP_PREFIX = "mcp__"
MCP_SEARCH_TOOL = "search_tools"


class AgentSource(StrEnum):
    """Where an agent was found, from least to most specific."""

    BUILTIN = "built-in"
    USER = "user"
    CLAUDE = "project (.claude)"
    PROJECT = "project"


class AgentError(ValueError):
    """An agent file that cannot be used; the message names the file and the problem."""


DECODE_TOOL_NAMES = frozenset({*CLAUDE_TOOL_NAMES.values(), "search_tools"})
_ANY_CASE = {name.lower(): decode for name, decode in CLAUDE_TOOL_NAMES.items()} | {n: n for n in DECODE_TOOL_NAMES}


def tool_name(name: str) -> str:
    """A name from a `tools` list as decode calls the tool: `Read` → `read`, `Bash(git:*)` → `bash`.

    Any spelling of a known tool (`BASH`, `todowrite`) is that tool: a `disallowedTools` entry
    that matched nothing would leave the tool in place."""
    base = name.strip().split("(", 1)[0].strip()
    if base[:5].lower() == MCP_PREFIX:
        return MCP_PREFIX + base[5:]
    return _ANY_CASE.get(base.lower(), base)


def _names(value: Any) -> tuple[str, ...] | None:
    """`Read, Grep` or `[Read, Grep]` as decode's tool names; None when absent."""
    if value is None:
        return None
    items = value.split(",") if isinstance(value, str) else value
    if not isinstance(items, list) or not all(isinstance(item, str) for item in items):
        raise ValueError("expected tool names separated by commas, or a list of names")
    return tuple(dict.fromkeys(tool_name(item) for item in items if item.strip()))


def _confined(value: Any) -> tuple[str, ...]:
    """The `tools` entries naming a tool with a rule (`Bash(git diff:*)`), normalised, for the tools
    named only so: each of those is confined to its rules. `ValueError` for a rule that cannot be read."""
    from decode.permissions.rules import RuleError, parse_rule

    items = value.split(",") if isinstance(value, str) else value if isinstance(value, list) else []
    entries = [item.strip() for item in items if isinstance(item, str) and item.strip()]
    bare = {tool_name(entry) for entry in entries if "(" not in entry}
    rules: list[str] = []
    for entry in entries:
        if "(" in entry and tool_name(entry) not in bare:
            try:
                rules.append(parse_rule(entry, Decision.ALLOW).text)
            except RuleError as exc:
                raise ValueError(str(exc)) from None
    return tuple(dict.fromkeys(rules))


class AgentFrontMatter(BaseModel):
    """The front matter decode reads; Claude Code's other keys (`color`…) are allowed and ignored."""

    model_config = ConfigDict(extra="allow", populate_by_name=True)

    name: str = Field(max_length=64, pattern=r"^[a-z0-9]+(-[a-z0-9]+)*$")
    description: str = Field(min_length=1, max_length=1024)
    tools: tuple[str, ...] | None = None
    disallowed_tools: tuple[str, ...] = Field((), alias="disallowedTools")
    model: str = INHERIT
    permission_mode: Mode | None = Field(None, alias="permissionMode")
    read_only: bool = Field(False, alias="readOnly")

    @field_validator("tools", "disallowed_tools", mode="before")
    @classmethod
    def _tool_names(cls, value: Any) -> tuple[str, ...] | None:
        return _names(value)

    @field_validator("permission_mode", mode="before")
    @classmethod
    def _mode(cls, value: Any) -> Mode | None:
        if value is None or isinstance(value, Mode):
            return value
        mode = Mode.parse(str(value))
        if mode is Mode.BYPASS:  # a file in a repository never chooses bypass (ADR-0042, ADR-0058)
            raise ValueError("an agent file cannot choose bypass; only --permission-mode does")
        return mode


@dataclass(frozen=True)
class AgentDefinition:
    """One agent: its name, when to use it, its tools, model and mode, and its instructions."""

    name: str
    description: str
    path: Path | None
    source: AgentSource
    tools: tuple[str, ...] | None = None
    """The tools it may use (decode's names and `mcp__…` patterns); None: every tool."""
    disallowed_tools: tuple[str, ...] = ()
    model: str = INHERIT
    permission_mode: Mode | None = None
    """None: the mode of the conversation (a subagent's parent's)."""
    read_only: bool = False
    confined: tuple[str, ...] = ()
    """Rules of `tools` entries like `Bash(git diff:*)`: the only calls of that tool it may make."""
    instructions: str = ""
    """The body of the file; '' for decode's own instructions alone (`build`)."""

    @property
    def inherits_model(self) -> bool:
        return self.model == INHERIT or self.model in CLAUDE_MODEL_ALIASES

    @property
    def lists_mcp(self) -> bool:
        """Does its `tools` list name MCP tools (`mcp__server`…)? Only then does a subagent get any."""
        return any(pattern.startswith(MCP_PREFIX) for pattern in self.tools or ())

    def allows(self, tool: str, *, child: bool = False) -> bool:
        """May this agent use `tool`? A subagent without a `tools` list gets every tool but `agent`
        (no nested spawning), the MCP tools and the ones that talk to the user, unless listed."""
        if any(selects(pattern, tool) for pattern in self.disallowed_tools):
            return False
        if tool == MCP_SEARCH_TOOL:  # how MCP tools loaded on demand are found (lesson 14)
            return self.lists_mcp or (self.tools is None and not child)
        if self.tools is not None:
            return any(selects(pattern, tool) for pattern in self.tools)
        return not (child and (tool in CHILD_EXCLUDED or tool.startswith(MCP_PREFIX)))

    def confinement(self) -> dict[str, list[Rule]]:
        """`confined` by tool (`{"bash": [Bash(git diff:*)]}`), for the agent's gate."""
        from decode.permissions.rules import parse_rule

        found: dict[str, list[Rule]] = {}
        for text in self.confined:
            found.setdefault(tool_name(text), []).append(parse_rule(text, Decision.ALLOW))
        return found

    def tools_text(self) -> str:
        """What `decode agents` shows: `all tools`, or the list (with what is taken away)."""
        text = "all tools" if self.tools is None else ", ".join(self.tools) or "no tools"
        if self.confined:
            text += f" (only as {', '.join(self.confined)})"
        if self.disallowed_tools:
            text += f" except {', '.join(self.disallowed_tools)}"
        return text + (" (read-only)" if self.read_only else "")


CHILD_EXCLUDED = frozenset({AGENT_TOOL, "ask_user", "exit_plan_mode"})
"""Tools a subagent gets only when its agent lists them: it spawns no one, and no user answers it."""


def selects(pattern: str, tool: str) -> bool:
    """Does a `tools` entry select `tool`? `read`; `mcp__github` (all its tools); `mcp__github__*`."""
    if pattern == "*" or pattern == tool:
        return True
    if pattern.startswith(MCP_PREFIX) and pattern.count("__") == 1:  # a server: every tool of it
        if any(c in pattern for c in "*?["):  # `mcp__*`: every server's
            return fnmatch.fnmatchcase(tool, pattern + "__*")
        return tool.startswith(pattern + "__")
    return any(c in pattern for c in "*?[") and fnmatch.fnmatchcase(tool, pattern)


def parse_agent(text: str, path: Path | None, source: AgentSource) -> AgentDefinition:
    """Read one agent file's text; raise `AgentError` naming the file when it is malformed."""
    import frontmatter
    import yaml

    where = str(path) if path is not None else "<agent>"
    if not re.match(r"\A\ufeff?---\s*\n", text):
        raise AgentError(f"{where}: no front matter (a --- line, name: and description:, then ---)")
    try:
        post = frontmatter.loads(text)
    except RecursionError:  # the pure-Python YAML parser on deep nesting (libyaml's stops at 1,000)
        raise AgentError(f"{where}: the front matter is nested too deeply") from None
    except yaml.YAMLError as exc:
        mark = getattr(exc, "problem_mark", None)
        line = f" (line {mark.line + 1})" if mark is not None else ""
        raise AgentError(f"{where}: the front matter is not valid YAML{line}") from None
    try:
        meta = AgentFrontMatter.model_validate(post.metadata)
    except ValidationError as exc:
        problems = "; ".join(f"{'.'.join(map(str, e['loc'])) or 'front matter'}: {_message(e)}" for e in exc.errors())
        raise AgentError(f"{where}: {problems}") from None
    try:
        confined = _confined(post.metadata.get("tools"))
    except ValueError as exc:
        raise AgentError(f"{where}: tools: {exc}") from None
    return AgentDefinition(
        name=meta.name,
        description=" ".join(meta.description.split()),
        path=path,
        source=source,
        tools=meta.tools,
        disallowed_tools=meta.disallowed_tools,
        model=meta.model.strip() or INHERIT,
        permission_mode=meta.permission_mode,
        read_only=meta.read_only,
        confined=confined,
        instructions=post.content.strip(),
    )


def _message(error: Any) -> str:
    message = str(error["msg"])
    return message.removeprefix("Value error, ")


def read_agent(path: Path, source: AgentSource) -> AgentDefinition:
    """`parse_agent` of a file on disk."""
    try:
        text = read_text(path, what="an agent file")  # a FIFO, a device, a huge file: refused, never a wait
    except UnreadableFile as exc:
        raise AgentError(str(exc)) from None
    if text is None:
        raise AgentError(f"{path}: no such file (a link to nothing?)")
    return parse_agent(text, path, source)
