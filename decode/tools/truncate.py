"""Output truncation: what the model sees of a long tool output, and where the rest goes.

A tool's output can run to megabytes (a search that matches everywhere, a long log); pasting it
all into the context would crowd out everything else (and cost money on every later request). So
past a limit the model gets the head and the tail, which is where a command's line and summary
usually are, and a note with the path of a file holding the full text, which it can `read` or
`grep` like any other.

The files go under `.decode/tool-output/` in the Harness Home (the launch directory), with
decode's own keys replaced by a marker (`decode.config.redaction`): a saved output is a store too.
"""

import secrets
from datetime import UTC, datetime
from pathlib import Path

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs, private_open
from decode.config.redaction import NO_REDACTION, Redactor

OUTPUT_DIR = HARNESS_DIR / "tool-output"


def new_output_path(harness_home: Path, label: str) -> Path:
    """A fresh file name for one full output, e.g. `20260101T120000Z-grep-3f2a.txt`."""
    stamp = datetime.now(UTC).strftime("%Y%m%dT%H%M%SZ")
    path = harness_home / OUTPUT_DIR / f"{stamp}-{label}-{secrets.token_hex(3)}.txt"
    make_parent_dirs(path)  # `.decode/` keeps tool output out of git, and private (see harness_home.py)
    return path


def omission_note(omitted: int, total: int, saved_to: str) -> str:
    """The line between head and tail telling the model what it is not seeing and where it is."""
    return (
        f"\n\n[… {omitted:,} of {total:,} characters not shown; the full output is in {saved_to} "
        "(use the read tool with offset, or the grep tool, on that path) …]\n\n"
    )


def unsaved_note(omitted: int, total: int, why: str) -> str:
    """The line between head and tail when the full output could not be saved (a read-only disk)."""
    return f"\n\n[… {omitted:,} of {total:,} characters not shown; the full output could not be saved ({why}) …]\n\n"


def head_tail(text: str, limit: int) -> tuple[str, str]:
    """The first and last parts of `text`, together `limit` characters (head gets the larger half)."""
    tail_size = limit // 2
    return text[: limit - tail_size], text[len(text) - tail_size :]


def shown_path(harness_home: Path, path: Path) -> str:
    """A saved output's path as the model can use it with read and grep: `harness:tool-output/NAME`
    (`harness_files.py`), which reaches the Harness Home even when a sandbox holds the Workspace."""
    return "harness:tool-output/" + path.relative_to(harness_home / OUTPUT_DIR).as_posix()


def shorten(text: str, limit: int, *, harness_home: Path, label: str, redactor: Redactor = NO_REDACTION) -> str:
    """`text` itself when it fits in `limit` characters; else head, a note and tail, with the
    full text saved to a file under the Harness Home. `redactor` clears decode's keys from what
    is saved, and from head and tail before they are cut (a key cut in two would pass)."""
    if len(text) <= limit:
        return text
    text = redactor.text(text)
    head, tail = head_tail(text, limit)
    omitted = len(text) - len(head) - len(tail)
    try:
        path = new_output_path(harness_home, label)
        with private_open(path) as file:  # 0600: tool output may hold secrets
            file.write(text.encode("utf-8"))
    except OSError as exc:  # a read-only or full disk: the model still gets head and tail
        return head + unsaved_note(omitted, len(text), exc.strerror or str(exc)) + tail
    return head + omission_note(omitted, len(text), shown_path(harness_home, path)) + tail
