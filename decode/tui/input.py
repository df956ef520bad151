"""The input line: a prompt_toolkit `PromptSession` with decode's keys, history and completion.

- Enter sends; Alt+Enter, or a backslash at the end of the line, adds a line instead.
- Ctrl-C stops the running turn; otherwise it clears the line, and on an empty line it calls
  `on_interrupt` (the REPL says how to leave). Twice in a row, quickly, it leaves (like Ctrl-D).
- Ctrl-D on an empty line ends the session (prompt_toolkit raises `EOFError`).
- While a turn runs, some keys do more: `TurnKeys` says which.
- Shift+Tab calls `on_cycle_mode`, when the REPL gives one.
- A paste of many lines goes into the line as a placeholder, `[Pasted text #1 +95 lines]`, when the
  REPL gives a `Pastes` (`pastes.py`): the line sent gets the text back.
- Ctrl+O calls `on_show_last` (the REPL opens the call pager, `pager.py`), when it gives one.
- `extra_keys` adds the bindings of later parts (the single-key answers to a question).
- History is kept in a file under `.decode/` of the launch directory, so it survives restarts
  and stays with the project.
- Typing `/` offers the slash commands (with their summaries); after `/model ` it offers models;
  `completers` add more (`@path`, lesson 04: `mentions.py`).

The session is built from plain callables (the message above the input, the footer, the
interrupt handler) so the REPL wires it up, and tests drive it through prompt_toolkit's pipe input.
"""

import logging
import time
from collections.abc import Callable, Iterable, Sequence
from dataclasses import dataclass
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion, merge_completers
from prompt_toolkit.document import Document
from prompt_toolkit.filters import Condition
from prompt_toolkit.formatted_text import AnyFormattedText
from prompt_toolkit.history import FileHistory, History, InMemoryHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyBindingsBase, KeyPressEvent, merge_key_bindings
from prompt_toolkit.keys import Keys
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.tui.commands import CommandRegistry
from decode.tui.pastes import Pastes

logger = logging.getLogger(__name__)

HISTORY_FILE = HARNESS_DIR / "history"
PROMPT = "❯ "
CONTINUATION = "· "
DOUBLE_PRESS_S = 1.0  # a second Ctrl-C within this many seconds leaves
# Esc is also how terminals spell Alt (Alt+Enter is Esc, Enter): prompt_toolkit waits this long
# for a second key before it takes Esc as a key of its own (its default is 0.5 s for the bytes
# of a sequence, then 1 s for a key binding). Terminals send Alt+key in one write.
ESCAPE_WAIT_S = 0.1

STYLE = Style.from_dict(
    {
        "prompt": "bold ansicyan",
        "continuation": "ansibrightblack",
        "bottom-toolbar": "noreverse bg:default",
        "bottom-toolbar.text": "",
        "footer": "ansibrightblack",
        "footer.separator": "ansibrightblack",
        "footer.model": "ansicyan",
        "footer.busy": "ansiyellow",
        "footer.ready": "ansigreen",
        "footer.error": "ansired bold",
        "footer.gauge": "ansibrightblack",
        "footer.gauge.full": "ansired",
        "footer.mode": "ansimagenta",
        "approval": "ansiyellow bold",
    }
)


class SlashCommandCompleter(Completer):
    """Completes `/name` from the registry and, for commands that offer them, the argument."""

    def __init__(
        self,
        commands: CommandRegistry,
        arguments: Callable[[str], list[str]],
        extra: Callable[[], list[tuple[str, str]]] = list,
    ) -> None:
        self.commands = commands
        self.arguments = arguments  # command name -> suggestions for its argument
        self.extra = extra  # more `/name`s, each with a summary, that the registry does not hold

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/") or "\n" in text:
            return
        name, space, argument = text[1:].partition(" ")
        if not space:
            entries = [(command.name, command.summary) for command in self.commands]
            entries += [(extra, summary) for extra, summary in self.extra() if self.commands.get(extra) is None]
            for entry, summary in entries:
                if entry.startswith(name):
                    yield Completion(f"/{entry}", start_position=-len(text), display_meta=summary)
            return
        if self.commands.get(name) is None:
            return
        for choice in self.arguments(name):
            if choice.startswith(argument) and choice != argument:
                yield Completion(choice, start_position=-len(argument))


@dataclass(frozen=True)
class TurnKeys:
    """What the keys do while a turn runs: the REPL says when it is busy, and acts on them (`/help`
    lists them, `commands.KEYS`)."""

    busy: Callable[[], bool]
    abort: Callable[[], None]
    follow_up: Callable[[str], None]  # [lesson 10]


