"""Hang-up: when its terminal goes away, the REPL ends, whatever it was doing.

A terminal can vanish under a running program: the window is closed, ssh drops, a tmux server
is killed. Unix says so with SIGHUP, but not always to us (the signal goes to the session's
leader, which may be a shell), and the terminal also tells in other ways: a read gives EOF or
EIO, a write EIO, `isatty()` turns false. Without a terminal a REPL has no one to answer to, so
any of these signs is a hang-up, and a hang-up ends the REPL the way SIGTERM does:

    SIGHUP ───────────────┐
    the prompt's read ────┤
    an error, unawaited ──┼─▶ HangUp.hang_up() ─▶ the terminal's fds point at nothing (EOF, /dev/null)
    watcher (a thread) ───┘        │              what must stop at once stops (the agent's programs)
                                   │              the REPL's task is cancelled: the turn is aborted, kept
                                   └──▶ a deadline: if decode is still here after GRACE_S, it exits

Pointing the terminal's file descriptors away from it first means nothing on the way out can fail
or spin on the dead terminal (prompt_toolkit's reader retries an EIO read forever). The deadline
means nothing on the way out can keep decode alive.
"""

import asyncio
import logging
import os
import select
import signal
import threading
from collections.abc import Callable, Generator
from contextlib import contextmanager, suppress
from dataclasses import dataclass, field
from typing import Any

from prompt_toolkit.input import Input
from prompt_toolkit.input.posix_utils import PosixStdinReader
from prompt_toolkit.input.vt100 import Vt100Input

logger = logging.getLogger(__name__)
ExceptionHandler = Callable[[asyncio.AbstractEventLoop, dict[str, Any]], object]

CHECK_S = 0.5
"""How often the watcher looks at the terminal (a hang-up without SIGHUP is noticed this late)."""
GRACE_S = 10.0
"""How long decode has to leave once its terminal is gone, before it ends itself."""
TERMINAL_FDS = (0, 1)
_BROKEN = select.POLLHUP | select.POLLERR | select.POLLNVAL


def terminal_gone(fds: tuple[int, ...] = TERMINAL_FDS) -> bool:
    """True when one of `fds` is no longer a live terminal (closed, hung up, not a tty any more)."""
    poller = select.poll()
    for fd in fds:
        poller.register(fd, 0)  # no events asked: only a hang-up or an error is reported
    try:
        return any(events & _BROKEN for _, events in poller.poll(0)) or not all(os.isatty(fd) for fd in fds)
    except OSError:
        return True


def detach_terminal() -> None:
    """Point stdin at an empty pipe (reads give EOF; still pollable, unlike /dev/null, for the
    event loop prompt_toolkit registers it with), stdout and stderr at /dev/null (writes vanish)."""
    empty, writer = os.pipe()
    os.close(writer)
    null = os.open(os.devnull, os.O_WRONLY)
    for source, fd in ((empty, 0), (null, 1), (null, 2)):
        with suppress(OSError):
            os.dup2(source, fd)
    os.close(empty)
    os.close(null)


