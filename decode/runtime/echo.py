"""A running tool's output on stderr as it comes, each line indented under its call."""

from typing import TYPE_CHECKING

from decode.runtime.progress import Progress

if TYPE_CHECKING:
    from decode.entities.events import ToolOutputDelta


class OutputEcho:
    """Echoes the first `max_lines` lines of each call: the point is to see that a long command is
    alive, not to flood the terminal (the model gets the output regardless)."""

    def __init__(self, progress: Progress, max_lines: int = 40) -> None:
        self.progress = progress
        self.max_lines = max_lines
        self.call_id = ""
        self.lines = 0
        self.at_line_start = True

    def __call__(self, delta: "ToolOutputDelta") -> None:
        if delta.call_id != self.call_id:
            self.call_id, self.lines, self.at_line_start = delta.call_id, 0, True
        for piece in delta.text.splitlines(keepends=True):
            if self.lines >= self.max_lines:
                return
            if self.at_line_start:
                self.progress("  │ ", nl=False)
            self.progress(piece, nl=False)
            self.at_line_start = piece.endswith("\n")
            if self.at_line_start:
                self.lines += 1
                if self.lines == self.max_lines:
                    self.progress("  │ …")

    def end_line(self) -> None:
        """Finish a last line that had no newline, so the next progress line starts clean."""
        if not self.at_line_start:
            self.progress("")
            self.at_line_start = True
