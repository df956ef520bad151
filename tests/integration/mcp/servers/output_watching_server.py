"""A stdio MCP server that, when its stdin ends, notes whether decode's result was already out.

decode's stdout goes to the file $WATCHED_OUTPUT; once the server's stdin closes (decode stopping
it), it writes to $WATCH_MARKER "result out" if that file already holds the run's `result` event,
else "no result yet". The order is the proof: the answer and the result come before the shutdown.
"""

import os
from pathlib import Path

from plain_mcp import serve  # the standard library alone: no SDK to import

NAME = "output-watching"


def ping() -> str:
    """Answer pong."""
    return "pong"


if __name__ == "__main__":
    serve(NAME, {"ping": ping})
    output = Path(os.environ["WATCHED_OUTPUT"]).read_text(encoding="utf-8")
    out = any('"type": "result"' in line or '"type":"result"' in line for line in output.splitlines())
    Path(os.environ["WATCH_MARKER"]).write_text("result out\n" if out else "no result yet\n", encoding="utf-8")