@dataclass
class HangUp:
    """The one way a REPL ends when its terminal is gone; `hang_up()` is safe to call many times."""

    task: asyncio.Task[object] | None
    """What to cancel: the REPL's main task (it stops the turn and returns 128 + `signum`)."""
    before: list[Callable[[], None]] = field(default_factory=list)
    """What must stop at once, before anything else can go wrong (lesson 05: the agent's programs)."""
    grace_s: float = GRACE_S
    signum: int | None = None
    """SIGHUP once the terminal is gone; None until then."""
    _deadline: threading.Thread | None = None
    _lock: threading.Lock = field(default_factory=threading.Lock)

    def hang_up(self) -> None:
        """The terminal is gone: detach from it, stop what must stop, cancel the REPL's task."""
        if self.signum is not None:
            return
        self.signum = signal.SIGHUP
        detach_terminal()
        self._stop_now()
        self.start_deadline()
        if self.task is not None:
            self.task.cancel()

    def start_deadline(self) -> None:
        """From now on decode has `grace_s` to leave; then what must stop stops, and decode exits."""
        with self._lock:
            if self._deadline is not None:
                return
            self._deadline = threading.Thread(target=self._end, name="decode-hang-up-deadline", daemon=True)
        self._deadline.start()

    def _end(self) -> None:
        threading.Event().wait(self.grace_s)
        self._stop_now()  # anything started since ends too
        os._exit(128 + signal.SIGHUP)

    def _stop_now(self) -> None:
        for stop in self.before:
            try:
                stop()
            except Exception:  # leaving: the next one still matters
                logger.exception("while hanging up")

    def watch(self, loop: asyncio.AbstractEventLoop, stopped: threading.Event) -> None:
        """The watcher thread: every `CHECK_S`, is the terminal still there?"""
        while not stopped.wait(CHECK_S):
            if terminal_gone():
                self.start_deadline()  # from this thread: it holds even if the event loop is stuck
                with suppress(RuntimeError):  # the loop closed meanwhile: decode is leaving anyway
                    loop.call_soon_threadsafe(self.hang_up)
                return

    def watch_input(self, prompt_input: Input) -> None:
        """Make the prompt's reader hang up on EOF or EIO from a terminal that is gone."""
        if isinstance(prompt_input, Vt100Input):  # a test's pipe input reads no terminal
            reader = prompt_input.stdin_reader
            encoding = prompt_input.stdin.encoding
            prompt_input.stdin_reader = _Reader(reader.stdin_fd, reader.errors, encoding, on_gone=self.hang_up)


class _Reader(PosixStdinReader):
    """prompt_toolkit's reader of the terminal, which retries an EIO read forever: here an empty
    read from a terminal that is gone ends the input, and hangs up."""

    def __init__(self, fd: int, errors: str, encoding: str, *, on_gone: Callable[[], None]) -> None:
        super().__init__(fd, errors=errors, encoding=encoding)
        self.on_gone = on_gone

    def read(self, count: int = 1024) -> str:
        text = super().read(count)
        if not text and terminal_gone((self.stdin_fd,)):
            self.closed = True  # prompt_toolkit stops reading and ends the prompt
            self.on_gone()
        return text


@contextmanager
def ending_on_hang_up(task: asyncio.Task[object] | None, prompt_input: Input) -> Generator[HangUp]:
    """While inside: SIGHUP, the prompt reading a terminal that is gone, or the watcher seeing it
    gone, hangs up (see `HangUp`)."""
    loop = asyncio.get_running_loop()
    hang_up = HangUp(task)
    hang_up.watch_input(prompt_input)
    previous = loop.get_exception_handler()
    loop.set_exception_handler(_on_error(hang_up, previous))
    stopped = threading.Event()
    loop.add_signal_handler(signal.SIGHUP, hang_up.hang_up)
    watcher = threading.Thread(target=hang_up.watch, args=(loop, stopped), name="decode-terminal-watch", daemon=True)
    watcher.start()
    try:
        yield hang_up
    finally:
        stopped.set()
        loop.remove_signal_handler(signal.SIGHUP)
        loop.set_exception_handler(previous)


def _on_error(hang_up: HangUp, previous: ExceptionHandler | None) -> ExceptionHandler:
    """The event loop's handler of errors nothing awaited: one that the dead terminal caused hangs up.

    (The REPL's prompt leaves this to us: prompt_toolkit's own handler asks to "Press ENTER" on
    the terminal, which on a dead one fails, which asks again, and so on, at full speed.)
    """

    def on_error(loop: asyncio.AbstractEventLoop, context: dict[str, Any]) -> None:
        if hang_up.signum is not None or terminal_gone():
            logger.debug("after the terminal went away: %s", context.get("message"))
            hang_up.hang_up()
        elif previous is not None:
            previous(loop, context)
        else:
            loop.default_exception_handler(context)

    return on_error
