"""The Decision Channel: the one place the agent asks the user something, one question at a time.

Two things can stop a turn to ask the user: the Permission Gate (`ask`: may this tool call run?)
and, from lesson 13, the model itself (`ask_user`: which database?). Parallel tool calls can ask
at the same moment. If each drew its own prompt, the user would see two questions and not know
which one their answer goes to. So every question goes through a `DecisionChannel`:

    approval (lesson 06) ─┐
                          ├─▶ DecisionChannel.ask(question) ──▶ one question on screen ──▶ Reply
    ask_user (lesson 13) ─┘         (the others wait their turn)        ▲
                                                                        │ the user's next line
                                                              DecisionChannel.answer(line)

A `Question` has a text, the `Option`s offered (each with a short key such as `y` or `1`), and
whether an answer of the user's own is welcome ("no, use pnpm here"). The front end shows `current`, and routes the
next line the user sends to `answer()` instead of to the agent (or a single key: an option whose
key is one character answers as soon as it is pressed on an empty line). `waiting` holds every
question asked and not yet answered, the current one included: a tool call whose question waits
is waiting for the user, not working, and its clock stops. Aborting the turn cancels the waiting
`ask()`s: the question disappears with the turn.
"""

from __future__ import annotations

import asyncio
from collections.abc import Callable
from dataclasses import dataclass, field


@dataclass(frozen=True)
class Option:
    """One answer offered: the user types its `key` (`y`) or its `label` (`yes`)."""

    key: str
    label: str
    note: str = ""
    """Shown after the label in the hint, not matched: `a = always: Bash(python:*)`."""

    def matches(self, text: str) -> bool:
        word = text.strip().lower()
        return word in (self.key.lower(), self.label.lower())


@dataclass(frozen=True)
class Question:
    """What the user is asked: `text`, the `options`, and whether any other text is an answer too."""

    text: str
    options: tuple[Option, ...] = ()
    free_text: str | None = "type your answer"
    """How the hint invites an answer of the user's own (a reason, a custom choice): a line that
    matches no option is then the answer. None: only the options answer."""
    detail: str = ""
    """A line of context printed once when the question is asked (the gate's reason)."""
    body: str = ""
    """Text shown whole, once, when the question is asked (a long command, in a panel); '' for none."""
    title: str = ""
    """The body's title (the tool's name)."""
    about: str = ""
    """What waits for the answer: the id of the tool call whose approval this is, if any."""

    def hint(self) -> str:
        """`y = yes · a = always · n = no · or type your answer`."""
        choices = [f"{option.key} = {option.label}{option.note}" for option in self.options]
        if self.free_text:
            choices.append(f"or {self.free_text}")
        return " · ".join(choices)

    def parse(self, line: str) -> Reply | None:
        """The user's line as a reply; None when it answers nothing (an empty line, an unknown word)."""
        text = line.strip()
        if not text:
            return None
        for option in self.options:
            if option.matches(text):
                return Reply(choice=option.key, text=text)
        return Reply(choice=None, text=text) if self.free_text else None


@dataclass(frozen=True)
class Reply:
    """The user's answer: the key of the option they chose, or None and their own `text`."""

    choice: str | None
    text: str


@dataclass
class _Asked:
    question: Question
    reply: asyncio.Future[Reply] = field(default_factory=lambda: asyncio.get_running_loop().create_future())


class DecisionChannel:
    """Serialises questions to the user: `ask()` waits its turn, then waits for `answer()`."""

    def __init__(self, on_change: Callable[[], None] = lambda: None) -> None:
        self.on_change = on_change  # redraw: the question on screen changed
        self._current: _Asked | None = None
        self._waiting: list[Question] = []
        self._one_at_a_time = asyncio.Lock()

    @property
    def current(self) -> Question | None:
        """The question on screen, if one is waiting for its answer."""
        return self._current.question if self._current is not None else None

    @property
    def waiting(self) -> tuple[Question, ...]:
        """Every question asked and not answered yet: the current one and those waiting their turn."""
        return tuple(self._waiting)

    async def ask(self, question: Question) -> Reply:
        """Ask `question` once no other question is open, and wait for the answer."""
        self._waiting.append(question)
        self.on_change()
        try:
            async with self._one_at_a_time:
                self._current = _Asked(question)
                self.on_change()
                try:
                    return await self._current.reply
                finally:
                    self._current = None
        finally:
            self._waiting.remove(question)
            self.on_change()

    def answer(self, line: str) -> Reply | None:
        """Take `line` as the answer to the open question; None if there is none or the line answers nothing.

        Check `current` first: a line sent while no question is open is not an answer.
        """
        asked = self._current
        if asked is None or asked.reply.done():
            return None
        reply = asked.question.parse(line)
        if reply is not None:
            asked.reply.set_result(reply)
        return reply
