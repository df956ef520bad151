"""Files the harness keeps, reached by the tools through an explicit `harness:` path.

Saved tool output lives in the Harness Home (`.decode/tool-output/`), not in the Workspace. With a
sandbox the Workspace is somewhere else, and its executor cannot see it. So what points the model
at such a file names it `harness:ROOT/PATH` (`harness:tool-output/20261201T…-grep-3f2a.txt`), and
`read` and `grep` open it on the harness side, with direct I/O confined to that root, never
through the Workspace's executor.

A root is a function of the deps and the rest of the path; a later part of decode adds one by
adding to `ROOTS`.
"""

from collections.abc import Callable
from pathlib import Path

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.processes.local import LocalExecutor
from decode.tools.paths import Refusal, display_path, resolve_path
from decode.tools.truncate import OUTPUT_DIR

PREFIX = "harness:"

HarnessRoot = Callable[[AgentDeps, str], tuple[Path, str]]
"""(deps, path after the root's name) -> (the folder it is confined to, the path inside it)."""

ROOTS: dict[str, HarnessRoot] = {
    "tool-output": lambda deps, rest: (deps.harness_home / OUTPUT_DIR, rest),
}


def is_harness_path(raw: str) -> bool:
    return raw.startswith(PREFIX)


def harness_prefix(raw: str) -> str:
    """`harness:ROOT/` for a harness path (what names inside it are shown under), else ""."""
    return f"{PREFIX}{raw.removeprefix(PREFIX).partition('/')[0]}/" if is_harness_path(raw) else ""


async def open_harness_path(deps: AgentDeps, raw: str) -> tuple[CommandExecutor, Path, str]:
    """The executor that reaches `raw` (a `harness:` path), the real path, confined to its root,
    and the `harness:` name to show the model."""
    name, _, rest = raw.removeprefix(PREFIX).partition("/")
    root = ROOTS.get(name)
    if root is None:
        known = ", ".join(f"{PREFIX}{key}/…" for key in ROOTS)
        raise Refusal(f"{raw} names no harness folder; the harness keeps {known}.")
    folder, inside = root(deps, rest)
    executor = LocalExecutor(folder)
    real = await resolve_path(executor, inside or ".")
    shown = display_path(executor, real)
    base = f"{PREFIX}{name}/{rest[: len(rest) - len(inside)]}"  # the root, and what picked the folder
    return executor, real, base + ("" if shown == "." else shown)


async def locate(deps: AgentDeps, raw: str) -> tuple[CommandExecutor, Path, str]:
    """Where a tool finds the file the model named: the executor that reaches it, its real path,
    and the name to show the model (a Workspace path, or the `harness:` path it came as)."""
    if not is_harness_path(raw):
        real = await resolve_path(deps.executor, raw)
        return deps.executor, real, display_path(deps.executor, real)
    return await open_harness_path(deps, raw)
