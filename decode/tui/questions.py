"""Questions in the REPL: the Decision Channel's open question, answered by the next line you send.

While a question is open (a tool call waits for an approval; from lesson 10, the model asks you
something), the line above the `❯` shows it with its options, and the next line you send is the
answer instead of a prompt:

    allow bash(npm install)? (y = yes · a = always · n = no · or type what to do instead)
    ❯ n, use pnpm

An empty line, or one that matches no option when only options count, shows the options again
and leaves the question open. The channel asks one question at a time; the next appears when the
first is answered. Stopping the turn takes its questions away.
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

from decode.harness.decisions import DecisionChannel, Question

if TYPE_CHECKING:
    from decode.tui.render import Renderer


class QuestionLine:
    """Shows the channel's open question and takes the user's next line as its answer."""

    def __init__(self, renderer: Renderer, invalidate: Callable[[], None]) -> None:
        self.renderer = renderer
        self.invalidate = invalidate
        self.channel = DecisionChannel(on_change=self._changed)
        self._shown: Question | None = None

    @property
    def text(self) -> str:
        """The line above the prompt while a question is open; '' when none is."""
        question = self.channel.current
        return f"{question.text} ({question.hint()}) " if question is not None else ""

    def answer(self, line: str) -> bool:
        """Take `line` as the answer if a question is open; False when none is (the line is a prompt)."""
        question = self.channel.current
        if question is None:
            return False
        reply = self.channel.answer(line)
        if reply is None:
            self.renderer.notice(question.hint())
            return True
        option = next((option for option in question.options if option.key == reply.choice), None)
        self.renderer.notice(f"→ {option.label if option is not None else reply.text}")
        return True

    def _changed(self) -> None:
        question = self.channel.current
        if question is not None and question is not self._shown and question.detail:
            self.renderer.notice(question.detail, "warning")  # once, when the question comes up
        self._shown = question
        self.invalidate()
