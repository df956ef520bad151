"""The `grep` tool: search file contents with a regular expression.

ripgrep does the work when it is installed; otherwise a pure-Python search over the same files
(`walk.py`) gives the same results. Three output modes:

- `files` (default): the files that match, newest first;
- `content`: the matching lines as `path:line:text`, with `context` lines around them as
  `path-line-text` and `--` between separate groups (ripgrep's and grep's own format);
- `count`: `path:count` of matching lines per file.

Binary files (a NUL byte in their first 64 KB) are skipped. A FIFO, socket or device is never
opened: named as the target it is refused before anything runs, and inside a folder ripgrep (and
the fallback, which lists regular files only) pass over it. Every search is bounded: ripgrep is
killed past `ripgrep.SEARCH_TIMEOUT_S`, the fallback stops at the same deadline between files, and
the model is told the search was cut short. Long results are shortened, with the full text saved
to a file (`truncate.py`).
"""

import re
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from pydantic_ai import ModelRetry, RunContext

from decode.config.redaction import redactor_for
from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor, EntryKind
from decode.entities.search_filter import SearchFilter, ShowAll
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.tools.glob import first_shown
from decode.tools.harness_files import harness_prefix, locate
from decode.tools.newest import newest_first
from decode.tools.paths import Refusal, check_text, display_path, stat_path
from decode.tools.ripgrep import SEARCH_TIMEOUT_S, relative, run_rg
from decode.tools.truncate import shorten
from decode.tools.walk import glob_matcher, walk_files

OutputMode = Literal["files", "content", "count"]
MAX_FILES = 100
MAX_LINE_CHARS = 500
BINARY_SNIFF_BYTES = 64 * 1024  # ripgrep's first buffer: a NUL in it makes a file binary
_LINE = re.compile(rb"^(\d+)([:-])(.*)$", re.DOTALL)


@dataclass(frozen=True)
class Query:
    pattern: str
    glob: str | None = None
    mode: OutputMode = "files"
    context: int = 0
    ignore_case: bool = False


@dataclass
class Matches:
    """What a search found, by file: line numbers with their text (True = a match, False = context)."""

    lines: dict[Path, list[tuple[int, bool, str]]] = field(default_factory=dict)
    counts: dict[Path, int] = field(default_factory=dict)
    cut_short: bool = False


async def search_rg(executor: CommandExecutor, rg: str, target: Path, is_dir: bool, query: Query) -> Matches:
    cwd, where = (target, ".") if is_dir else (target.parent, target.name)
    args = ["--null", "--with-filename", "--color=never"]
    if query.ignore_case:
        args.append("--ignore-case")
    if query.glob and "/" not in query.glob and not set(query.glob) & {":", ","}:
        # A file type, not `--glob`: a type narrows the search and keeps .gitignore rules, where a
        # glob would override them. Paths are still matched against the glob below.
        args += [f"--type-add=selected:{query.glob}", "--type=selected"]
    mode_args = {"files": ["--files-with-matches"], "count": ["--count"], "content": ["--line-number"]}[query.mode]
    if query.mode == "content" and query.context:
        mode_args.append(f"--context={query.context}")
    output = await run_rg(executor, rg, [*args, *mode_args, "--regexp", query.pattern, "--", where], cwd=cwd)
    if output.exit_code == 2 and not output.stdout:
        raise ModelRetry(f"grep failed: {output.stderr or 'ripgrep exited with an error'}")
    found = Matches(cut_short=output.cut_short)
    matches = glob_matcher(query.glob) if query.glob and is_dir else None
    if query.mode == "files":
        for raw in output.stdout.split(b"\0"):
            name = relative(raw.strip(b"\n"))
            if name and (matches is None or matches(name)):
                found.counts[cwd / name] = 1
        return found
    for row in output.stdout.split(b"\n"):
        name, nul, rest = row.partition(b"\0")
        if not nul:
            continue  # `--` group separators, "binary file matches" notes
        if matches is not None and not matches(relative(name)):
            continue
        path = cwd / relative(name)
        if query.mode == "count":
            if rest.strip().isdigit():  # not a "binary file matches" note
                found.counts[path] = int(rest)
        elif parsed := _LINE.match(rest):
            number, kind, text = parsed.groups()
            found.lines.setdefault(path, []).append((int(number), kind == b":", _text(text)))
    return found


