"""The `lsp` tool: what a language server knows about the code, where grep only sees text.

`definition`, `references` and `hover` take a position, 1-based like `read`'s line numbers (or a
`symbol` name, looked up in the file); `symbols` lists a file's outline, `workspace_symbols`
finds a name anywhere, `diagnostics` gives a file's errors now. Results are `path:line:column`
and the line there. Files outside the Workspace, or hidden by the Permission Gate's read rules
(secret files), are left out of the results. When no server handles the file, or its server
failed, the answer says so and points the model at read and grep.
"""

import re
from pathlib import Path
from typing import Any, Literal

from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.lsp.client import LspClient, path_of
from decode.lsp.diagnostics import SEVERITIES, EditCheck, describe, problems
from decode.lsp.jsonrpc import ResponseError
from decode.lsp.manager import LspManager, LspUnavailable
from decode.lsp.positions import Position, from_lsp, line_at, line_count, to_lsp
from decode.lsp.results import MAX_RESULTS, hover_text, locations, render, symbol_kind
from decode.tools.paths import Refusal, describe_os_error, display_path, resolve_path, stat_path
from decode.tools.text import SNIFF_BYTES, binary_kind

Operation = Literal["definition", "references", "hover", "symbols", "workspace_symbols", "diagnostics"]
POSITIONAL = {"definition", "references", "hover"}
MAX_FILE_BYTES = 4 * 1024 * 1024
MAX_HOVER_CHARS = 4000
NO_SERVER = "No language server is running for this conversation. Use read, grep and glob instead."


async def lsp(
    ctx: RunContext[AgentDeps],
    operation: Operation,
    path: str = ".",
    line: int | None = None,
    character: int | None = None,
    symbol: str | None = None,
    query: str | None = None,
) -> str:
    """Ask the language server (type checker) about code: semantics, not text.

    definition / references / hover: at `line` and `character` (1-based, as read numbers lines),
    or at the first place `symbol` is named in the file. symbols: the file's outline.
    workspace_symbols: where `query` names something anywhere in the project. diagnostics: the
    file's errors now. Results are path:line:column and the line of code there.

    Args:
        operation: definition, references, hover, symbols, workspace_symbols or diagnostics.
        path: The file (relative to the working directory); "." for workspace_symbols.
        line: 1-based line, for definition, references and hover.
        character: 1-based column on that line.
        symbol: Instead of line/character: a name in the file to ask about.
        query: The name to look for, for workspace_symbols.
    """
    manager = ctx.deps.lsp
    if not isinstance(manager, LspManager):
        return NO_SERVER
    executor = ctx.deps.executor
    real = await resolve_path(executor, path)
    if operation == "workspace_symbols":
        if not query:
            raise ModelRetry("workspace_symbols needs a query: the name (or part of it) to look for.")
        anchor = real if manager.spec_for(real) is not None else executor.workspace / "any.py"
        return await _answer(manager, anchor, lambda client: _workspace_symbols(ctx.deps, client, query))
    shown = display_path(executor, real)
    text = await _source(ctx.deps, real, shown)
    if operation == "symbols":
        return await _answer(manager, real, lambda client: _symbols(client, real, text, shown))
    if operation == "diagnostics":
        return await _answer(manager, real, lambda client: _diagnostics(client, real, text, shown))
    if operation not in POSITIONAL:
        raise ModelRetry(f"Unknown operation {operation!r}: use one of {', '.join(Operation.__args__)}.")  # type: ignore[attr-defined]
    position = _position(text, shown, line, character, symbol)
    return await _answer(manager, real, lambda client: _at(ctx.deps, client, operation, real, text, position))


async def _answer(manager: LspManager, path: Path, action: Any) -> str:
    try:
        return await manager.run(path, action)
    except LspUnavailable as exc:
        return str(exc)
    except ResponseError as exc:
        raise Refusal(f"The language server could not answer: {exc}.") from None


async def _source(deps: AgentDeps, real: Path, shown: str) -> str:
    """The text of the file asked about, or a `Refusal` saying why the server cannot be asked."""
    executor = deps.executor
    stat = await stat_path(executor, real, shown)
    if stat is None:
        raise Refusal(f"{shown} does not exist. Use glob to find files.")
    if not stat.is_file:
        raise Refusal(f"{shown} is not a regular file; lsp answers about source files.")
    if stat.size > MAX_FILE_BYTES:
        raise Refusal(f"{shown} is {stat.size:,} bytes; lsp reads source files up to 4 MB. Use grep.")
    try:
        data = await executor.read_bytes(real)
    except OSError as exc:
        raise Refusal(f"Could not read {shown}: {describe_os_error(exc)}.") from None
    if (kind := binary_kind(real, data[:SNIFF_BYTES])) is not None:
        raise Refusal(f"{shown} is not a text file ({kind}); lsp answers about source files.")
    return data.decode("utf-8", errors="replace")


