"""`@path` imports: a memory file can pull another file in, as Claude Code's CLAUDE.md does.

`See @docs/style.md` in an AGENTS.md or a CLAUDE.md loads `docs/style.md` too, right after the file
that names it. A path is relative to the importing file; `~/` is the home directory. An imported file
can import in turn, at most `MAX_HOPS` deep; a file already loaded is not loaded again (so a cycle
ends, and `CLAUDE.md` holding just `@AGENTS.md` costs nothing). An `@` inside a code span or a code
block is text, never an import: the Markdown is parsed (markdown-it, as Rich uses) to tell them apart.

A repository is not trusted to choose what leaves the machine. Its CLAUDE.md saying `@~/.ssh/id_rsa`
or `@../../.env` must not put a secret into every request, so `refusal` allows:

- from a project file (in the project or a folder above it): files inside that file's own folder, and
  Markdown under `~/.claude/` and `~/.decode/` (Claude Code's way to add one's own instructions);
- from the user's own files (`~/.decode/AGENTS.md`, `~/.claude/CLAUDE.md`): any file the user names;
- never a file named like a secret (`.env`, `*.pem`, `id_rsa`…), wherever it is and whoever names it.

The check is on the real path, after symbolic links, which lead to Markdown files only, as for every
memory file. A refused or missing import is named in a problem line (one per file and target).
"""

import fnmatch
import re
from pathlib import Path

MAX_HOPS = 5
"""How deep imports may go: a file, what it imports, what that imports… (Claude Code's limit)."""
SECRET_NAMES = (".env", ".env*", "*.env", "*.pem", "*.key", "id_rsa*", "id_ed25519*", "id_ecdsa*", ".netrc", ".pgpass")
"""File names an import never reads: keys and environment files (the gate's `.env` patterns and a few)."""
USER_FOLDERS = (".claude", ".decode")
"""Folders of the home directory a project's memory may import Markdown from."""
_IMPORT = re.compile(r"(?:^|(?<=[\s(]))@(\S+)")
"""`@path` at the start of a text, after a space or an opening bracket: never `me@example.com`."""
_TRAILING = ",;:!?)]}\"'"


def import_targets(text: str) -> list[str]:
    """The paths `text` imports with `@path`, in order, once each; none inside code spans or blocks."""
    if "@" not in text:
        return []
    from markdown_it import MarkdownIt

    found: list[str] = []
    for token in MarkdownIt("commonmark").parse(text):
        for child in token.children or []:
            if child.type != "text":
                continue
            for match in _IMPORT.finditer(child.content):
                target = match.group(1).rstrip(_TRAILING)
                if target.endswith(".") and not target.endswith(".."):
                    target = target.rstrip(".")  # the end of a sentence: `…see @docs/style.md.`
                if target and target not in found:
                    found.append(target)
    return found


def resolve_target(target: str, importer: Path, home: Path) -> Path:
    """Where `@target` in `importer` points: relative to the importing file, `~/` the home directory."""
    if target == "~" or target.startswith("~/"):
        return home / target[2:]
    return importer.parent / Path(target)


def is_secret(path: Path) -> bool:
    """Whether `path` is named like a key or an environment file (`SECRET_NAMES`)."""
    return any(fnmatch.fnmatch(path.name, pattern) for pattern in SECRET_NAMES)


def refusal(real: Path, *, root: Path, home: Path, users: bool) -> str | None:
    """Why the file at `real` (a resolved path) may not be imported; None when it may.

    `root` is the folder of the memory file the imports started from; `users` says that file is the
    user's own (`~/.decode/AGENTS.md`, `~/.claude/CLAUDE.md`) rather than a project's.
    """
    if is_secret(real):
        return "named like a secret"
    if users or real.is_relative_to(root.resolve()):
        return None
    home = home.resolve()
    if real.suffix.lower() == ".md" and any(real.is_relative_to(home / folder) for folder in USER_FOLDERS):
        return None
    return "outside the project (a project's memory imports its own files, or Markdown from ~/.claude or ~/.decode)"