def _text(raw: bytes) -> str:
    return raw.decode("utf-8", errors="replace").removesuffix("\r")


def _search_file(data: bytes, regex: re.Pattern[str], context: int) -> list[tuple[int, bool, str]]:
    if b"\0" in data[:BINARY_SNIFF_BYTES]:
        return []
    rows = data.removeprefix(b"\xef\xbb\xbf").split(b"\n")
    if rows and rows[-1] == b"":
        rows.pop()
    texts: list[str] = []
    for raw in rows:
        if b"\0" in raw:  # ripgrep stops at the first NUL byte past its first buffer
            break
        texts.append(raw.decode("utf-8", errors="replace"))
    hits = [index for index, text in enumerate(texts) if regex.search(text)]
    shown: dict[int, bool] = {}
    for index in hits:
        for near in range(max(0, index - context), min(len(texts), index + context + 1)):
            shown.setdefault(near, False)
        shown[index] = True
    return [(index + 1, shown[index], texts[index].removesuffix("\r")) for index in sorted(shown)]


async def search_python(executor: CommandExecutor, target: Path, is_dir: bool, query: Query) -> Matches:
    """The same search in pure Python (Python's `re` for the pattern); files are read in one batch."""
    try:
        regex = re.compile(query.pattern, re.IGNORECASE if query.ignore_case else 0)
    except re.error as exc:
        raise ModelRetry(f"grep failed: invalid regular expression: {exc}") from None
    if is_dir:
        matches = glob_matcher(query.glob) if query.glob else None
        files = [
            path
            for path in await walk_files(executor, target)
            if matches is None or matches(path.relative_to(target).as_posix())
        ]
    else:
        files = [target]
    contents = await executor.read_many(files)
    found = Matches()
    deadline = time.monotonic() + SEARCH_TIMEOUT_S
    for path in files:
        if time.monotonic() > deadline:  # as ripgrep is stopped: what was found so far, cut short
            found.cut_short = True
            break
        if (data := contents.get(path)) is None:
            continue  # unreadable: ripgrep skips it quietly too
        lines = _search_file(data, regex, query.context if query.mode == "content" else 0)
        if count := sum(1 for _, is_match, _ in lines if is_match):
            found.counts[path] = count
            if query.mode == "content":
                found.lines[path] = lines
    return found


async def withhold(search_filter: SearchFilter, found: Matches) -> None:
    """Drop the files `search_filter` hides from a search.

    Silently: a note that a hidden file matched would tell the model one bit of its content per
    search, enough to read a key out of `.env` one guess at a time.
    """
    hidden = await search_filter.hidden(list({*found.counts, *found.lines}))
    for path in hidden:
        found.counts.pop(path, None)
        found.lines.pop(path, None)


def _plural(count: int, noun: str) -> str:
    return f"{count:,} {noun}{'' if count == 1 else 's'}"


async def render(
    executor: CommandExecutor,
    found: Matches,
    mode: OutputMode,
    prefix: str = "",
    search_filter: SearchFilter | None = None,
) -> str:
    """The model's view of the matches (see the module docstring for the formats).

    `prefix` goes before every path: the `harness:` root when the search was in the harness's files.
    The files mode shows the newest `MAX_FILES` that `search_filter` lets through (it asks about
    those only, as `glob` does); the other modes show every file, already `withhold`-en.
    """
    if mode == "files":
        newest = await newest_first(executor, list(found.counts))
        paths, more = await first_shown(search_filter or ShowAll(), newest, MAX_FILES)
        lines = [prefix + display_path(executor, path) for path in paths]
        if more:
            lines.append("[more files not shown; narrow the pattern, path or glob]")
        return "\n".join(lines)
    if mode == "count":
        rows = sorted((prefix + display_path(executor, path), count) for path, count in found.counts.items())
        total = sum(count for _, count in rows)
        summary = f"[{_plural(total, 'matching line')} in {_plural(len(rows), 'file')}]"
        return "\n".join([*(f"{name}:{count}" for name, count in rows), summary])
    out: list[str] = []
    for name, lines in sorted((prefix + display_path(executor, path), lines) for path, lines in found.lines.items()):
        previous = None
        for number, is_match, text in lines:
            if previous is not None and number != previous + 1:
                out.append("--")
            if len(text) > MAX_LINE_CHARS:
                text = text[:MAX_LINE_CHARS] + "…"
            out.append(f"{name}{':' if is_match else '-'}{number}{':' if is_match else '-'}{text}")
            previous = number
        out.append("--")
    return "\n".join(out[:-1])


