"""What `decode run` reads from stdin: the task itself (`decode run -`), or input that goes with it.

`git diff | decode run "review this diff"` sends the task with the diff after it, as a fenced block
that says its size (`with_input`). Stdin is read only when something can be on it: a pipe, a file,
a socket; never a terminal, never a closed stdin (`<&-`). A pipe nobody writes to (a CI runner that
leaves stdin open) is waited on for `WAIT_S` seconds at most, then the run goes on without it and
says so. Binary input (a NUL byte) and input over `MAX_BYTES` are refused (`StdinError`): a model
cannot use either, and a 50 MB log would cost more than the user meant to spend.
"""

import io
import os
import select
import stat
from typing import BinaryIO

MAX_BYTES = 1 << 20
"""The most stdin `decode run` takes: 1 MiB (about 250,000 tokens of English text)."""
WAIT_S = 10.0
"""How long a pipe that has written nothing yet is waited on when the task is given too."""


class StdinError(Exception):
    """Stdin cannot be used: binary, or over `MAX_BYTES`; the one line says which."""


def readable(stream: BinaryIO | None) -> bool:
    """Is there stdin to read without asking a person: a pipe, a file or a socket (not a terminal,
    not closed)? A stream with no file descriptor (a test's in-memory stdin) is read as it is."""
    if stream is None:
        return False
    try:
        mode = os.fstat(stream.fileno()).st_mode
    except (OSError, ValueError, io.UnsupportedOperation):
        return not stream.closed  # in memory: reading it cannot block
    if os.isatty(stream.fileno()):
        return False
    return stat.S_ISFIFO(mode) or stat.S_ISREG(mode) or stat.S_ISSOCK(mode)


def read_input(stream: BinaryIO, *, wait_s: float | None = None) -> bytes | None:
    """All of `stream` (at most `MAX_BYTES`); None when a pipe wrote nothing within `wait_s` seconds
    (None: wait for it however long it takes). Raises `StdinError` for binary or over-size input."""
    if wait_s is not None and _idle(stream, wait_s):
        return None
    data = stream.read(MAX_BYTES + 1)
    if len(data) > MAX_BYTES:
        raise StdinError(f"stdin is over {MAX_BYTES // (1 << 20)} MiB; give the model a file to read instead")
    if b"\0" in data:
        raise StdinError(f"stdin is binary (a NUL byte at offset {data.index(b'\0')}); decode takes text only")
    return data


def _idle(stream: BinaryIO, wait_s: float) -> bool:
    """Has a pipe or socket nothing to read (not even its end) after `wait_s` seconds?"""
    try:
        descriptor = stream.fileno()
        if not stat.S_ISFIFO(os.fstat(descriptor).st_mode) and not stat.S_ISSOCK(os.fstat(descriptor).st_mode):
            return False  # a file is always ready
    except (OSError, ValueError, io.UnsupportedOperation):
        return False
    ready, _, _ = select.select([descriptor], [], [], wait_s)
    return not ready


def with_input(task: str, text: str) -> str:
    """The task, then `text` as a fenced block headed by its size (a fence longer than any run of
    backticks inside it, so the block cannot be closed early)."""
    fence = "`" * max(3, _longest_run(text, "`") + 1)
    size = len(text.encode("utf-8"))
    lines = text.count("\n") + (0 if text.endswith("\n") or not text else 1)
    body = text if text.endswith("\n") or not text else text + "\n"
    return f"{task}\n\nstdin ({size} bytes, {lines} line{'s' if lines != 1 else ''}):\n{fence}\n{body}{fence}\n"


def _longest_run(text: str, char: str) -> int:
    longest = current = 0
    for found in text:
        current = current + 1 if found == char else 0
        longest = max(longest, current)
    return longest
