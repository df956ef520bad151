"""Sharing the terminal: Rich prints, prompt_toolkit keeps its prompt pinned at the bottom.

prompt_toolkit owns the last lines of the screen (the live area, the input, the footer) and
redraws them whenever something changes. Anything else written to the terminal must go *above*
them, or the next redraw paints over it. prompt_toolkit's way to do that is `run_in_terminal`:
it erases the prompt, runs a function that writes, and draws the prompt again below the output.

`AboveThePrompt` is a file object for Rich's `Console`: Rich renders a whole `print()` into it,
then flushes, and the flush hands the text to `run_in_terminal`. So every `console.print()`
scrolls up above the prompt in one piece, in order, and the REPL's code never has to think
about the prompt. With no prompt on screen it writes straight through.

`patch_stdout` (prompt_toolkit) does the same for stray writes to `sys.stdout`/`sys.stderr`;
`route_logging` points decode's log handler at it, so a warning lands above the prompt too.
"""

import io
import logging
from collections.abc import Callable, Generator
from contextlib import contextmanager
from typing import IO, TextIO, cast

from prompt_toolkit.application import get_app_or_none, run_in_terminal
from rich.console import Console


class AboveThePrompt(io.TextIOBase):
    """A text file that writes to `target`, above the running prompt if there is one."""

    def __init__(self, target: TextIO) -> None:
        super().__init__()
        self.target = target
        self._pending: list[str] = []

    def write(self, text: str) -> int:
        self._pending.append(text)
        return len(text)

    def flush(self) -> None:
        text = "".join(self._pending)
        self._pending.clear()
        if not text:
            return

        def write() -> None:
            self.target.write(text)
            self.target.flush()

        app = get_app_or_none()
        if app is not None and app.is_running:
            # Scheduled on the event loop; successive calls run in order (prompt_toolkit chains them).
            run_in_terminal(write)
        else:
            write()

    def isatty(self) -> bool:
        return self.target.isatty()

    def fileno(self) -> int:
        return self.target.fileno()


def terminal_console(target: TextIO) -> Console:
    """The REPL's Rich console: colours and width of the real terminal, output above the prompt."""
    # Rich writes, flushes and asks `isatty`/`fileno`: all AboveThePrompt has to be a file for it.
    return Console(file=cast("IO[str]", AboveThePrompt(target)), highlight=False)


@contextmanager
def route_logging(stream: TextIO) -> Generator[None]:
    """Send decode's log lines to `stream` (the patched stderr) while the REPL runs."""
    handlers = [h for h in logging.getLogger("decode").handlers if isinstance(h, logging.StreamHandler)]
    previous = [handler.setStream(stream) for handler in handlers]
    try:
        yield
    finally:
        for handler, old in zip(handlers, previous, strict=True):
            if old is not None:
                handler.setStream(old)


class LogNotices(logging.Handler):
    """decode's warnings while the REPL runs, as notices (`notice(message, level)`), not raw log lines.

    While it is installed (`notices_from_log`, until its undo), the `decode` logger's other stream handlers leave
    WARNING and above to it; DEBUG and INFO lines (`DECODE_LOG_LEVEL`) still go where they went.
    """

    def __init__(self, notice: Callable[[str, str], None]) -> None:
        super().__init__(logging.WARNING)
        self.notice = notice

    def emit(self, record: logging.LogRecord) -> None:
        try:
            self.notice(record.getMessage(), "error" if record.levelno >= logging.ERROR else "warning")
        except Exception:
            self.handleError(record)


def notices_from_log(notice: Callable[[str, str], None]) -> Callable[[], None]:
    """Route decode's warnings to `notice` (from any thread: `notice` must cope); returns the undo."""
    logger = logging.getLogger("decode")
    handler = LogNotices(notice)
    quiet = [h for h in logger.handlers if isinstance(h, logging.StreamHandler)]

    def below_warning(record: logging.LogRecord) -> bool:
        return record.levelno < logging.WARNING

    for other in quiet:
        other.addFilter(below_warning)
    logger.addHandler(handler)

    def undo() -> None:
        logger.removeHandler(handler)
        for other in quiet:
            other.removeFilter(below_warning)

    return undo
