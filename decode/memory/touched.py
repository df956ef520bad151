"""The subfolders the agent has worked in, whose memory files join the instructions.

A `pkg/CLAUDE.md` (or `pkg/AGENTS.md`) speaks about `pkg/`: Claude Code reads it once the agent
reads a file there, not before, so a big repository's hundred folder notes do not all ride along
with every request. decode does the same, and counts as working in a folder:

- a tool call whose `path` argument is in it (read, write, edit, grep, glob, lsp: the file tools
  name their path `path`), or a file the Read Ledger knows (read or written this session);
- a command that starts by going there: `cd pkg && make test`.

The calls are read from the conversation (`ctx.messages`), so a resumed session has the folders it
had; the Read Ledger keeps them past a compaction. Folders outside the Workspace count for nothing.
"""

import re
import shlex
from collections.abc import Iterable, Sequence
from pathlib import Path

from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart

from decode.entities.deps import AgentDeps

_LEADING_CD = re.compile(r"^\s*cd\s+(.+?)\s*(?:&&|;|\n)")


def touched_folders(messages: Sequence[ModelMessage], deps: AgentDeps) -> tuple[Path, ...]:
    """The subfolders (relative to the Workspace, never `.`) worked in so far, in first-touch order."""
    workspace = deps.workspace
    # Once per distinct path: a long session names the same few files again and again.
    named = dict.fromkeys([*_named_paths(messages), *map(str, deps.read_ledger.stamps)])
    found: list[Path] = []
    for raw in named:
        folder = _folder_of(Path(raw), workspace, deps.harness_home)
        if folder is not None and folder not in found:
            found.append(folder)
    return tuple(found)


def _named_paths(messages: Sequence[ModelMessage]) -> Iterable[str]:
    """The paths tool calls name: `path` arguments and a command's leading `cd`."""
    for message in messages:
        if not isinstance(message, ModelResponse):
            continue
        for part in message.parts:
            if not isinstance(part, ToolCallPart):
                continue
            try:
                args = part.args_as_dict()
            except ValueError:  # a model's broken JSON: it named nothing usable
                continue
            if isinstance(path := args.get("path"), str) and ":" not in path.split("/", 1)[0]:
                yield path  # (`harness:skills/…` is decode's own file, not the project's)
            if isinstance(command := args.get("command"), str) and (folder := leading_cd(command)):
                yield folder


def leading_cd(command: str) -> str | None:
    """The folder a command starts by going to (`cd pkg && …`), None when it does not."""
    match = _LEADING_CD.match(command)
    if match is None:
        return None
    try:
        words = shlex.split(match.group(1))
    except ValueError:
        return None
    return words[0] if len(words) == 1 else None


def _folder_of(path: Path, workspace: Path, home: Path) -> Path | None:
    """The subfolder of `path` relative to the Workspace (a file's folder, or the folder itself)."""
    root = workspace.resolve()
    full = path if path.is_absolute() else root / path
    try:
        relative = Path(*full.resolve().relative_to(root).parts)
    except (ValueError, OSError, RuntimeError):  # RuntimeError: a symbolic link loop (Python 3.12)
        return None  # outside the Workspace, or nowhere
    # The memory lives in the launch directory (the same tree, unless a sandbox copied it elsewhere).
    try:
        folder = (home / relative).is_dir()
    except OSError:  # a name no file system takes (too long): the model named nothing there
        return None
    if not folder:
        relative = relative.parent
    return None if relative == Path() else relative
