"""`@path` in the REPL: the Workspace's files and folders completed as you type, attached on Enter.

- Typing `@` offers the Workspace's files and folders (a folder ends with `/`), best match first:
  the characters typed must appear in the path in order, any case (`@rdm` finds `README.md`); a
  name that starts with them comes first, then one that holds them, then a path that does, then
  the looser matches, shorter paths first. Files git ignores are not offered (`tools/listing.py`).
- The listing is bounded (`MAX_LISTED` paths, `LIST_TIMEOUT_S` seconds) and kept `REFRESH_S`
  seconds, and the completer is asynchronous: a huge repository delays the menu, never the typing.
  It lists through the conversation's executor, so it offers nothing until the warm-up is done.
- On Enter, `mentioned()` attaches what each `@path` names (`decode/tools/mentions.py`), tells the
  user about each one refused, and sends the prompt as typed with the attachments after it; the
  transcript shows the prompt as typed (`Message.display`), and under it a line for each mention
  attached or refused.
"""

from __future__ import annotations

import logging
import re
import time
from collections.abc import AsyncGenerator, Callable, Iterable, Sequence
from dataclasses import replace
from typing import TYPE_CHECKING

from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document

from decode.tools.listing import MAX_LISTED, list_files
from decode.tools.mention_text import absolute_paths, find_mentions

if TYPE_CHECKING:
    from decode.entities.executor import CommandExecutor
    from decode.entities.tools import ToolSpec
    from decode.harness.queue import Message
    from decode.permissions.gate import PermissionGate
    from decode.tools.mentions import Check
    from decode.tui.app import Repl

logger = logging.getLogger(__name__)

MAX_SHOWN = 50
"""Completions offered at once (the menu scrolls through them)."""
REFRESH_S = 5.0
"""How long a listing is used before the Workspace is listed again."""
_AT_CURSOR = re.compile(r'(?:^|(?<=[\s(\[{]))@(?:"([^"\n]*)|([^\s"]*))\Z')
_COMMAND_LINE = re.compile(r"\s*/[a-z][a-z0-9_:-]*(\s|$)")


def mention_at_cursor(before: str) -> tuple[str, int] | None:
    """The path typed so far in the mention that ends at the cursor, and how many characters follow its
    `@` (an opening quote included); None when the cursor is not in a mention."""
    found = _AT_CURSOR.search(before)
    if found is None:
        return None
    quoted = found.group(1)
    return (quoted, len(quoted) + 1) if quoted is not None else (found.group(2), len(found.group(2)))


def rank(query: str, paths: Iterable[str]) -> list[str]:
    """The paths matching `query` (its characters in order, any case), best first (see the module docstring);
    with nothing typed, the top of the tree first."""
    if not query:
        return sorted(paths, key=lambda path: (path.rstrip("/").count("/"), path.lower()))
    wanted = query.lower()
    loose = re.compile(".*?".join(map(re.escape, wanted)))
    scored = []
    for path in paths:
        lower = path.lower()
        if (found := loose.search(lower)) is None:
            continue
        name = lower.rstrip("/").rpartition("/")[2]
        if name.startswith(wanted):
            tier = 0
        elif wanted in name:
            tier = 1
        elif wanted in lower:
            tier = 2
        else:
            tier = 3 if loose.search(name) else 4
        scored.append((tier, found.end() - found.start(), len(path), lower, path))
    scored.sort()
    return [item[-1] for item in scored]


def with_folders(files: Sequence[str]) -> list[str]:
    """The files and every folder above them (`src/`, `src/lib/`)."""
    folders = {file[: end + 1] for file in files for end in _slashes(file)}
    return [*sorted(folders), *files]


def _slashes(path: str) -> list[int]:
    return [at for at, char in enumerate(path) if char == "/"]


