"""Finding and reading the memory files, in the order the model should read them.

1. `~/.decode/AGENTS.md`: the user's own instructions, for every project.
2. Every `AGENTS.md` from the filesystem root down to the working directory. The nearest comes
   last, so the most specific instructions have the last word.
3. `.decode/MEMORY.md` in the launch directory: notes decode keeps about earlier sessions. It
   grows by itself, so it is capped: past `MEMORY_CAP` characters only the newest lines are
   kept, with a note saying how many older lines were left out.

Nothing here is cached: the files are read again every time, so an edit applies at once.
"""

import logging
from dataclasses import dataclass
from pathlib import Path
from typing import Literal

from decode.config.harness_home import HARNESS_DIR
from decode.config.safe_read import UnreadableFile, read_bytes

logger = logging.getLogger(__name__)

AGENTS_FILE = "AGENTS.md"
USER_MEMORY = HARNESS_DIR / AGENTS_FILE
"""The user's file, relative to the home directory."""
PROJECT_NOTES = HARNESS_DIR / "MEMORY.md"
"""The notes file, relative to the launch directory (the Harness Home)."""
MEMORY_CAP = 6_000
"""Characters of `.decode/MEMORY.md` that go into the instructions (about 1,500 tokens)."""

MemoryScope = Literal["user", "project", "notes"]


@dataclass(frozen=True)
class MemoryFile:
    """One memory file as loaded: where it is, whose it is, and the text the model sees.

    `omitted_lines` counts the oldest lines of `.decode/MEMORY.md` left out by the cap.
    """

    path: Path
    scope: MemoryScope
    text: str
    omitted_lines: int = 0


def memory_paths(workspace: Path, *, home: Path | None = None) -> list[tuple[MemoryScope, Path]]:
    """Every place a memory file may be, in reading order (whether or not it exists)."""
    home = home or Path.home()
    workspace = workspace.resolve()
    places: list[tuple[MemoryScope, Path]] = [("user", home / USER_MEMORY)]
    # `parents` runs from the nearest directory up; reversed, it runs from the root down.
    for directory in [*reversed(workspace.parents), workspace]:
        places.append(("project", directory / AGENTS_FILE))
    places.append(("notes", workspace / PROJECT_NOTES))
    return places


def load_memory(workspace: Path, *, home: Path | None = None, cap: int = MEMORY_CAP) -> list[MemoryFile]:
    """Read the memory files that exist and say something, in reading order.

    A file that cannot be read is skipped with a warning; a file is read once even when two
    places name it (a symlink, or a home directory that is also an ancestor of the project).
    A symlink is followed to a Markdown file only.
    """
    loaded: list[MemoryFile] = []
    seen: set[Path] = set()
    for scope, path in memory_paths(workspace, home=home):
        # A FIFO or a device goes on, for `read_bytes` to refuse in one line; a folder is just not a file.
        if not path.exists() or path.is_dir() or path.resolve() in seen:
            continue
        seen.add(path.resolve())
        if path.is_symlink() and path.resolve().suffix.lower() != ".md":
            # `AGENTS.md -> CLAUDE.md` is common; `AGENTS.md -> .env` (or `~/.aws/credentials`), planted
            # by a repository or a sandboxed command, would put a secret in every request.
            logger.warning("memory: %s links to %s, not a Markdown file; skipped", path, path.resolve().name)
            continue
        try:
            # Never a wait or an endless read (swapped for a FIFO or a device since the look above).
            data = read_bytes(path, what="a memory file") or b""
        except UnreadableFile as exc:
            logger.warning("memory: %s; skipped", exc)
            continue
        # A stray invalid byte should not hide the whole file from the model.
        text = data.decode("utf-8", errors="replace").removeprefix("\ufeff").strip()
        if not text:
            continue
        omitted = 0
        if scope == "notes":
            text, omitted = keep_newest(text, cap)
        loaded.append(MemoryFile(path=path, scope=scope, text=text, omitted_lines=omitted))
    return loaded


def keep_newest(text: str, cap: int) -> tuple[str, int]:
    """The newest whole lines of `text` that fit in `cap` characters, and how many were dropped.

    Notes are appended at the end, so the end is what is most recent.
    """
    if len(text) <= cap:
        return text, 0
    lines = text.splitlines()
    kept: list[str] = []
    size = 0
    for line in reversed(lines):
        size += len(line) + 1
        if size > cap:
            break
        kept.append(line)
    return "\n".join(reversed(kept)), len(lines) - len(kept)
