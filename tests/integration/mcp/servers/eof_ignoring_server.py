"""A stdio MCP server that stays when its stdin ends, and notes a SIGTERM in $EOF_IGNORING_MARKER.

Many real servers do not watch for end-of-input (a node server with a timer, a wrapper script):
decode must then ask them to end (SIGTERM) before it kills them. The marker is the proof it asked.
"""

import os
import signal
import threading
import time
from pathlib import Path
from types import FrameType

from plain_mcp import serve  # the standard library alone: no SDK to import

MARKER = Path(os.environ["EOF_IGNORING_MARKER"])
NAME = "eof-ignoring"


def ping() -> str:
    """Answer pong."""
    return "pong"


def on_sigterm(signum: int, frame: FrameType | None) -> None:
    MARKER.with_suffix(".at").write_text(f"{time.monotonic()}\n")  # when it was asked (one clock for all)
    MARKER.write_text("SIGTERM\n")
    os._exit(0)


if __name__ == "__main__":
    signal.signal(signal.SIGTERM, on_sigterm)
    serve(NAME, {"ping": ping})
    MARKER.with_suffix(".eof").write_text("stdin ended\n")  # and it stays
    while True:
        threading.Event().wait(3600)