class PathIndex:
    """The Workspace's files and folders for completion: listed when asked, kept `REFRESH_S` seconds."""

    def __init__(self) -> None:
        self.paths: list[str] = []
        self._listed: tuple[float, object] | None = None  # when, and of which workspace

    async def current(self, executor: CommandExecutor) -> list[str]:
        now = time.monotonic()
        if self._listed is not None and self._listed[1] == executor.workspace and now - self._listed[0] < REFRESH_S:
            return self.paths
        try:
            listing = await list_files(executor, executor.workspace, limit=MAX_LISTED)
        except (OSError, ValueError) as exc:  # a sandbox gone, say: nothing to offer, and no traceback
            logger.debug("listing the Workspace for @ failed: %s", exc)
            return []
        self.paths = with_folders(listing.paths)
        self._listed = (time.monotonic(), executor.workspace)
        return self.paths


class MentionCompleter(Completer):
    """Completes `@path` from the Workspace reached by `executor()` (None: not yet known)."""

    def __init__(self, executor: Callable[[], CommandExecutor | None]) -> None:
        self.executor = executor
        self.index = PathIndex()

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        return []  # listing the Workspace waits on the executor: only the asynchronous completer does it

    async def get_completions_async(
        self, document: Document, complete_event: CompleteEvent
    ) -> AsyncGenerator[Completion, None]:
        before = document.text_before_cursor
        typed = mention_at_cursor(before)
        executor = self.executor()
        if typed is None or executor is None or _COMMAND_LINE.match(before):  # a command's argument is no prompt
            return
        query, length = typed
        for path in rank(query, await self.index.current(executor))[:MAX_SHOWN]:
            if path != query:
                yield Completion(_inserted(path), start_position=-length, display=path)


def _inserted(path: str) -> str:
    """What a completion puts after `@`: the path (quoted if it has a space), and a space after a file."""
    text = f'"{path}"' if any(char.isspace() for char in path) else path
    return text if path.endswith("/") else text + " "


def mention_completer(repl: Repl) -> MentionCompleter:
    """The REPL's `@path` completer, on the conversation's executor once the warm-up has built it."""
    return MentionCompleter(lambda: repl.loop.deps.executor if repl.loop is not None else None)


async def mentioned(repl: Repl, message: Message) -> Message:
    """`message` with what its `@path`s name attached (each one refused is a line for the user)."""
    if not find_mentions(message.text) and not absolute_paths(message.text):
        return message
    await repl.warmed_up()  # the executor, the Read Ledger (and the gate) are the conversation's
    conversation = repl.conversation
    if conversation is None:
        return message
    from decode.tools.mentions import attach_mentions

    # [lesson 06]
    check = gate_check(conversation.gate)  # the Permission Gate decides, as for the model's own `read`
    # [before lesson 06]
    # check = None  # no Permission Gate yet: every file of the Workspace may be read
    # [/lesson 06]
    try:
        result = await attach_mentions(conversation.loop.deps, message.text, check, conversation.loop.model)
    except Exception as exc:  # the prompt still goes, as typed
        logger.debug("attaching mentions failed", exc_info=True)
        repl.renderer.error(f"@ mentions not attached: {exc}")
        return message
    notes = [(_attached(item.path, item.summary, item.image is not None), "info") for item in result.attached]
    notes += [(f"  ⎿ {line}", "warning") for line in result.refused]
    if repl.busy:  # into the running turn, most likely: echoed when the model has it, so the notes now
        for line, level in notes:
            repl.renderer.notice(line, level)
        notes = []
    return replace(message, text=result.text, notes=tuple(notes), images=tuple(result.images))


def _attached(path: str, summary: str, image: bool) -> str:
    """The line under the prompt for one attachment: `[image: shot.png]` for an image."""
    return f"  ⎿ [image: {path}] ({summary})" if image else f"  ⎿ attached {path} ({summary})"


def gate_check(gate: PermissionGate) -> Check:  # [lesson 06]
    """The Permission Gate's verdict on the call a mention stands for: only `allow` attaches. An `ask`
    has no one to ask here (the user typed a prompt, not an answer): it is refused, with its reason."""
    from decode.permissions.types import Decision

    async def check(spec: ToolSpec, args: dict[str, str]) -> str | None:
        verdict = await gate.check(spec.name, args, spec.traits)
        if verdict.decision is Decision.ALLOW:
            return None
        asks = verdict.decision is Decision.ASK
        return verdict.reason + (" (ask the agent to read it: it asks you first)" if asks else "")

    return check
