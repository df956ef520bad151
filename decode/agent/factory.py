"""`build_agent()`: the pydantic-ai Agent at the heart of decode.

The agent is stateless: model, instructions and tools. The conversation (history, usage) lives
in the Agent Loop, so one agent can serve many turns and many front ends.
"""

import platform
from collections.abc import Sequence
from datetime import UTC, datetime
from typing import Any

import pydantic_ai
from pydantic_ai import Agent, RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.models import Model

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolSpec
from decode.memory.instructions import memory_instructions
from decode.skills.instructions import skills_instructions
from decode.skills.tool import SKILL_TOOL

# decode owns its output: pydantic-ai's one-time banner (shown on a terminal) would land in the
# middle of `decode run`'s progress lines and the REPL's screen.
# (pydantic-ai documents this switch; its module declares it as `True` only, hence the ignore.)
pydantic_ai.BANNER_ENABLED = False  # ty: ignore[invalid-assignment]

BASE_INSTRUCTIONS = """\
You are decode, a coding agent working in the user's terminal, inside their project.
Work step by step: look before you change, make the smallest change that does the job, and check it.
Use the tools to act; do not ask the user to run things you can run yourself.
Keep answers short and concrete. Refer to code as path:line. Never invent file contents or results."""


def environment_instructions(ctx: RunContext[AgentDeps]) -> str:
    """Facts the model cannot know: where it is and when. Rebuilt on every request."""
    today = datetime.now(UTC).date().isoformat()
    return f"Working directory: {ctx.deps.workspace}\nPlatform: {platform.system()}\nToday (UTC): {today}"


def build_agent(
    model: Model | str,
    *,
    tools: Sequence[ToolSpec] = (),
    instructions: str = BASE_INSTRUCTIONS,
    capabilities: Sequence[AbstractCapability[Any]] = (),
) -> Agent[AgentDeps, str]:
    """Create the agent with the given model and tools.

    `tools` are declarations (`ToolSpec`s); with none, the agent can only talk (and load skills:
    the `skill` tool is always there, next to the skills catalogue). `capabilities` hook into
    every run: the composition root passes the Permission Hook, which asks the gate before
    each tool call (lesson 06).
    """
    return Agent(
        model,
        deps_type=AgentDeps,
        # Memory and the skills catalogue are read again on every request, so edits apply at once.
        instructions=[instructions, environment_instructions, memory_instructions, skills_instructions],
        # The `skill` tool comes with the catalogue: it is how the model loads a skill's body.
        tools=[spec.to_tool() for spec in [*tools, SKILL_TOOL]],
        # A wrong tool name or bad arguments go back to the model this many times before the run fails.
        retries=3,
        capabilities=list(capabilities),
    )
