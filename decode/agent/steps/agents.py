"""The agent steps (lesson 15): which agent the conversation is, and the subagents it may spawn.

A subagent is built by the same steps with four in place of the primary's (`SUBAGENT_STEPS`): its
session is a transcript beside its parent's, its model may be its parent's own, its gate is
fenced by its parent's, and its MCP servers are its parent's.
"""

import logging

from decode.agent.build import Build, Step
from decode.agent.steps.core import choose_model
from decode.agent.steps.mcp import load_mcp
from decode.agent.steps.permissions import build_gate
from decode.agent.steps.session import open_session
from decode.agents.active import ActiveAgent, resumed_agent
from decode.agents.catalog import DEFAULT_AGENT, discover_agents
from decode.agents.definition import AGENT_TOOL, AgentDefinition
from decode.agents.lineage import Parent
from decode.agents.subagents import Subagents
from decode.agents.trust import REPOSITORY
from decode.mcp.loading import mcp_capabilities
from decode.models.gateway import resolve_model
from decode.permissions.types import Mode
from decode.skills.command_grants import environment_keys_only

logger = logging.getLogger(__name__)


def choose_agent(b: Build) -> None:
    """The catalogue, and the agent asked for (`UnknownAgentError`, a `ConfigError`: none such)."""
    options = b.options
    b.catalog = discover_agents(options.home, trust_project=options.trust_project_settings)
    if options.parent is None:  # a subagent's catalogue is its parent's: said once
        for problem in b.catalog.problems:
            logger.warning("agent skipped: %s", problem)
    if isinstance(options.agent, AgentDefinition):
        b.definition = options.agent
        return
    b.definition = b.catalog.get(options.agent or DEFAULT_AGENT)
    if options.parent is None and b.definition.name in b.catalog.held:  # the project is not trusted
        logger.warning("%s", b.catalog.held[b.definition.name])


def resume_agent(b: Build) -> None:
    """A resumed session is the agent it was (and in its mode), unless an agent is asked for."""
    options, session = b.options, b.session
    b.restored = options.agent is None and options.resume is not None and session.agent is not None
    if b.restored:
        b.definition = resumed_agent(b.catalog, session.agent or DEFAULT_AGENT)
    session.switch_agent(b.definition.name)


def agent_mode(b: Build) -> None:
    """The agent's own permission mode, unless a mode is asked for or the session's is resumed."""
    if b.mode is None and not b.restored:
        b.mode = b.definition.permission_mode


def confine(b: Build) -> None:
    """The agent's promises, kept by the gate: read-only, and `tools: Bash(git diff:*)` (bash for that alone)."""
    b.gate.read_only = b.definition.read_only
    b.gate.confined = b.definition.confinement()


def build_subagents(b: Build) -> None:
    """The `agent` tool (the primary agent can always spawn: `/agent` may switch to one that does; a
    subagent only if its agent lists the tool), and the agent's tools and instructions as a capability."""
    options, definition, parent = b.options, b.definition, b.options.parent
    if parent is None or AGENT_TOOL in (definition.tools or ()):
        b.subagents = Subagents(
            b.catalog, options, b.settings, parent.depth if parent else 0, parent.tree if parent else None
        )
        b.tools.append(b.subagents.tool())
    # The mode and model to return to when `/agent` leaves an agent that chose its own.
    base_mode = b.gate.mode if options.permission_mode or not definition.permission_mode else Mode.DEFAULT
    base_model = b.session.model if options.model or definition.inherits_model else b.settings.model
    b.active = ActiveAgent(definition, child=parent is not None, base_mode=base_mode, base_model=base_model)
    b.capabilities.append(b.active)  # the agent's tools (by name, MCP tools too) and instructions


def attach_subagents(b: Build) -> None:
    """The conversation the children are spawned from."""
    if b.subagents is not None:
        b.subagents.attach(b.loop, b.gate, b.session, b.mcp)


# A subagent's own steps, in place of the primary's.


def _parent(b: Build) -> Parent:
    if (parent := b.options.parent) is None:
        raise ValueError("a subagent's steps need `LoopOptions.parent`")
    return parent


def child_session(b: Build) -> None:
    """A fresh history; its transcript a log of its own beside its parent's."""
    b.session = _parent(b).child_session(b.options.model or "", b.options.permission_mode, b.settings)


def inherit_model(b: Build) -> None:
    """Its parent's own model object, when it inherits it; else its own."""
    parent_model = _parent(b).model
    if parent_model is not None:
        b.model = parent_model
        return
    settings, agent = b.settings, b.options.agent
    if isinstance(agent, AgentDefinition) and agent.source in REPOSITORY and not agent.inherits_model:
        settings = environment_keys_only(settings)  # the repository's `model`: never with a key its `.env` gives
    b.model = resolve_model(b.session.model, settings, on_retry=b.options.on_retry)


def fence_gate(b: Build) -> None:
    """Its parent's rules, and its parent's gate as its fence: never looser than the parent's."""
    fence = _parent(b).gate
    b.gate = fence.fenced(b.mode or fence.mode, read_only=b.definition.read_only)


def parent_mcp(b: Build) -> None:
    """Its parent's servers, if its agent lists their tools: none of its own."""
    b.mcp = _parent(b).mcp if b.definition.lists_mcp else None
    b.capabilities += mcp_capabilities(b.mcp)


SUBAGENT_STEPS: dict[Step, Step] = {
    open_session: child_session,
    choose_model: inherit_model,
    build_gate: fence_gate,
    load_mcp: parent_mcp,
}
"""The steps a subagent takes in place of the primary's (`compose_agents.build_subagent`)."""
