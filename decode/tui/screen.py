"""What prompt_toolkit draws around the input line, asked again at each redraw.

Above the `❯`, top to bottom: the live area (what is still streaming), the panels of later
parts of decode (the To-do List, the question the next line answers) and the messages waiting
for the model. Under it, the footer. Nothing here prints: what is drawn here is redrawn until it is
finished, then the Renderer prints it for good above the prompt.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

from prompt_toolkit.application import get_app_or_none
from prompt_toolkit.formatted_text import ANSI, AnyFormattedText, FormattedText, StyleAndTextTuples, to_formatted_text

from decode.tui.footer import footer
from decode.tui.input import PROMPT
from decode.tui.turns import pending_lines

if TYPE_CHECKING:
    from decode.tui.app import Repl


def above_input(repl: Repl) -> AnyFormattedText:
    """The panels, the live area and the waiting messages, above the `❯` of the input line."""
    prompt: StyleAndTextTuples = [*pending_lines(repl.turns.pending()), ("class:prompt", PROMPT)]
    for style, lines in reversed(panels(repl, repl.session.app.output.get_size().columns)):
        if lines:
            prompt = [(style, lines), ("", "\n"), *prompt]
    app = get_app_or_none()
    live = repl.renderer.live() if app is None or not app.is_done else ""
    if live:
        prompt = [*to_formatted_text(ANSI(live)), ("", "\n"), *prompt]
    return FormattedText(prompt)


def panels(repl: Repl, width: int) -> list[tuple[str, str]]:
    """`(style, lines)` of each panel above the prompt, top first; a panel with nothing to show is ''."""
    return [
        ("class:todos", repl.todos.lines(width)),  # the checklist, in place  # [lesson 13]
        ("class:approval", repl.questions.lines(width)),  # what the next line answers  # [lesson 06]
    ]


def footer_line(repl: Repl) -> AnyFormattedText:
    """The footer under the input line, as wide as the terminal."""
    return FormattedText(footer(repl.status, width=repl.session.app.output.get_size().columns))
