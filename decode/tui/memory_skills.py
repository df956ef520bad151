"""The REPL side of memory and skills (lesson 12): `/memory`, `/init`, `/<skill> [text]`, the session note.

- `/memory` shows what goes into the instructions: the memory files (with their paths, and how
  much of `.decode/MEMORY.md` the cap left out) and the skills catalogue, with any skipped skill.
- `/init` sends the `/init` prompt as a turn: the model writes a starting `AGENTS.md` with its tools.
- `/name [text]`, for a skill `name` that is not a REPL command, runs the skill: its instructions
  and your text go to the agent as one turn (the transcript shows just `/name text`).
- `note_session()`, when `DECODE_SESSION_NOTES` is on, appends one line about the conversation to
  `.decode/MEMORY.md` in the background; the REPL calls it when you leave and on `/clear`. Off (the
  default), leaving sends no request at all.

Memory and skills belong to the launch directory (the Harness Home), which is the REPL's workspace.
Their modules are imported inside the handlers, so the prompt still appears before pydantic-ai is.
"""

from __future__ import annotations

import asyncio
from typing import TYPE_CHECKING

from rich.table import Table
from rich.text import Text

from decode.tui.commands import CommandRegistry, SlashCommand
from decode.tui.custom_commands import add_custom_commands

if TYPE_CHECKING:
    from decode.tui.app import Repl


def add_memory_commands(registry: CommandRegistry) -> CommandRegistry:
    """Add `/memory` and `/init` to `registry` (and return it)."""
    registry.add(SlashCommand("memory", "Show the memory files and skills the agent is given", _memory))
    registry.add(SlashCommand("init", "Have the agent write a starting AGENTS.md for this project", _init, "[notes]"))
    registry.more_commands.append(skill_commands)  # a skill is `/name [text]` too
    registry.run_more.append(run_skill)
    add_custom_commands(registry)  # and so is a command file: `.claude/commands/NAME.md`
    # If notes are on: one line about the conversation in .decode/MEMORY.md, in the background.
    registry.on_clear.append(note_session)
    registry.on_leave.append(note_session)
    return registry


async def _memory(repl: Repl, argument: str) -> None:
    from decode.memory.files import read_memory
    from decode.memory.instructions import display_path
    from decode.memory.touched import touched_folders
    from decode.skills.catalog import discover_skills

    loop = repl.loop  # the subfolders the agent has worked in so far bring their files in
    memory = read_memory(repl.workspace, subfolders=touched_folders(loop.history, loop.deps) if loop else ())
    if memory.files:
        table = Table.grid(padding=(0, 2))
        for file in memory.files:
            size = f"{len(file.text.splitlines())} lines"
            if file.omitted_lines:
                size += f" (the {file.omitted_lines} oldest left out)"
            name = display_path(file.path) if file.imported_by is None else f"  @ {display_path(file.path)}"
            table.add_row(Text(name, style="bold"), file.scope, size)
        repl.renderer.info(Text("Memory, in the order the agent reads it", style="bold underline"))
        repl.renderer.info(table)
    else:
        repl.renderer.notice("memory: no AGENTS.md, CLAUDE.md or .decode/MEMORY.md here yet; /init writes an AGENTS.md")
    for problem in memory.problems:
        repl.renderer.notice(f"memory: {problem}", "warning")
    catalog = discover_skills(repl.workspace)
    skills = Table.grid(padding=(0, 2))
    for name in catalog.names():
        skill = catalog.skills[name]
        skills.add_row(Text(f"/{name}", style="bold cyan"), str(skill.source), skill.description)
    repl.renderer.info(Text("Skills (/name [text] runs one)", style="bold underline"))
    repl.renderer.info(skills)
    for problem in catalog.problems:
        repl.renderer.notice(f"skill skipped: {problem}", "warning")


async def _init(repl: Repl, argument: str) -> None:
    from decode.memory.init_prompt import INIT_PROMPT

    prompt = f"{INIT_PROMPT}\n\nThe user adds: {argument}" if argument else INIT_PROMPT
    repl.queue_prompt(prompt, shown=f"/init {argument}".rstrip())


def skill_commands(repl: Repl) -> list[tuple[str, str]]:
    """`(name, description)` of each skill usable as `/name` (a REPL command of that name wins)."""
    from decode.skills.catalog import discover_skills

    catalog = discover_skills(repl.workspace)
    return [(name, catalog.skills[name].description) for name in catalog.names() if repl.commands.get(name) is None]


async def run_skill(repl: Repl, name: str, argument: str) -> bool:
    """Run the skill `name` as a turn, if there is one; False when no skill has that name."""
    from decode.skills.catalog import discover_skills

    skill = discover_skills(repl.workspace).get(name)
    if skill is None:
        return False
    await repl.warmed_up()  # the prompt builder imports pydantic-ai, as the turn will
    from decode.skills.catalog import SkillError
    from decode.skills.tool import skill_prompt

    try:
        prompt = skill_prompt(skill, argument)
    except SkillError as exc:  # changed since the catalogue was read: now a FIFO, a device, too big
        repl.renderer.error(str(exc))
        return True
    repl.queue_prompt(prompt, shown=f"/{name} {argument}".rstrip())
    return True


def note_session(repl: Repl) -> asyncio.Future[None] | None:
    """If session notes are on: start appending one line about the conversation to `.decode/MEMORY.md`.

    The note is written in the background, from a copy of the history (a `/clear` right after does
    not wait for it); the task is in `repl.background`, which the REPL gives a few seconds when it
    leaves. None when nothing is noted: notes off (the default), no model, nothing done.
    """
    loop = repl.loop
    if loop is None or repl.settings is None or not repl.settings.session_notes:
        return None
    from decode.memory.summary import record_session, session_did_something

    if not session_did_something(loop.history):
        return None
    history, model = list(loop.history), loop.model
    repl.renderer.notice("memory: noting this session in .decode/MEMORY.md…")

    async def note() -> None:
        notice = await record_session(model, history, repl.workspace)
        if notice is not None:
            repl.renderer.notice(notice.message, notice.level)

    return repl.in_background(note())
