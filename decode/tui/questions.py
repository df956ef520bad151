"""Questions in the REPL: the Decision Channel's open question, answered by a key or the next line.

While a question is open (a tool call waits for an approval; from lesson 13, the model asks you
something), the lines above the `❯` show it with its options, wrapped to the terminal's width
(never cut at its edge), and the answer is the next line you send instead of a prompt:

    allow bash(npm install)?
    y = yes · a = always: Bash(npm install:*) · e = exactly this command, always · n = no · or type what to do instead
    ❯ use pnpm

An option whose key is one character answers as soon as that key is pressed on an empty input
line (`answer_keys`); any other key starts a line of your own. An empty line, or one that
matches no option when only options count, shows the options again and leaves the question
open. When a question comes up, its detail line (and its body, whole, in a panel) is printed
once above, with what the approval's caller attached (`attach`: an edit's diff), and the terminal's
bell rings (`DECODE_BELL`). The channel
asks one question at a time; the next appears when the first is answered. Stopping the turn
takes its questions away. A tool call whose question waits is held: its clock stops
(`Renderer.hold`).
"""

from __future__ import annotations

import string
import textwrap
from collections.abc import Callable
from typing import TYPE_CHECKING

from prompt_toolkit.application import get_app
from prompt_toolkit.filters import Condition
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent

from decode.harness.decisions import DecisionChannel, Question
from decode.visible import visible

if TYPE_CHECKING:
    from rich.console import RenderableType

    from decode.tui.app import Repl
    from decode.tui.render import Renderer

KEYS = string.ascii_lowercase + string.digits
"""The keys that may answer alone (an uppercase letter always types: a sentence can start with it)."""


class QuestionLine:
    """Shows the channel's open question and takes the user's next line (or key) as its answer."""

    def __init__(self, renderer: Renderer, invalidate: Callable[[], None]) -> None:
        self.renderer = renderer
        self.invalidate = invalidate
        self.channel = DecisionChannel(on_change=self._changed)
        self._shown: Question | None = None
        self._attached: dict[int, RenderableType] = {}

    def attach(self, question: Question, renderable: RenderableType) -> None:
        """Print `renderable` under the question's detail line when it comes up (an edit's diff)."""
        self._attached[id(question)] = renderable

    @property
    def text(self) -> str:
        """The question and its options on one line, while one is open; '' when none is."""
        question = self.channel.current
        return f"{question.text} ({question.hint()}) " if question is not None else ""

    def lines(self, width: int) -> str:
        """What the lines above the prompt show: the question, then its options, wrapped to `width`."""
        question = self.channel.current
        if question is None:
            return ""
        wrap = max(width - 1, 20)  # the last column would make some terminals wrap themselves
        return "\n".join(
            line
            for text in (visible(question.text), question.hint())
            for line in textwrap.wrap(text, wrap, break_on_hyphens=False) or [""]
        )

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

    def answers_alone(self, key: str) -> bool:
        """Does pressing `key` on an empty line answer the open question (an option with that key)?"""
        question = self.channel.current
        return question is not None and any(option.key == key for option in question.options)

    def _changed(self) -> None:
        question = self.channel.current
        if question is not None and question is not self._shown:  # once, when the question comes up
            self.renderer.bell()  # heard from another window: decode waits for you
            if question.detail:
                self.renderer.notice(question.detail, "warning")
            if question.body:
                self.renderer.info(_panel(question))
            if (attached := self._attached.pop(id(question), None)) is not None:
                self.renderer.info(attached)
        if not self.channel.waiting:
            self._attached.clear()  # the turn was stopped: its questions are gone
        self._shown = question
        self.renderer.clocks.hold({asked.about for asked in self.channel.waiting if asked.about})
        self.invalidate()


def answer_keys(questions: QuestionLine) -> KeyBindings:
    """The single-key answers: an option's key, pressed on an empty input line, answers at once."""
    bindings = KeyBindings()

    def add(key: str) -> None:
        empty = Condition(lambda: not get_app().current_buffer.text and questions.answers_alone(key))

        @bindings.add(key, filter=empty)
        def _answer(event: KeyPressEvent) -> None:
            questions.answer(key)

    for key in KEYS:
        add(key)
    return bindings


def _panel(question: Question) -> RenderableType:
    from rich.panel import Panel
    from rich.text import Text

    return Panel(
        Text(visible(question.body)), title=Text(visible(question.title)), title_align="left", border_style="yellow"
    )


async def answered_yes(repl: Repl, question: Question, *, waiting: str, declined: str) -> bool:
    """Ask a yes-or-no `question` (trusting what a repository brings); True on yes. A line typed
    instead goes to the agent, after `waiting`; a no says `declined`."""
    reply = await repl.questions.channel.ask(question)
    if reply.choice is None:  # a prompt typed while the question stood: it goes to the agent
        repl.renderer.notice(waiting)
        await repl.submit(reply.text)
        return False
    if reply.choice != "yes":
        repl.renderer.notice(declined)
        return False
    return True
