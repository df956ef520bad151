"""`todo_write`: the agent's To-do List, rewritten whole on every call, and shown to the model again.

The list lives in `deps.todos` (one list per conversation; the Session Log writes it with each
turn). Rewriting it whole keeps the tool trivial for the model: there is no item id to get wrong.
At most one step is `in_progress`: the list says what the agent is doing *now*.
"""

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.todos import Todo, TodoStatus, checklist, progress_line
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits

MAX_TODOS = 50


async def todo_write(ctx: RunContext[AgentDeps], todos: list[Todo]) -> str:
    """Replace your to-do list with `todos`. Use it for any task of three steps or more: write
    the steps first, mark one `in_progress` when you start it and `completed` as soon as it is
    done, add steps you discover. Send the whole list every time. An empty list clears it.

    Args:
        todos: Every step, in order, each with its status: `pending`, `in_progress` or `completed`.
    """
    working = [todo.content for todo in todos if todo.status is TodoStatus.IN_PROGRESS]
    if len(working) > 1:
        raise ModelRetry(
            f"{len(working)} steps are in_progress ({'; '.join(working)}): keep exactly one in_progress, "
            "mark the others pending or completed, and send the whole list again."
        )
    if len(todos) > MAX_TODOS:
        raise ModelRetry(f"{len(todos)} steps is too many: keep the list under {MAX_TODOS}, merging small steps.")
    ctx.deps.todos[:] = todos  # in place: the session holds the same list
    if not todos:
        return "The to-do list is empty."
    return f"To-do list updated ({progress_line(todos)}):\n{checklist(todos)}"


def todo_instructions(ctx: RunContext[AgentDeps]) -> str:
    """Dynamic instructions: the list as it stands, so a resumed or compacted conversation still has it."""
    todos = ctx.deps.todos
    if not todos:
        return ""
    return f"Your to-do list ({progress_line(todos)}; update it with todo_write):\n{checklist(todos)}"


TODO_WRITE = ToolSpec("todo_write", todo_write, ToolTraits(ToolKind.SIDE_EFFECT_FREE), max_retries=3)
