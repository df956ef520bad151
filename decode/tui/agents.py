"""The REPL side of agents (lesson 15): `/agent` lists them, `/agent NAME` switches the Primary Agent.

Switching keeps the conversation: from the next request on the model has the agent's tools and
instructions, the gate its permission mode (`/agent plan` is plan mode; back to `/agent build`, the
mode before it), and its model if it names one (`decode.agent.compose_agents.switch_agent`).
"""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from decode.tui.commands import CommandRegistry, SlashCommand

if TYPE_CHECKING:
    from decode.tui.app import Repl


def add_agent_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/agent` to `registry` (and return it)."""
    registry.add(
        SlashCommand(
            "agent",
            "List the agents, or switch to one (its tools, instructions and mode)",
            _agent,
            "[name]",
            while_busy=False,
            suggest=_names,
        )
    )
    registry.start_checks["agent"] = check_agent  # `--agent NAME`: no such agent
    registry.on_ready.append(show_agent)
    return registry


def check_agent(workspace: Path, name: str) -> str | None:
    """Why `decode --agent NAME` cannot start (no such agent, listing those there are), or None."""
    from decode.agents.catalog import UnknownAgentError, discover_agents

    try:
        discover_agents(workspace).get(name)
    except UnknownAgentError as exc:
        return str(exc)
    return None


def show_agent(repl: Repl) -> None:
    """Once decode has started: the agent it is, if not the default (`decode --agent`, a resumed session)."""
    conversation = repl.conversation
    if conversation is None or conversation.agent is None or conversation.agent.definition.name == "build":
        return
    definition = conversation.agent.definition
    repl.renderer.notice(f"agent: {definition.name} — {definition.tools_text()}, {conversation.gate.mode} mode")


def _names(repl: Repl) -> list[str]:
    from decode.agents.catalog import discover_agents

    return discover_agents(repl.workspace).names()


async def _agent(repl: Repl, argument: str) -> None:
    from decode.agents.catalog import discover_agents

    conversation = repl.conversation
    starting = repl.options.agent or "build"  # before the warm-up has built it: the agent it starts as
    current = conversation.agent.definition.name if conversation is not None and conversation.agent else starting
    name = argument.strip()
    if not name:
        catalog = discover_agents(repl.workspace)
        table = Table.grid(padding=(0, 2))
        for agent_name in catalog.names():
            agent = catalog.agents[agent_name]
            mark = "●" if agent_name == current else " "
            table.add_row(Text(f"{mark} {agent_name}", style="bold cyan"), str(agent.source), agent.description)
        repl.renderer.info(Text("Agents (/agent NAME switches; the agent tool runs one as a subagent)", style="bold"))
        repl.renderer.info(table)
        for problem in catalog.problems:
            repl.renderer.notice(f"agent skipped: {problem}", "warning")
        for reason in catalog.held.values():
            repl.renderer.notice(reason, "warning")
        return
    if conversation is None:
        repl.renderer.error("the agent can be switched once decode has started")
        return
    from decode.agent.compose_agents import switch_agent
    from decode.config.loading import ConfigError
    from decode.models.errors import ModelConfigError

    try:
        definition = switch_agent(conversation, name)
    except (ConfigError, ModelConfigError) as exc:
        repl.renderer.error(str(exc))
        return
    trust = conversation.options.trust_project_settings
    if reason := discover_agents(repl.workspace, trust_project=trust).held.get(definition.name):
        repl.renderer.notice(reason, "warning")  # the project's file for it is not in force
    repl.status.permission_mode = conversation.gate.mode.value
    repl.status.model = conversation.session.model
    repl.renderer.notice(f"agent: {definition.name} — {definition.tools_text()}, {conversation.gate.mode} mode")
    repl.invalidate()
