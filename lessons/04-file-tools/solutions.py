"""Reference solution of lesson 04's exercise (and the mistake its check catches)."""

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.paths import resolve_path

TRAITS = ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path")


async def count_file_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a text file of the project.

    Args:
        path: File path, relative to the working directory.
    """
    executor = ctx.deps.executor
    real = await resolve_path(executor, path)  # a ModelRetry for anything outside the Workspace
    data = await executor.read_bytes(real)
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


async def unconfined_count_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a text file of the project."""
    data = await ctx.deps.executor.read_bytes(ctx.deps.workspace / path)  # `..` walks out
    return data.count(b"\n") + (1 if data and not data.endswith(b"\n") else 0)


# The exercise is the declaration: the ToolSpec, whose function the model calls as `count_lines`.
count_lines = ToolSpec("count_lines", count_file_lines, TRAITS)
wrong_count_lines = ToolSpec("count_lines", unconfined_count_lines, TRAITS)