def key_bindings(
    on_interrupt: Callable[[], None],
    on_cycle_mode: Callable[[], None] | None = None,
    turn_keys: TurnKeys | None = None,
    on_show_last: Callable[[], None] | None = None,
    pastes: Pastes | None = None,
) -> KeyBindings:
    """The keys as the module docstring describes them."""
    bindings = KeyBindings()
    busy = Condition(turn_keys.busy if turn_keys is not None else lambda: False)
    last_interrupt = [float("-inf")]

    if on_cycle_mode is not None:

        @bindings.add("s-tab")
        def _cycle_mode(event: KeyPressEvent) -> None:
            on_cycle_mode()

    if on_show_last is not None:

        @bindings.add("c-o")
        def _show_last(event: KeyPressEvent) -> None:
            on_show_last()

    if pastes is not None:

        @bindings.add(Keys.BracketedPaste)
        def _paste(event: KeyPressEvent) -> None:
            event.current_buffer.insert_text(pastes.collapse(event.data))

    @bindings.add("enter")
    def _send(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        state = buffer.complete_state
        if state is not None and state.current_completion is not None:
            # Enter on a highlighted completion takes it, like Tab, instead of sending half a word.
            buffer.apply_completion(state.current_completion)
            return
        if buffer.document.text_before_cursor.endswith("\\") and buffer.document.is_cursor_at_the_end:
            buffer.delete_before_cursor()
            buffer.newline(copy_margin=False)
            return
        buffer.validate_and_handle()

    @bindings.add("escape", "enter")
    def _newline_or_follow_up(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if turn_keys is not None and busy() and buffer.text.strip():  # [lesson 10]
            text = buffer.text
            buffer.append_to_history()
            buffer.reset()
            turn_keys.follow_up(text)
            return
        buffer.newline(copy_margin=False)

    @bindings.add("escape", filter=busy)
    def _abort(event: KeyPressEvent) -> None:  # [lesson 10]
        assert turn_keys is not None
        turn_keys.abort()

    @bindings.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        now, previous = time.monotonic(), last_interrupt[0]
        last_interrupt[0] = now
        if event.is_repeat and now - previous < DOUBLE_PRESS_S:
            event.app.exit(exception=EOFError())  # twice in a row: leave, as Ctrl-D does
            return
        buffer = event.current_buffer
        if turn_keys is not None and busy():
            turn_keys.abort()
        elif buffer.text:
            buffer.reset()
        else:
            on_interrupt()

    return bindings


def build_prompt_session(
    *,
    commands: CommandRegistry,
    arguments: Callable[[str], list[str]],
    message: Callable[[], AnyFormattedText],
    footer: Callable[[], AnyFormattedText],
    on_interrupt: Callable[[], None],
    history_file: Path,
    extra_commands: Callable[[], list[tuple[str, str]]] = list,
    on_cycle_mode: Callable[[], None] | None = None,
    turn_keys: TurnKeys | None = None,
    on_show_last: Callable[[], None] | None = None,
    pastes: Pastes | None = None,
    extra_keys: KeyBindingsBase | None = None,
    completers: Sequence[Completer] = (),
    input: Input | None = None,
    output: Output | None = None,
) -> PromptSession[str]:
    """The REPL's prompt session. `completers` complete more than slash commands (later lessons'
    `@path`); `input`/`output` default to the terminal (tests pass a pipe)."""
    history: History = InMemoryHistory()
    try:
        make_parent_dirs(history_file)
        history = FileHistory(str(history_file))
    except OSError as exc:  # a history linked out of the project, a read-only disk: this session only
        logger.warning("prompt history is not saved: %s", exc)
    session: PromptSession[str] = PromptSession(
        message=message,
        multiline=True,
        prompt_continuation=lambda width, line_number, is_soft_wrap: [("class:continuation", CONTINUATION)],
        key_bindings=merge_key_bindings(
            [key_bindings(on_interrupt, on_cycle_mode, turn_keys, on_show_last, pastes), extra_keys or KeyBindings()]
        ),
        history=history,
        auto_suggest=AutoSuggestFromHistory(),
        completer=merge_completers([SlashCommandCompleter(commands, arguments, extra_commands), *completers]),
        complete_while_typing=True,
        bottom_toolbar=footer,
        style=STYLE,
        # The REPL echoes the prompt itself when its turn starts; leaving the submitted input on
        # screen would drop it into the middle of a streaming answer.
        erase_when_done=True,
        input=input,
        output=output,
    )
    session.app.ttimeoutlen = session.app.timeoutlen = ESCAPE_WAIT_S
    return session
