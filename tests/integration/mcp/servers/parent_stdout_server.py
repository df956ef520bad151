"""A stdio MCP server that, when decode stops it, notes where decode's stdout then leads.

Once its stdin closes (or SIGTERM comes first, on a busy machine), it writes to
$PARENT_STDOUT_MARKER the target of its parent's file descriptor 1 (`/proc/PPID/fd/1`):
`/dev/null` once decode has ended its stdout, a `pipe:[…]` while its reader still waits for the end.
"""

import os
import signal
from pathlib import Path
from types import FrameType

from plain_mcp import serve  # the standard library alone: no SDK to import

NAME = "parent-stdout"
parent = os.getppid()


def ping() -> str:
    """Answer pong."""
    return "pong"


def note() -> None:
    target = os.readlink(f"/proc/{parent}/fd/1")
    Path(os.environ["PARENT_STDOUT_MARKER"]).write_text(target + "\n", encoding="utf-8")


def on_term(signum: int, frame: FrameType | None) -> None:
    note()
    os._exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_term)
    serve(NAME, {"ping": ping})
    signal.signal(signal.SIGTERM, signal.SIG_IGN)
    note()
