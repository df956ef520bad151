"""An MCP server's log, `.decode/logs/mcp/NAME.log`: its stderr and its log notifications, never the screen.

The log lives in the project, where a cloned repository could have planted
`.decode/logs/mcp/time.log -> ~/.bashrc`: the user's own `time` server would then append to their
shell's start-up file. So the log is opened without following a symbolic link, in a folder that
must resolve inside the project; otherwise the server is not started, and says why.
"""

import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, TextIO

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs

LOG_DIR = HARNESS_DIR / "logs" / "mcp"
TAIL_LINES = 5


class McpLogError(RuntimeError):
    """A server's log cannot be opened safely: the server is not started."""


def log_path(home: Path, server: str) -> Path:
    """`HOME/.decode/logs/mcp/NAME.log`, the name made a safe file name (no `/`, no `..`)."""
    return home / LOG_DIR / f"{''.join(c if c.isalnum() or c in '-_' else '_' for c in server)}.log"


@dataclass
class ServerLog:
    """One server's log file: opened for each start, its tail read since that start."""

    path: Path
    home: Path
    start: int = 0
    file: TextIO | None = field(default=None, repr=False)

    def open(self) -> TextIO:
        """Open the log to append (what the server's process writes its stderr to)."""
        if not self._inside():
            raise McpLogError(f"its log folder {self.path.parent} leads out of {self.home}: not following it")
        make_parent_dirs(self.path)
        try:
            fd = os.open(self.path, os.O_WRONLY | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW, 0o600)
        except OSError as exc:
            said = "is a symbolic link: not following it" if self.path.is_symlink() else f"cannot be opened ({exc})"
            raise McpLogError(f"its log {self.path} {said}") from None
        self.start = os.fstat(fd).st_size
        self.file = os.fdopen(fd, "a", encoding="utf-8", errors="replace")
        return self.file

    def _inside(self) -> bool:
        return self.path.parent.resolve().is_relative_to(self.home.resolve())

    def close(self) -> None:
        file, self.file = self.file, None
        if file is not None:
            file.close()

    def note(self, level: str, data: Any) -> bool:
        """Add a log notification of the server's; False when the log is not open."""
        if self.file is None or self.file.closed:
            return False
        self.file.write(f"[{level}] {data}\n")
        self.file.flush()
        return True

    def tail(self, lines: int = TAIL_LINES) -> str:
        """The last lines written since the server was started ('' for none)."""
        if not self._inside():
            return ""
        try:
            fd = os.open(self.path, os.O_RDONLY | os.O_NOFOLLOW)
            with os.fdopen(fd, "rb") as file:
                file.seek(self.start)
                text = file.read().decode("utf-8", errors="replace")
        except OSError:
            return ""
        return "\n".join(line for line in text.strip().splitlines()[-lines:])
