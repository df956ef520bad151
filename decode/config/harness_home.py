"""The Harness Home: `.decode/` in the directory decode was started from.

Everything decode writes for itself lives there: the prompt history, session logs, full tool
outputs, the notes file and the local permission rules. Some of it is one person's and must
never reach the team's repository, so the first write into a new `.decode/` also puts a
`.gitignore` there naming those files. What a team shares (`settings.json`, `skills/`) stays
committable.
"""

from pathlib import Path

HARNESS_DIR = Path(".decode")
PERSONAL = ("history", "sessions/", "tool-output/", "MEMORY.md", "settings.local.json")
"""Entries of `.decode/` that belong to one person and one machine."""

_IGNORE_TEXT = "# Written by decode: these files are yours alone, not the team's.\n" + "\n".join(PERSONAL) + "\n"


def make_parent_dirs(path: Path) -> None:
    """Create the directories above `path` (like `mkdir -p`).

    When one of them is a `.decode/` directory without a `.gitignore`, that file is written first,
    so personal files are ignored by git from the moment they exist.
    """
    home = next((parent for parent in path.parents if parent.name == HARNESS_DIR.name), None)
    if home is not None:
        home.mkdir(parents=True, exist_ok=True)
        ignore = home / ".gitignore"
        if not ignore.exists():
            ignore.write_text(_IGNORE_TEXT, encoding="utf-8")
    path.parent.mkdir(parents=True, exist_ok=True)
