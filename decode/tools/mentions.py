"""Mentions: `@path` in a prompt attaches that file (or folder) of the Workspace to it.

`fix the bug in @calc.py` sends the prompt as typed and, after it, `calc.py` as the `read` tool
would show it: the same numbered lines, the same page (2,000 lines / 50 KB, a note saying how to
read on), the same refusals. It *is* a read: the file goes into the Read Ledger, so the model can
`edit` it at once. A folder (`@src/`) sends its entries, files and folders, at most `MAX_ENTRIES`,
as `glob` would show them (what git ignores is left out, and so is what the Search Filter hides).

What may be attached is what the model could read: a path outside the Workspace, a binary file, a
FIFO are refused, and so is whatever `check` refuses (the REPL's is the Permission Gate, lesson 06:
`.env`, a deny rule). A refused mention is one line for the user, and nothing of it is sent. A
mention that names nothing stays text. At most `MAX_ATTACHED` a prompt; decode's own keys are
redacted from what is attached. Where the mentions are and the form the model gets them in:
`mention_text.py`.
"""

import posixpath
import re
from collections.abc import Awaitable, Callable
from dataclasses import dataclass, field
from pathlib import Path

from pydantic_ai import ModelRetry
from pydantic_ai.messages import BinaryImage
from pydantic_ai.models import AbstractModel

from decode.config.redaction import redactor_for
from decode.entities.deps import AgentDeps
from decode.entities.executor import CommandExecutor, EntryKind, FileStat
from decode.entities.tools import ToolSpec
from decode.tools.glob import GLOB, first_shown
from decode.tools.images import IMAGE_SUFFIXES, read_image
from decode.tools.listing import list_files
from decode.tools.mention_text import (
    Attachment,
    absolute_paths,
    candidates,
    file_block,
    find_mentions,
    folder_block,
    image_block,
    with_attachments,
)
from decode.tools.paths import Refusal, display_path, resolve_path, stat_path
from decode.tools.read import READ, read_page
from decode.tools.text import SNIFF_BYTES, binary_kind

MAX_ATTACHED = 10
"""Files and folders one prompt attaches; a mention past them stays text, and the user is told."""
MAX_ENTRIES = 100
"""Entries of one folder sent (as many as `glob` shows); a note says when there are more."""
FOLDER_WALK_S = 2.0
"""The longest a folder's listing may take (ripgrep's walk of a huge tree)."""
Check = Callable[[ToolSpec, dict[str, str]], Awaitable[str | None]]
"""Would this call of a tool be allowed? None when it would, else why not (the REPL asks its gate)."""


@dataclass(frozen=True)
class Refused:
    """A mention that names something not attached: the path as it was found, and why."""

    path: str
    why: str


@dataclass
class Mentioned:
    """A prompt with its mentions attached: `text` is what the model gets."""

    text: str
    attached: list[Attachment] = field(default_factory=list)
    refused: list[str] = field(default_factory=list)
    """One line for the user per mention not attached, and why (`@.env not attached: …`)."""

    @property
    def images(self) -> list[BinaryImage]:
        """The images attached: they go to the model after `text`."""
        return [item.image for item in self.attached if item.image is not None]


async def attach_mentions(
    deps: AgentDeps, prompt: str, check: Check | None = None, model: AbstractModel | str | None = None
) -> Mentioned:
    """`prompt` with the files and folders its mentions name attached; `check` None allows every read.

    An image file (`@shot.png`, or a pasted absolute path of one) is attached as the image, if `model`
    takes images (None: taken to); a pasted path that is no image stays text, without a word.
    """
    result = Mentioned(prompt)
    seen: set[str] = set()
    pasted = [(mention, True) for mention in absolute_paths(prompt)]
    for mention, bare in [(mention, False) for mention in find_mentions(prompt)] + pasted:
        if len(result.attached) == MAX_ATTACHED:  # not even looked at: a read would be recorded
            result.refused.append(f"@{mention.path} not looked at: a prompt attaches at most {MAX_ATTACHED}")
            continue
        found = await attach(deps, mention.path, check, model)
        if bare and not _image_or_named_so(found, mention.path):
            continue  # a pasted path of a text file, a folder, nothing: text
        if found is None or (isinstance(found, Attachment) and found.path in seen):
            continue  # names nothing (it stays text), or attached already
        if isinstance(found, Refused):
            result.refused.append(f"{'' if bare else '@'}{found.path} not attached: {found.why}")
        else:
            seen.add(found.path)
            result.attached.append(found)
    result.text = with_attachments(prompt, result.attached)
    return result


