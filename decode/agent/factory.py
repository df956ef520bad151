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

from decode.agent.capability_set import capability_set
from decode.agent.facts import Fact, TurnFacts
from decode.agent.git_state import GitStatus
from decode.entities.deps import AgentDeps
from decode.entities.instructions import dynamic_instruction
from decode.entities.tools import ToolSpec
from decode.memory.instructions import memory_instructions
from decode.skills.instructions import skills_instructions
from decode.skills.tool import SKILL_TOOL
from decode.tools.todo import todo_instructions

# decode owns its output: pydantic-ai's one-time banner (shown on a terminal) would land in the
# middle of `decode run`'s progress lines and the REPL's screen.
# (pydantic-ai documents this switch; its module declares it as `True` only, hence the ignore.)
pydantic_ai.BANNER_ENABLED = False  # ty: ignore[invalid-assignment]

BASE_INSTRUCTIONS = """\
You are decode, a coding agent working in the user's terminal, inside their project.
Work step by step: look before you change, make the smallest change that does the job, and check it.
Use the tools to act; do not ask the user to run things you can run yourself.
Keep answers short and concrete. Refer to code as path:line. Never invent file contents or results."""


@dynamic_instruction
async def environment_instructions(ctx: RunContext[AgentDeps]) -> str:
    """Facts the model cannot know that hold for the whole session: where it is, on what system."""
    # [lesson 17]
    added = ", ".join(str(folder) for folder in ctx.deps.executor.more_roots)  # fixed for the session (ADR-0101)
    more = f"\nAdditional directories the file tools may also use (--add-dir): {added}" if added else ""
    return f"Working directory: {ctx.deps.workspace}{more}\nPlatform: {platform.system()}"
    # [before lesson 17]
    # return f"Working directory: {ctx.deps.workspace}\nPlatform: {platform.system()}"
    # [/lesson 17]


def today(ctx: RunContext[AgentDeps]) -> str:
    """The date: a fact that changes (at midnight), so it travels with the newest request."""
    return f"Today (UTC): {datetime.now(UTC).date().isoformat()}"


def turn_facts() -> list[Fact]:
    """What can change during a session, read again for every request and sent after the history
    (`decode.agent.facts`): the instructions before it stay byte-identical, so a provider's prompt
    cache serves them and the history. One list per agent: the git status keeps its cache."""
    return [
        today,
        GitStatus().instructions,  # the branch and a short status, taken once per turn  # [lesson 05]
        # [lesson 12]
        # Memory and the skills catalogue are read again on every request, so edits apply at once.
        memory_instructions,
        skills_instructions,
        # [/lesson 12]
        todo_instructions,  # the To-do List as it stands: it survives a resume and a compaction  # [lesson 13]
    ]


ALWAYS_TOOLS: list[ToolSpec] = [
    SKILL_TOOL,  # how the model loads a skill's body (the catalogue comes with the instructions)  # [lesson 12]
]
"""Tools every agent has, whatever it is given."""


def build_agent(
    model: Model | str,
    *,
    tools: Sequence[ToolSpec] = (),
    instructions: str = BASE_INSTRUCTIONS,
    capabilities: Sequence[AbstractCapability[Any]] = (),
) -> Agent[AgentDeps, str]:
    """Create the agent with the given model and tools.

    `tools` are declarations (`ToolSpec`s), joined by `ALWAYS_TOOLS`; with none, the agent can
    only talk. `capabilities` hook into every run (pydantic-ai capabilities), e.g. to check each
    tool call before it runs. The instructions are fixed; what changes travels as Turn Facts.
    """
    return Agent(
        model,
        deps_type=AgentDeps,
        instructions=[instructions, environment_instructions],
        tools=[spec.to_tool() for spec in [*tools, *ALWAYS_TOOLS]],
        # A wrong tool name or bad arguments go back to the model this many times before the run fails.
        retries=3,
        # One capability for decode's plain ones: each hook reaches only those that define it.
        capabilities=capability_set([TurnFacts(turn_facts()), *capabilities]),
    )