async def find_matches(executor: CommandExecutor, target: Path, query: Query, *, use_rg: bool = True) -> Matches:
    """Search `target` (a file or a directory) with ripgrep when it is there, else in Python."""
    try:
        stat = await executor.stat(target)
    except OSError:
        stat = None
    if stat is not None and stat.kind is EntryKind.OTHER:
        return Matches()  # a FIFO or a device is never searched (it could block forever)
    is_dir = stat is not None and stat.is_dir
    rg = await executor.which("rg") if use_rg else None
    if rg is not None:
        return await search_rg(executor, rg, target, is_dir, query)
    return await search_python(executor, target, is_dir, query)


def _where(executor: CommandExecutor, path: Path, prefix: str = "") -> str:
    shown = display_path(executor, path)
    if prefix:
        return prefix + ("" if shown == "." else shown)
    return "the working directory" if shown == "." else shown


async def grep(
    ctx: RunContext[AgentDeps],
    pattern: str,
    path: str = ".",
    glob: str | None = None,
    output_mode: OutputMode = "files",
    context: int = 0,
    ignore_case: bool = False,
) -> str:
    """Search file contents with a regular expression (ripgrep syntax). Skips .gitignored files.

    Args:
        pattern: Regular expression, e.g. `def \\w+_tool` or `TODO`.
        path: File or directory to search, relative to the working directory.
        glob: Only files matching this glob, e.g. `*.py` (any depth) or `src/**/*.ts`.
        output_mode: `files` (matching files, newest first), `content` (matching lines) or `count`.
        context: Lines of context around each match (content mode).
        ignore_case: Match regardless of case.
    """
    if not pattern:
        raise ModelRetry("The pattern is empty.")
    check_text(pattern, "pattern")
    if glob is not None:
        check_text(glob, "glob")
    if context < 0:
        raise ModelRetry("context must be 0 or more.")
    executor, target, shown = await locate(ctx.deps, path)
    prefix = harness_prefix(path)
    stat = await stat_path(executor, target, shown)
    if stat is None:
        raise Refusal(f"{path} does not exist; give a file or directory inside the working directory.")
    if stat.kind is EntryKind.OTHER:  # ripgrep would wait on a FIFO, or read a device forever
        raise Refusal(f"{path} is not a regular file (a pipe, socket or device); grep searches files and folders.")
    query = Query(pattern, glob, output_mode, context, ignore_case)
    found = await find_matches(executor, target, query)
    if output_mode != "files":  # these modes show every file: each is asked about
        await withhold(ctx.deps.search_filter, found)
    text = (
        await render(executor, found, output_mode, prefix, ctx.deps.search_filter)
        if found.counts or found.lines
        else ""
    )
    if not text:
        return f"No matches for {pattern} in {_where(executor, target, prefix)}."
    if found.cut_short:
        text += "\n[the search produced too much output and was cut short; narrow the pattern, path or glob]"
    settings = ctx.deps.settings
    return shorten(
        text,
        settings.tool_output_limit,
        harness_home=ctx.deps.harness_home,
        label="grep",
        redactor=redactor_for(settings),
    )


GREP = ToolSpec("grep", grep, ToolTraits(ToolKind.READ_ONLY, rules=("Grep", "Read"), path="path", searches=True))
