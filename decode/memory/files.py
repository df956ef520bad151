"""Finding and reading the memory files, in the order the model should read them.

1. The user's own instructions, for every project: `~/.claude/CLAUDE.md` (Claude Code's), then
   `~/.decode/AGENTS.md`.
2. In every folder from the filesystem root down to the working directory: `AGENTS.md`, `CLAUDE.md`,
   `.claude/CLAUDE.md`, then `CLAUDE.local.md` (one's own, usually git-ignored). The nearest comes
   last, so the most specific instructions have the last word.
3. The same files in the subfolders the agent has worked in (`subfolders`, see `touched.py`), from
   the working directory down, in the order it first went there.
4. `.decode/MEMORY.md` in the launch directory: notes decode keeps about earlier sessions. It
   grows by itself, so it is capped: past `MEMORY_CAP` characters only the newest lines are
   kept, with a note saying how many older lines were left out.

Each file's `@path` imports follow it (`imports.py`). A file is read once, however many places name
it: `AGENTS.md -> CLAUDE.md`, a hard link, a home directory that is also a parent of the project, or
a CLAUDE.md importing the AGENTS.md beside it. Nothing here is cached: the files are read again
every time, so an edit applies at once.
"""

import logging
import os
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Literal

from decode.config.harness_home import HARNESS_DIR
from decode.config.safe_read import UnreadableFile, read_bytes
from decode.memory.imports import MAX_HOPS, import_targets, refusal, resolve_target

logger = logging.getLogger(__name__)

AGENTS_FILE = "AGENTS.md"
FOLDER_FILES = (AGENTS_FILE, "CLAUDE.md", ".claude/CLAUDE.md", "CLAUDE.local.md")
"""The memory files of one folder, in reading order."""
USER_MEMORY = HARNESS_DIR / AGENTS_FILE
"""The user's file, relative to the home directory."""
USER_FILES = (Path(".claude") / "CLAUDE.md", USER_MEMORY)
"""The user's files (Claude Code's, then decode's), relative to the home directory."""
PROJECT_NOTES = HARNESS_DIR / "MEMORY.md"
"""The notes file, relative to the launch directory (the Harness Home)."""
MEMORY_CAP = 6_000
"""Characters of `.decode/MEMORY.md` that go into the instructions (about 1,500 tokens)."""

MemoryScope = Literal["user", "project", "notes"]


@dataclass(frozen=True)
class MemoryFile:
    """One memory file as loaded: where it is, whose it is, and the text the model sees.

    `omitted_lines` counts the oldest lines of `.decode/MEMORY.md` left out by the cap;
    `imported_by` is the file whose `@path` brought this one in (None: found in its place).
    """

    path: Path
    scope: MemoryScope
    text: str
    omitted_lines: int = 0
    imported_by: Path | None = None


@dataclass
class MemoryLoad:
    """What `read_memory` found: the files in order, one line per problem, every path it looked at."""

    files: list[MemoryFile] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    consulted: list[Path] = field(default_factory=list)
    """The places and the imports' targets: a change to any of them changes the memory."""


def memory_paths(
    workspace: Path, *, home: Path | None = None, subfolders: Sequence[Path] = ()
) -> list[tuple[MemoryScope, Path]]:
    """Every place a memory file may be, in reading order (whether or not it exists)."""
    home = home or Path.home()
    workspace = workspace.resolve()
    places: list[tuple[MemoryScope, Path]] = [("user", home / name) for name in USER_FILES]
    # `parents` runs from the nearest directory up; reversed, it runs from the root down.
    for directory in [*reversed(workspace.parents), workspace, *folders_below(workspace, subfolders)]:
        places += [("project", directory / name) for name in FOLDER_FILES]
    places.append(("notes", workspace / PROJECT_NOTES))
    return places


def folders_below(workspace: Path, subfolders: Sequence[Path]) -> list[Path]:
    """Each subfolder (relative to `workspace`) with the folders between: `a/b` gives `a`, `a/b`."""
    below: list[Path] = []
    for folder in subfolders:
        parts = folder.parts
        for depth in range(1, len(parts) + 1):
            path = workspace.joinpath(*parts[:depth])
            if path not in below:
                below.append(path)
    return below


