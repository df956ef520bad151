"""Mentions in a prompt's text: where the `@path`s are, and the form of what they attach.

A mention is `@` at the start of the prompt, after a space or an opening bracket, then the path up
to the next space; `@"a b.txt"` quotes one with spaces. `me@example.com` is no mention. A path that
names nothing stays text (`@alice`), and the punctuation ending a sentence is not part of a path
(`see @calc.py.`): `candidates` gives both readings, `mentions.py` keeps the one that exists.

What the model receives (`with_attachments`): the prompt exactly as typed, then one `<mentions>`
element, a line saying what it holds, and a `<file path="…">` or `<folder path="…/">` per
attachment. Everything before that element is the prompt as typed (`typed_part`): what the
transcript, a resumed session and the session list show. This module imports nothing heavy: the
REPL uses it before the agent is loaded.
"""

from __future__ import annotations

import html
import re
from dataclasses import dataclass
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic_ai.messages import BinaryImage

OPEN = "\n\n<mentions>\n"
NOTE = (
    "The user attached these with @ in the prompt: each file as the read tool shows it (it counts "
    "as read), each folder's entries.\n"
)
CLOSE = "</mentions>"
_MENTION = re.compile(r'(?:^|(?<=[\s(\[{]))@(?:"([^"\n]+)"|([^\s"]+))')
_TRAILING = ",;:!?)]}'"
_ABSOLUTE = re.compile(r"(?:^|(?<=\s))(/[^\s@\"]+)")


@dataclass(frozen=True)
class Mention:
    """One `@path` of a prompt: where it is, and the path as written (without quotes)."""

    start: int
    end: int
    path: str


@dataclass(frozen=True)
class Attachment:
    """What one mention attaches: its path as the model writes it, the block it gets, a few words on it."""

    path: str
    block: str
    summary: str
    image: BinaryImage | None = None
    """An image file's bytes: they go to the model after the prompt's text."""


def find_mentions(text: str) -> list[Mention]:
    """The `@path` mentions of `text`, in order."""
    if "@" not in text:
        return []
    return [Mention(m.start(), m.end(), m.group(1) or m.group(2)) for m in _MENTION.finditer(text)]


def absolute_paths(text: str) -> list[Mention]:
    """Whole words of `text` that are absolute paths (`/tmp/shot.png`, pasted or dropped): an image
    file among them is attached like an `@path` mention."""
    return [Mention(m.start(), m.end(), m.group(1)) for m in _ABSOLUTE.finditer(text.split(OPEN, 1)[0])]


def candidates(path: str) -> list[str]:
    """What a mention may name: the path as written, then without the punctuation ending a sentence."""
    bare = path.rstrip(_TRAILING)
    if bare.endswith(".") and not bare.endswith(".."):
        bare = bare.rstrip(".")
    return [path] if bare in ("", path) else [path, bare]


def file_block(path: str, text: str) -> str:
    return f'<file path="{_attribute(path)}">\n{text}\n</file>\n'


def image_block(path: str, line: str) -> str:
    return f'<image path="{_attribute(path)}">{html.escape(line, quote=False)} (sent after this text)</image>\n'


def folder_block(path: str, entries: str) -> str:
    return f'<folder path="{_attribute(path)}">\n{entries}\n</folder>\n'


def _attribute(path: str) -> str:
    """A path as an attribute's value: a file named `a"><b` cannot end the tag early."""
    return html.escape(path, quote=True)


def with_attachments(prompt: str, attached: list[Attachment]) -> str:
    """What the model receives: the prompt as typed, then the attachments in one `<mentions>` element."""
    if not attached:
        return prompt
    return prompt + OPEN + NOTE + "".join(item.block for item in attached) + CLOSE


def prompt_text(content: object) -> str | None:
    """The text of a user prompt's content: itself, or the first text of a prompt sent with images."""
    if isinstance(content, str):
        return content
    if isinstance(content, list | tuple):
        return next((item for item in content if isinstance(item, str)), None)
    return None


def typed_part(text: str) -> str:
    """A prompt as the user typed it: `text` without the attachments `with_attachments` added."""
    return text.split(OPEN, 1)[0]
