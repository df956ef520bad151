"""The input line: a prompt_toolkit `PromptSession` with decode's keys, history and completion.

- Enter sends; Alt+Enter, or a backslash at the end of the line, adds a line instead.
- Ctrl-C clears the line; on an empty line it calls `on_interrupt` (the REPL stops the turn).
- Ctrl-D on an empty line ends the session (prompt_toolkit raises `EOFError`).
- Shift+Tab calls `on_cycle_mode` (the REPL switches the permission mode, lesson 06).
- History is kept in a file under `.decode/` of the launch directory, so it survives restarts
  and stays with the project.
- Typing `/` offers the slash commands (with their summaries); after `/model ` it offers models.

The session is built from plain callables (the message above the input, the footer, the
interrupt handler) so the REPL wires it up, and tests drive it through prompt_toolkit's pipe input.
"""

from collections.abc import Callable, Iterable
from pathlib import Path

from prompt_toolkit import PromptSession
from prompt_toolkit.auto_suggest import AutoSuggestFromHistory
from prompt_toolkit.completion import CompleteEvent, Completer, Completion
from prompt_toolkit.document import Document
from prompt_toolkit.formatted_text import AnyFormattedText
from prompt_toolkit.history import FileHistory
from prompt_toolkit.input import Input
from prompt_toolkit.key_binding import KeyBindings, KeyPressEvent
from prompt_toolkit.output import Output
from prompt_toolkit.styles import Style

from decode.tui.commands import CommandRegistry

HISTORY_FILE = Path(".decode") / "history"
PROMPT = "❯ "
CONTINUATION = "· "

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

    def __init__(self, commands: CommandRegistry, arguments: Callable[[str], list[str]]) -> None:
        self.commands = commands
        self.arguments = arguments  # command name -> suggestions for its argument

    def get_completions(self, document: Document, complete_event: CompleteEvent) -> Iterable[Completion]:
        text = document.text_before_cursor
        if not text.startswith("/") or "\n" in text:
            return
        name, space, argument = text[1:].partition(" ")
        if not space:
            for command in self.commands:
                if command.name.startswith(name):
                    yield Completion(
                        f"/{command.name}",
                        start_position=-len(text),
                        display_meta=command.summary,
                    )
            return
        if self.commands.get(name) is None:
            return
        for choice in self.arguments(name):
            if choice.startswith(argument) and choice != argument:
                yield Completion(choice, start_position=-len(argument))


def key_bindings(on_interrupt: Callable[[], None], on_cycle_mode: Callable[[], None] | None = None) -> KeyBindings:
    """Enter / Alt+Enter / trailing backslash / Ctrl-C / Shift+Tab as the module docstring describes."""
    bindings = KeyBindings()

    if on_cycle_mode is not None:

        @bindings.add("s-tab")
        def _cycle_mode(event: KeyPressEvent) -> None:
            on_cycle_mode()

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
    def _newline(event: KeyPressEvent) -> None:
        event.current_buffer.newline(copy_margin=False)

    @bindings.add("c-c")
    def _interrupt(event: KeyPressEvent) -> None:
        buffer = event.current_buffer
        if buffer.text:
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
    on_cycle_mode: Callable[[], None] | None = None,
    input: Input | None = None,
    output: Output | None = None,
) -> PromptSession[str]:
    """The REPL's prompt session. `input`/`output` default to the terminal (tests pass a pipe)."""
    history_file.parent.mkdir(parents=True, exist_ok=True)
    return PromptSession(
        message=message,
        multiline=True,
        prompt_continuation=lambda width, line_number, is_soft_wrap: [("class:continuation", CONTINUATION)],
        key_bindings=key_bindings(on_interrupt, on_cycle_mode),
        history=FileHistory(str(history_file)),
        auto_suggest=AutoSuggestFromHistory(),
        completer=SlashCommandCompleter(commands, arguments),
        complete_while_typing=True,
        bottom_toolbar=footer,
        style=STYLE,
        # The REPL echoes the prompt itself when its turn starts; leaving the submitted input on
        # screen would drop it into the middle of a streaming answer.
        erase_when_done=True,
        input=input,
        output=output,
    )
