"""The Active Agent: the capability that makes a conversation work as one agent of the catalogue.

Before every model request it

- offers only the tools the agent's definition allows (`AgentDefinition.allows`), by name: the
  file tools, bash, the `agent` tool and every MCP tool (`mcp__server__tool`) alike. pydantic-ai
  keeps a tool filtered out here from being called at all, not only from being shown;
- adds the agent's instructions (the body of its file) after decode's own, and for a subagent,
  that its answer goes back to the agent that called it.

Both read `definition` when the request is built, so `/agent NAME` switches the Primary Agent of
a conversation in place: the history stays, the next request has the new tools and instructions.
"""

import logging
from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.tools import ToolDefinition

from decode.agents.catalog import DEFAULT_AGENT, AgentCatalog, UnknownAgentError
from decode.agents.definition import AgentDefinition
from decode.entities.instructions import dynamic_instruction
from decode.permissions.types import Mode

logger = logging.getLogger(__name__)

SUBAGENT_NOTE = (
    "You are a subagent: another agent gave you this task, and your final answer goes back to it, "
    "not to the user, who does not see your work. No one can answer questions: decide, and say what "
    "you assumed. End with a self-contained report: what you found or did, with paths (path:line)."
)


@dataclass
class ActiveAgent(AbstractCapability[Any]):
    """Offers `definition`'s tools and adds its instructions; `child` for a subagent."""

    definition: AgentDefinition
    child: bool = False
    base_mode: Mode | None = None
    """The conversation's mode when no agent chooses one (`switch_agent` returns to it)."""
    base_model: str | None = None
    """The conversation's model when no agent chooses one (`switch_agent` returns to it)."""

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    def get_instructions(self) -> Any:
        async def agent_instructions(ctx: RunContext[Any]) -> str:
            parts = [f"Agent: {self.definition.name}\n{self.definition.instructions}".strip()]
            if self.definition.name == "build" and not self.definition.instructions:
                parts = []  # the default agent is decode's own instructions alone
            if self.child:
                parts.append(SUBAGENT_NOTE)
            return "\n\n".join(parts)

        return dynamic_instruction(agent_instructions)

    async def prepare_tools(self, ctx: RunContext[Any], tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        return [tool for tool in tool_defs if self.definition.allows(tool.name, child=self.child)]


def resumed_agent(catalog: AgentCatalog, name: str) -> AgentDefinition:
    """The agent a resumed session ran as; `build`, with a warning, when no agent has that name now."""
    try:
        return catalog.get(name)
    except UnknownAgentError:
        logger.warning(
            "the resumed session ran as agent %r, which no longer exists: it continues as %s", name, DEFAULT_AGENT
        )
        return catalog.get(DEFAULT_AGENT)