def _position(text: str, shown: str, line: int | None, character: int | None, symbol: str | None) -> Position:
    if symbol:
        match = re.search(rf"(?<![\w]){re.escape(symbol)}(?![\w])", text)
        if match is None:
            raise Refusal(f"{symbol!r} does not appear in {shown}. Use workspace_symbols to find where it is.")
        before = text[: match.start()]
        number = before.count("\n") + 1
        return to_lsp(line_at(text, number), number, match.start() - (before.rfind("\n") + 1) + 1)
    if line is None:
        raise ModelRetry("Give line and character (1-based), or symbol: the name to ask about.")
    lines = line_count(text)
    if not 1 <= line <= max(lines, 1):
        raise Refusal(f"line {line} is outside {shown}, which has {lines:,} lines.")
    content = line_at(text, line)
    column = character or 1
    if not 1 <= column <= len(content) + 1:
        raise Refusal(f"character {column} is outside line {line} of {shown}, which has {len(content)} characters.")
    return to_lsp(content, line, column)


async def _at(deps: AgentDeps, client: LspClient, operation: str, real: Path, text: str, position: Position) -> str:
    await client.sync(real, text)
    if operation == "hover":
        # A hover shows the definition's signature and docstring: not from a file the rules hide.
        defined = [path_of(uri) for uri, _ in locations(await client.at("textDocument/definition", real, position))]
        if await deps.search_filter.hidden([path for path in defined if path is not None and path != real]):
            raise Refusal("That name is defined in a file the permission rules keep from reads.")
        result = await client.at("textDocument/hover", real, position)
        shown = hover_text(result.get("contents") if isinstance(result, dict) else None)
        return shown[:MAX_HOVER_CHARS] if shown else "No information at that position (try the name itself)."
    if operation == "definition":
        found = await client.at("textDocument/definition", real, position)
    else:
        found = await client.at("textDocument/references", real, position, context={"includeDeclaration": True})
    found_at = locations(found)
    if not found_at:
        return f"No {operation} found at that position (put it on the name itself, or use symbol)."
    return await render(deps, found_at, operation)


async def _symbols(client: LspClient, real: Path, text: str, shown: str) -> str:
    await client.sync(real, text)
    lines: list[str] = []

    def walk(items: list[dict[str, Any]], depth: int) -> None:
        for item in items:
            start = (item.get("selectionRange") or item.get("range") or item.get("location", {}).get("range"))["start"]
            number, column = from_lsp(line_at(text, start["line"] + 1), start)
            lines.append(f"{'  ' * depth}{number}:{column} {symbol_kind(item.get('kind'))} {item.get('name')}")
            walk(item.get("children") or [], depth + 1)

    walk(await client.document_symbols(real), 0)
    return f"{shown}:\n" + "\n".join(lines[:500]) if lines else f"{shown} defines no symbols."


async def _workspace_symbols(deps: AgentDeps, client: LspClient, query: str) -> str:
    found = await client.workspace_symbols(query)
    # Exact names first: servers match fuzzily (`LspClient` also finds `test_lsp_client_…`).
    found.sort(key=lambda item: (item.get("name") != query, query.lower() not in str(item.get("name", "")).lower()))
    where, labels = [], []
    for item in found:
        location = item.get("location", {})
        if "uri" in location and "range" in location:
            where.append((location["uri"], location["range"]["start"]))
            labels.append(f"{symbol_kind(item.get('kind'))} {item.get('name')}:")
    if not where:
        return f"No symbol matches {query!r}."
    return await render(deps, where, f"symbol matching {query!r}", labels)


async def _diagnostics(client: LspClient, real: Path, text: str, shown: str) -> str:
    await client.sync(real, text)
    found = problems(real, text, await client.diagnostics(real))
    if not found:
        return f"{shown}: no problems found."
    counts = ", ".join(
        f"{count} {name}{'' if count == 1 or name == 'info' else 's'}"
        for s, name in SEVERITIES.items()
        if (count := sum(1 for p in found if p.severity == s))
    )
    return "\n".join([f"{shown}: {counts}", *(describe(problem, shown) for problem in found[:MAX_RESULTS])])


LSP = ToolSpec("lsp", lsp, ToolTraits(ToolKind.READ_ONLY, rules=("Lsp", "Read"), path="path"))


async def check_before_edit(deps: AgentDeps, path: Path, text: str | None = None) -> EditCheck | None:
    """Before `write` or `edit` changes `path` (whose content is `text`, else read): the errors it has now.

    None when there is nothing to compare (no code intelligence, or no server for the file).
    Never raises: a server's failure becomes a short note in the edit's result.
    """
    manager = deps.lsp
    if not isinstance(manager, LspManager):
        return None
    return await EditCheck.start(manager, deps.executor, path, text, timeout=deps.settings.lsp_edit_timeout)


async def new_errors_note(check: EditCheck | None, text: str) -> str:
    """After the edit: the errors that are new, to append to its result ("" when none)."""
    return await check.finish(text) if check is not None else ""
