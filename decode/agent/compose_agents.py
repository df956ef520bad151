"""What lesson 15 adds to the composition root: a subagent's conversation, and switching agent.

A subagent is built by the same `STEPS` as any conversation, with four of its own in place of the
primary's (`steps.agents.SUBAGENT_STEPS`). `switch_agent()` is `/agent`: another agent from the next
request on, in the same conversation.
"""

from decode.agent.build import Build
from decode.agent.compose import STEPS, run_steps, switch_model
from decode.agent.options import Conversation, LoopOptions
from decode.agent.steps.agents import SUBAGENT_STEPS
from decode.agents.catalog import discover_agents
from decode.agents.definition import AgentDefinition
from decode.config.settings import Settings
from decode.permissions.types import Mode


def build_subagent(options: LoopOptions, settings: Settings) -> Conversation:
    """A subagent's conversation (`options.parent` set): the same steps, with its parent's session,
    model, gate and MCP servers in place of its own (`steps.agents.SUBAGENT_STEPS`)."""
    return run_steps([SUBAGENT_STEPS.get(step, step) for step in STEPS], Build(options, settings))


def switch_agent(conversation: Conversation, name: str) -> AgentDefinition:
    """Be agent `name` from the next request on, in the same conversation: its tools, instructions,
    mode and model; the history stays. Raises `UnknownAgentError` (or `ModelConfigError` for the
    model it names) and changes nothing."""
    options = conversation.options
    definition = discover_agents(options.home, trust_project=options.trust_project_settings).get(name)
    active = conversation.agent
    if active is None:
        raise ValueError("this conversation was built without an agent")
    before = conversation.session.model
    if not definition.inherits_model:
        switch_model(conversation, definition.model)
        if active.definition.inherits_model:
            active.base_model = before  # the model to return to when an agent without one comes next
    elif not active.definition.inherits_model and active.base_model:  # leaving an agent that chose its model
        switch_model(conversation, active.base_model)
    gate = conversation.gate
    if definition.permission_mode is not None:
        gate.mode = definition.permission_mode
    elif active.definition.permission_mode is not None:  # leaving an agent that chose its mode
        gate.mode = active.base_mode or Mode.DEFAULT
    gate.read_only, gate.confined = definition.read_only, definition.confinement()
    active.definition = definition
    conversation.session.switch_mode(gate.mode.value)
    conversation.session.switch_agent(definition.name)
    return definition