def _image_or_named_so(found: Attachment | Refused | None, path: str) -> bool:
    if isinstance(found, Attachment):
        return found.image is not None
    return found is not None and path.lower().endswith(IMAGE_SUFFIXES)


async def attach(
    deps: AgentDeps, written: str, check: Check | None = None, model: AbstractModel | str | None = None
) -> Attachment | Refused | None:
    """The attachment `@written` makes, or why there is none; None when it names nothing (it stays text)."""
    for path in candidates(written):
        try:
            located = await _locate(deps.executor, path)
            if located is None:
                continue
            real, stat = located
            if check is not None and (why := await check(GLOB if stat.is_dir else READ, _arguments(path, stat))):
                return Refused(path, why)
            if stat.is_dir:
                return await _folder(deps, real)
            made = await _image(deps, path, model) or await _file(deps, path, real, stat)
            return Refused(path, made) if isinstance(made, str) else made
        except (Refusal, OSError, ValueError) as exc:  # refused like a read, or the system would not look
            return Refused(path, str(exc).rstrip("."))
    return None


def _arguments(path: str, stat: FileStat) -> dict[str, str]:
    """The call the attachment stands for: `read(path)`, or `glob("*", path)` for a folder."""
    return {"pattern": "*", "path": path} if stat.is_dir else {"path": path}


async def _locate(executor: CommandExecutor, path: str) -> tuple[Path, FileStat] | None:
    """The real path and stat `path` names in the Workspace; None when it names nothing; a `Refusal` when
    it names something the tools may not use (outside the Workspace)."""
    try:
        real = await resolve_path(executor, path)
    except Refusal:
        try:
            there = await executor.stat(Path(posixpath.normpath(executor.workspace / path)))
        except (OSError, ValueError):
            there = None
        if there is None:
            return None  # `@../nothing` is text, not a refusal
        raise
    except ModelRetry:  # text no path can hold (a NUL byte, a name over 255 bytes): text
        return None
    stat = await stat_path(executor, real, path)
    return None if stat is None else (real, stat)


async def _image(deps: AgentDeps, path: str, model: AbstractModel | str | None) -> Attachment | str | None:
    """The attachment of an image file (None when `path` is no image); a one-line reason when it is
    one the model is not sent."""
    found = await read_image(deps, path, model)  # records it in the Read Ledger
    if found is None or isinstance(found, str):
        return found
    line, image = found
    assert isinstance(line, str)
    assert isinstance(image, BinaryImage)
    shown = image.identifier
    return Attachment(shown, image_block(shown, line), line.partition(": ")[2].rstrip("."), image)


async def _file(deps: AgentDeps, path: str, real: Path, stat: FileStat) -> Attachment | str:
    shown = display_path(deps.executor, real)
    if stat.kind is EntryKind.OTHER:
        return f"{shown} is not a regular file (a pipe, socket or device)"
    if (kind := binary_kind(real, await deps.executor.read_bytes(real, 0, SNIFF_BYTES))) is not None:
        return f"{shown} is not a text file ({kind}, {stat.size:,} bytes)"
    text = redactor_for(deps.settings).text(await read_page(deps, path))  # records it in the Read Ledger
    lines = len(re.findall(r"^ *\d+\t", text, re.MULTILINE))
    more = "; more follow: read with offset=" in text.rpartition("\n")[2]
    summary = f"{lines:,} lines" + (", more follow" if more else "")
    return Attachment(shown, file_block(shown, text), summary)


async def _folder(deps: AgentDeps, real: Path) -> Attachment:
    executor = deps.executor
    names = await list_files(executor, real, max_seconds=FOLDER_WALK_S)
    children = sorted({name.partition("/")[0] + ("/" if "/" in name else "") for name in names.paths})
    entries, more = await first_shown(deps.search_filter, [real / child for child in children], MAX_ENTRIES)
    folders = {real / child.rstrip("/") for child in children if child.endswith("/")}
    lines = [display_path(executor, entry) + ("/" if entry in folders else "") for entry in entries]
    if more or names.cut_short:
        lines.append("[more entries not shown; mention a folder inside, or use glob]")
    name = "./" if real == executor.workspace else display_path(executor, real) + "/"
    summary = f"{len(entries):,} entries" + (", more not shown" if more or names.cut_short else "")
    body = "\n".join(lines) or "(no files here that git does not ignore)"
    return Attachment(name, folder_block(name, redactor_for(deps.settings).text(body)), summary)
