"""The call pager (Ctrl+O): the session's tool calls, each whole, one screen at a time.

The transcript shows each call as one line and a few lines under it; the pager shows any of them
whole: every argument and everything the model read (`full_call()`), on the terminal's alternate
screen, like `less`. Nothing it shows goes into the scrollback, and leaving puts the REPL back
as it was; what the running turn printed meanwhile is held and printed when the pager closes.

    call 3 of 7 · ↑↓ n p: another call · j k space b: scroll · q Esc: back

It opens on the last call. ↑/↓ (or p/n) move to the call before or after, j/k scroll a line,
space/b (PageDown/PageUp) a screen, g/G jump to the top or the bottom, q, Esc or Ctrl+O leave.

It is a prompt_toolkit full-screen `Application` run inside the REPL's own (`in_terminal()`
suspends the prompt while it runs), not `less`: no program to find on the user's machine, the
same keys everywhere, and moving between calls is a key, not a search.
"""

from __future__ import annotations

import io
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Any, cast

from prompt_toolkit.application import Application
from prompt_toolkit.formatted_text import ANSI, StyleAndTextTuples
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.layout import HSplit, Layout, Window
from prompt_toolkit.layout.controls import FormattedTextControl
from rich.console import Console

from decode.tui.tool_views import ToolRun, full_call

if TYPE_CHECKING:
    from prompt_toolkit.input import Input
    from prompt_toolkit.output import Output

    from decode.tui.app import Repl

HINT = "↑↓ n p: another call · j k space b: scroll · q Esc: back"


def call_page(run: ToolRun, width: int, color_system: str | None = "standard") -> list[str]:
    """The lines (ANSI) that show `run` whole at `width` columns."""
    screen = io.StringIO()
    console = Console(
        file=screen,
        width=max(width, 20),
        force_terminal=color_system is not None,
        force_jupyter=False,  # a notebook's console would display it instead of writing it
        color_system=cast("Any", color_system),  # Rich names its systems in a Literal
    )
    console.print(full_call(run))
    return screen.getvalue().splitlines()


class CallPager:
    """Which call is shown and how far it is scrolled; `application()` draws it and takes the keys."""

    def __init__(self, runs: Sequence[ToolRun], *, color_system: str | None = "standard") -> None:
        self.runs = list(runs)
        self.index = len(self.runs) - 1
        self.top = 0  # the first line of the call on screen
        self.color_system = color_system
        self._lines: tuple[int, int, list[str]] | None = None  # (index, width, lines)

    def lines(self, width: int) -> list[str]:
        """The current call's lines at `width` (rendered once per call and width)."""
        if self._lines is None or self._lines[:2] != (self.index, width):
            self._lines = (self.index, width, call_page(self.runs[self.index], width, self.color_system))
        return self._lines[2]

    def move(self, step: int) -> None:
        """Show the call `step` places before (negative) or after this one, from its top."""
        self.index = min(max(self.index + step, 0), len(self.runs) - 1)
        self.top = 0

    def scroll(self, lines: int, width: int, height: int) -> None:
        """Scroll by `lines` (negative: up), never past the top or the last screen."""
        bottom = max(len(self.lines(width)) - height, 0)
        self.top = min(max(self.top + lines, 0), bottom)

    def header(self) -> StyleAndTextTuples:
        return [("reverse", f" call {self.index + 1} of {len(self.runs)} "), ("", " "), ("dim", HINT)]

    def body(self, width: int, height: int) -> ANSI:
        return ANSI("\n".join(self.lines(width)[self.top : self.top + height]))

    def application(self, input: Input | None = None, output: Output | None = None) -> Application[None]:
        """The full-screen pager on `input`/`output` (None: the terminal's)."""
        app: Application[None]

        def size() -> tuple[int, int]:
            rows_columns = app.output.get_size()
            return rows_columns.columns, max(rows_columns.rows - 1, 1)

        keys = KeyBindings()

        def bind(*names: str, action: Callable[[KeyPressEvent], object], eager: bool = False) -> None:
            for name in names:
                keys.add(name, eager=eager)(action)

        def page(step: int) -> None:
            width, height = size()
            self.scroll(step * height, width, height)

        bind("up", "p", "left", action=lambda event: self.move(-1))
        bind("down", "n", "right", action=lambda event: self.move(1))
        bind("j", "c-e", action=lambda event: self.scroll(1, *size()))
        bind("k", "c-y", action=lambda event: self.scroll(-1, *size()))
        bind("space", "pagedown", "f", action=lambda event: page(1))
        bind("b", "pageup", action=lambda event: page(-1))
        bind("g", "home", action=lambda event: self.scroll(-(10**9), *size()))
        bind("G", "end", action=lambda event: self.scroll(10**9, *size()))

        def leave(event: KeyPressEvent) -> None:
            event.app.exit()

        bind("q", "c-o", "c-c", action=leave)
        bind("escape", action=leave, eager=True)  # at once: no wait for a longer sequence Esc could begin
        layout = Layout(
            HSplit(
                [
                    Window(FormattedTextControl(self.header), height=1),
                    Window(FormattedTextControl(lambda: self.body(*size())), wrap_lines=False),
                ]
            )
        )
        app = Application(layout=layout, key_bindings=keys, full_screen=True, input=input, output=output)
        app.ttimeoutlen = app.timeoutlen = 0.05  # Esc alone leaves at once
        return app


async def browse(repl: Repl) -> None:
    """Ctrl+O: open the pager on the session's calls (a notice when there is none yet)."""
    from prompt_toolkit.application import in_terminal

    renderer = repl.renderer
    if not renderer.calls:
        renderer.notice("no tool call yet: ctrl+o browses them, whole, once there is one")
        return
    if repl.paging:
        return
    repl.paging = True
    pager = CallPager(renderer.calls, color_system=renderer.console.color_system)
    try:
        with renderer.held():  # what a running turn prints waits until the pager closes
            async with in_terminal():
                await pager.application(repl.session.app.input, repl.session.app.output).run_async()
    finally:
        repl.paging = False
