"""Answers from a language server as the model reads them: `path:line:column: line of code`.

Locations come back as URIs with 0-based UTF-16 positions; the model reads Workspace-relative
paths and the 1-based columns `read` uses, with the line of code there. A location is judged by
where its path really leads (symlinks followed): outside the Workspace it is counted, not shown
(the standard library, installed packages); in a file the Permission Gate hides from reads
(`deps.search_filter`: deny rules, secret files) it is dropped without a word, as grep drops it.
"""

import asyncio
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor
from decode.lsp.client import path_of
from decode.lsp.positions import Position, from_lsp, line_at
from decode.tools.paths import display_path

MAX_RESULTS = 100
SYMBOL_KINDS = [
    "file",
    "module",
    "namespace",
    "package",
    "class",
    "method",
    "property",
    "field",
    "constructor",
    "enum",
    "interface",
    "function",
    "variable",
    "constant",
    "string",
    "number",
    "boolean",
    "array",
    "object",
    "key",
    "null",
    "enum-member",
    "struct",
    "event",
    "operator",
    "type-parameter",
]


def locations(found: Any) -> list[tuple[str, Position]]:
    """Location, Location[] or LocationLink[] as (uri, start) pairs."""
    items = found if isinstance(found, list) else [found] if isinstance(found, dict) else []
    out = []
    for item in items:
        if "targetUri" in item:
            out.append((item["targetUri"], item.get("targetSelectionRange", item.get("targetRange"))["start"]))
        elif "uri" in item:
            out.append((item["uri"], item["range"]["start"]))
    return out


async def render(
    deps: AgentDeps, found: Iterable[tuple[str, Position]], what: str, labels: list[str] | None = None
) -> str:
    """`path:line:column: line of code` for each location the read rules let the model see."""
    executor = deps.executor
    workspace = executor.workspace
    wanted = [(path_of(uri), start, labels[i] if labels else "") for i, (uri, start) in enumerate(found)]
    # Judged by where a path really leads: a symlink inside the Workspace may point outside it.
    named = list({path for path, _, _ in wanted if path is not None})
    real = dict(zip(named, await asyncio.gather(*(real_path(executor, path) for path in named)), strict=True))
    inside = [
        (resolved, start, label)
        for path, start, label in wanted
        if path is not None and (resolved := real[path]) is not None and resolved.is_relative_to(workspace)
    ]
    outside = len(wanted) - len(inside)
    hidden = await deps.search_filter.hidden(list({path for path, _, _ in inside}))
    visible = [item for item in inside if item[0] not in hidden]
    texts = await executor.read_many(list({path for path, _, _ in visible}))
    lines = []
    for path, start, label in visible[:MAX_RESULTS]:
        text = texts.get(path, b"").decode("utf-8", errors="replace")
        number, column = from_lsp(line_at(text, start["line"] + 1), start)
        context = line_at(text, number).strip()
        prefix = f"{label} " if label else ""
        lines.append(f"{display_path(executor, path)}:{number}:{column}: {prefix}{context}")
    if len(visible) > MAX_RESULTS:
        lines.append(f"… and {len(visible) - MAX_RESULTS} more")
    if outside:  # the standard library, installed packages: where they are is not the model's to read
        lines.append(f"({outside} outside the working directory not shown)")
    return "\n".join(lines) if lines else f"No {what} found."


async def real_path(executor: CommandExecutor, path: Path) -> Path | None:
    try:
        return await executor.realpath(path)
    except (OSError, ValueError):
        return None


def hover_text(contents: Any) -> str:
    if isinstance(contents, str):
        return contents.strip()
    if isinstance(contents, dict):
        return str(contents.get("value", "")).strip()
    if isinstance(contents, list):
        return "\n\n".join(part for part in (hover_text(item) for item in contents) if part)
    return ""


def symbol_kind(number: Any) -> str:
    return SYMBOL_KINDS[number - 1] if isinstance(number, int) and 1 <= number <= len(SYMBOL_KINDS) else "symbol"
