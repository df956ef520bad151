"""What the model is told about its permissions, and which tools it is offered, on every request.

`PermissionSituation` is a pydantic-ai capability beside the Permission Hook. Before each model
request it

- adds an instruction saying the Permission Mode in force and what it lets run, and, when the run is
  headless (`decode run`: no `approve` callback), that no one can answer a question or approve a
  call, so anything that would ask is refused;
- in plan mode, offers only the tools that read or touch nothing outside the conversation
  (`PLAN_KINDS`): the model is not shown tools it may not use.

Both read `gate.mode` when the request is built, so a mode switched in the middle of a session
(Shift+Tab in the REPL) is what the next request says and offers. The gate still judges every
call (a model may name a tool it was not offered): this capability tells, it never allows.
"""

from dataclasses import dataclass
from typing import Any

from pydantic_ai import RunContext
from pydantic_ai.capabilities import AbstractCapability
from pydantic_ai.tools import ToolDefinition

from decode.entities.instructions import dynamic_instruction
from decode.entities.tools import traits_of
from decode.permissions.gate import PLAN_KINDS, PermissionGate
from decode.permissions.types import Mode

MODE_TEXT = {
    Mode.DEFAULT: "read-only tools run; file edits, commands and other tools need the user's approval.",
    Mode.ACCEPT_EDITS: "read-only tools and file edits inside the workspace run; commands need the user's approval.",
    # [lesson 13]
    Mode.PLAN: (
        "you may read and search, and change nothing: only the tools that do not change anything are "
        "offered. Investigate, then call exit_plan_mode with the plan (what you would change, where, and "
        "how you would check it); the user approves it, and you carry it out, or tells you what to change."
    ),
    # [before lesson 13]
    # Mode.PLAN: (
    #     "you may read and search, and change nothing: only the tools that do not change anything are "
    #     "offered. Investigate, then present a plan (what you would change, where, and how you would "
    #     "check it) as your answer; the user switches the mode when they want it carried out."
    # ),
    # [/lesson 13]
    Mode.BYPASS: (
        "every tool runs without asking, except what a deny rule forbids or an ask rule asks about; nothing "
        "stops a mistake, so be careful."
    ),
}

INTERACTIVE = "The user is at the terminal: a call that needs approval waits for their answer."
HEADLESS = (
    "This run is headless: no one is watching, so no one can answer a question or approve a call, and a "
    "call that needs approval is refused. Do what the mode lets you do; end with a final answer that says "
    "what you did and what you could not do (and which permission it needed)."
)


def situation_text(mode: Mode, *, headless: bool) -> str:
    """The instruction for `mode`, interactive or headless."""
    return f"Permission mode: {mode} — {MODE_TEXT[mode]}\n{HEADLESS if headless else INTERACTIVE}"


@dataclass
class PermissionSituation(AbstractCapability[Any]):
    """Tells the model its Permission Mode (and whether anyone can approve); hides changing tools in plan mode."""

    gate: PermissionGate
    headless: bool = False

    @classmethod
    def get_serialization_name(cls) -> str | None:
        return None  # built in code, never from an agent spec file

    def get_instructions(self) -> Any:
        async def permissions_instructions(ctx: RunContext[Any]) -> str:
            return situation_text(self.gate.mode, headless=self.headless)

        return dynamic_instruction(permissions_instructions)

    async def prepare_tools(self, ctx: RunContext[Any], tool_defs: list[ToolDefinition]) -> list[ToolDefinition]:
        if self.gate.mode is not Mode.PLAN:
            # [lesson 13]
            return [tool for tool in tool_defs if not traits_of(tool.metadata).plan_only]  # exit_plan_mode
            # [before lesson 13]
            # return tool_defs
            # [/lesson 13]
        return [tool for tool in tool_defs if traits_of(tool.metadata).kind in PLAN_KINDS]
