"""A stdio MCP server that stays when its stdin ends and when it gets SIGTERM: only a kill ends it.

It notes each SIGTERM in $TERM_IGNORING_MARKER, so a test knows decode is in the last step of its
shutdown (the wait before the kill) and can act then.
"""

import os
import signal
from pathlib import Path
from types import FrameType

from plain_mcp import serve  # the standard library alone: no SDK to import

MARKER = Path(os.environ["TERM_IGNORING_MARKER"])
NAME = "term-ignoring"


def ping() -> str:
    """Answer pong."""
    return "pong"


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    with MARKER.open("a") as marker:
        marker.write("SIGTERM\n")


if __name__ == "__main__":
    MARKER.with_suffix(".pid").write_text(f"{os.getpid()}\n")
    signal.signal(signal.SIGTERM, on_sigterm)
    serve(NAME, {"ping": ping})
    while True:
        signal.pause()