def read_memory(
    workspace: Path, *, home: Path | None = None, cap: int = MEMORY_CAP, subfolders: Sequence[Path] = ()
) -> MemoryLoad:
    """Read the memory files that exist and say something, with their imports, in reading order.

    A file that cannot be read, or an import that is refused or missing, is left out with a problem
    line. A symlink is followed to a Markdown file only. A subfolder's file must really be in the
    project (a folder linking elsewhere does not bring its files in).
    """
    home = home or Path.home()
    load, seen = MemoryLoad(), set[tuple[int, int]]()
    project = workspace.resolve()
    below = {folder / name for folder in folders_below(project, subfolders) for name in FOLDER_FILES}
    for scope, path in memory_paths(workspace, home=home, subfolders=subfolders):
        load.consulted.append(path)
        if path in below and not path.resolve().is_relative_to(project):
            continue  # a subfolder linking out of the project brings nothing in
        file = _read_one(path, scope, seen, load.problems)
        if file is None:
            continue
        if scope == "notes":  # a model wrote them: never instructions, so never imports either
            text, omitted = keep_newest(file.text, cap)
            load.files.append(MemoryFile(path, scope, text, omitted))
            continue
        load.files.append(file)
        _add_imports(file, path.parent, home, seen, load, hop=1)
    return load


def load_memory(
    workspace: Path, *, home: Path | None = None, cap: int = MEMORY_CAP, subfolders: Sequence[Path] = ()
) -> list[MemoryFile]:
    """`read_memory(…).files`, each problem logged as a warning."""
    load = read_memory(workspace, home=home, cap=cap, subfolders=subfolders)
    for problem in load.problems:
        logger.warning("memory: %s", problem)
    return load.files


def _add_imports(
    file: MemoryFile, root: Path, home: Path, seen: set[tuple[int, int]], load: MemoryLoad, hop: int
) -> None:
    """Load what `file` imports (and what that imports, up to `MAX_HOPS`), right after it."""
    for target in import_targets(file.text):
        path = resolve_target(target, file.path, home)
        load.consulted.append(path)
        where = f"{file.path}: @{target}"
        if hop > MAX_HOPS:
            load.problems.append(f"{where} not imported: imports go at most {MAX_HOPS} deep")
            continue
        if not path.exists():
            load.problems.append(f"{where} not imported: no such file")
            continue
        if why := refusal(path.resolve(), root=root, home=home, users=file.scope == "user"):
            load.problems.append(f"{where} not imported: {why}")
            continue
        found = _read_one(path, file.scope, seen, load.problems)
        if found is None:
            continue  # already loaded (a cycle, or a file read in its own place), empty, or unreadable
        imported = MemoryFile(path, file.scope, found.text, imported_by=file.path)
        load.files.append(imported)
        _add_imports(imported, root, home, seen, load, hop + 1)


def _read_one(path: Path, scope: MemoryScope, seen: set[tuple[int, int]], problems: list[str]) -> MemoryFile | None:
    """The file at `path` if it exists, was not read yet, and says something; a problem line if it cannot be read."""
    try:
        info = os.stat(path)  # follows links: a link and its target are one file, so are hard links
    except OSError:
        return None
    if path.is_dir() or (info.st_dev, info.st_ino) in seen:
        return None  # a FIFO or a device goes on, for `read_bytes` to refuse in one line
    seen.add((info.st_dev, info.st_ino))
    if path.is_symlink() and path.resolve().suffix.lower() != ".md":
        # `AGENTS.md -> CLAUDE.md` is common; `AGENTS.md -> .env` (or `~/.aws/credentials`), planted
        # by a repository or a sandboxed command, would put a secret in every request.
        problems.append(f"{path} links to {path.resolve().name}, not a Markdown file; skipped")
        return None
    try:
        # Never a wait or an endless read (swapped for a FIFO or a device since the look above).
        data = read_bytes(path, what="a memory file") or b""
    except UnreadableFile as exc:
        problems.append(f"{exc}; skipped")
        return None
    # A stray invalid byte should not hide the whole file from the model.
    text = data.decode("utf-8", errors="replace").removeprefix("\ufeff").strip()
    return MemoryFile(path, scope, text) if text else None


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
