"""The memory files as part of the agent's instructions, rebuilt on every model request.

`memory_instructions` is a dynamic instructions function for the pydantic-ai agent: it reads
the files again each time, so an AGENTS.md edited between two turns (or by the agent itself
during a turn) is what the next request sees. Each file sits under a header naming its path,
so the model (and a user reading a transcript) knows where each rule comes from.
"""

from pathlib import Path

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.memory.files import MemoryFile, load_memory

PREAMBLE = """\
# Memory
The files below hold instructions from the user and notes about this project. Follow them.
When two disagree, the later file is more specific and wins."""

_SCOPE_LABELS = {"user": "user instructions", "project": "project instructions", "notes": "notes from earlier sessions"}


def display_path(path: Path, home: Path | None = None) -> str:
    """A path as a person would write it: `~/…` under the home directory, otherwise absolute."""
    home = home or Path.home()
    try:
        return f"~/{path.relative_to(home)}"
    except ValueError:
        return str(path)


def render_memory(files: list[MemoryFile], *, home: Path | None = None) -> str:
    """The instructions text for these files; empty when there are none."""
    if not files:
        return ""
    sections = [PREAMBLE]
    for file in files:
        header = f"## {display_path(file.path, home)} ({_SCOPE_LABELS[file.scope]})"
        body = file.text
        if file.omitted_lines:
            body = f"[{file.omitted_lines} older lines left out to keep this short; read the file for them.]\n{body}"
        sections.append(f"{header}\n{body}")
    return "\n\n".join(sections)


def memory_instructions(ctx: RunContext[AgentDeps]) -> str:
    """Dynamic instructions: the memory files of the launch directory (the Harness Home), read now.

    Memory belongs to where the user started decode, even when a sandbox moves the tools elsewhere.
    """
    return render_memory(load_memory(ctx.deps.harness_home))
