"""Reference solution of lesson 04's exercise (and the mistake its check catches)."""

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.paths import resolve_path

TRAITS = ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path")


async def first_lines(ctx: RunContext[AgentDeps], path: str, n: int = 10) -> str:
    """The first lines of a text file of the project, as they are in the file.

    Args:
        path: File path, relative to the working directory.
        n: How many lines.
    """
    executor = ctx.deps.executor
    real = await resolve_path(executor, path)  # a ModelRetry for anything outside the Workspace
    text = (await executor.read_bytes(real)).decode("utf-8", errors="replace")
    return "".join(text.splitlines(keepends=True)[:n])


async def first_lines_from_disk(ctx: RunContext[AgentDeps], path: str, n: int = 10) -> str:
    """The first lines of a text file of the project (the mistake: confined, but read with `open()`)."""
    real = await resolve_path(ctx.deps.executor, path)
    return "".join(real.read_text().splitlines(keepends=True)[:n])  # this machine's disk, not the Workspace


# The exercise is the declaration: the ToolSpec, whose function the model calls as `head`.
head = ToolSpec("head", first_lines, TRAITS)
wrong_head = ToolSpec("head", first_lines_from_disk, TRAITS)
