"""`Build`: the composition root's workbench, which its steps fill in one after another.

A step is a small function over a `Build`: it reads what the steps before it made and adds its
own part (the session, the model, the executor, the gate…). A field a step has not set yet is not
there at all: a step that reads it too early fails at once, never with a half-made value.
`build_loop()` (`compose.py`) runs the steps in order and hands the front end a `Conversation`.
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass, field, fields
from typing import TYPE_CHECKING, Any

from decode.agent.options import Conversation, LoopOptions

if TYPE_CHECKING:
    from pydantic_ai import Agent
    from pydantic_ai.capabilities import AbstractCapability
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models import Model

    from decode.agent.loop import AgentLoop
    from decode.agents.active import ActiveAgent
    from decode.agents.catalog import AgentCatalog
    from decode.agents.definition import AgentDefinition
    from decode.agents.subagents import Subagents
    from decode.config.settings import Settings
    from decode.context.session import Session
    from decode.entities.deps import AgentDeps
    from decode.entities.executor import CommandExecutor
    from decode.entities.tools import ToolSpec
    from decode.hooks.dispatch import Hooks
    from decode.mcp.servers import McpServers
    from decode.permissions.gate import PermissionGate
    from decode.permissions.types import Mode
    from decode.sandbox.workspace import Workspace


@dataclass
class Build:
    """What the steps have made so far for one conversation (the `options` as they settle)."""

    options: LoopOptions
    settings: Settings
    tools: list[ToolSpec] = field(default_factory=list)
    """The agent's tools: the options' (or decode's own), and what later steps add."""
    capabilities: list[AbstractCapability[Any]] = field(default_factory=list)
    """What hooks into every run of the agent, in order (the permission checks, the MCP servers…)."""
    model: Model | str = field(init=False)
    deps: AgentDeps = field(init=False)
    agent: Agent[AgentDeps, str] = field(init=False)
    loop: AgentLoop = field(init=False)
    executor: CommandExecutor = field(init=False)  # [lesson 04]
    # [lesson 06]
    mode: Mode | None = None
    """The permission mode asked for; None: the settings files'."""
    gate: PermissionGate = field(init=False)
    # [/lesson 06]
    # [lesson 11]
    session: Session = field(init=False)
    history: list[ModelMessage] = field(default_factory=list)
    resumed_mode: bool = False
    problems: list[str] = field(default_factory=list)
    """What the user is told about the session log, beside the gate's problems with the settings files."""
    # [/lesson 11]
    hooks: Hooks | None = None  # the settings files' hooks, if any  # [lesson 12]
    mcp: McpServers | None = None  # [lesson 14]
    # [lesson 15]
    catalog: AgentCatalog = field(init=False)
    definition: AgentDefinition = field(init=False)
    restored: bool = False
    """The agent is the resumed session's own (so is its mode)."""
    subagents: Subagents | None = None
    active: ActiveAgent = field(init=False)
    # [/lesson 15]
    workspace: Workspace | None = None  # the `--repo` clone, if any  # [lesson 19]
    planted: bool = False  # the resumed log came with the repository: it chooses nothing  # [lesson 20]

    def conversation(self) -> Conversation:
        """What the front end gets: each field of `Conversation`, the part of the same name."""
        parts = {part.name: getattr(self, part.name) for part in fields(Conversation)}
        parts["agent"] = self.active  # the Active Agent; `self.agent` is the pydantic-ai Agent  # [lesson 15]
        return Conversation(**parts)


Step = Callable[[Build], None]
"""One step of the composition root: it reads what is in the `Build` and adds its part."""
