"""The input line: keys, history and completion, typed through prompt_toolkit's pipe input."""

import asyncio
from collections.abc import Iterator
from pathlib import Path

import pytest
from prompt_toolkit import PromptSession
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput

from decode.tui.commands import builtin_commands
from decode.tui.input import SlashCommandCompleter, TurnKeys, build_prompt_session
from tests.unit.tui.conftest import Until

ENTER, ALT_ENTER, CTRL_C, CTRL_D, TAB, UP = "\r", "\x1b\r", "\x03", "\x04", "\t", "\x1b[A"
MODELS = ["google-gla:gemini-flash-latest", "google-gla:", "script:"]

WAIT_S = 60.0  # a deadline, not a delay: a busy CI machine may take long to draw a prompt


@pytest.fixture
def keyboard() -> Iterator[PipeInput]:
    with create_pipe_input() as pipe:
        yield pipe


def session(keyboard: PipeInput, history: Path, interrupts: list[str] | None = None) -> PromptSession[str]:
    return build_prompt_session(
        commands=builtin_commands(),
        arguments=lambda name: MODELS if name == "model" else [],
        message="❯ ",
        footer="footer",
        on_interrupt=lambda: (interrupts if interrupts is not None else []).append("interrupt"),
        history_file=history,
        input=keyboard,
        output=DummyOutput(),
    )


async def read_line(prompt: PromptSession[str], keyboard: PipeInput, keys: str) -> str:
    keyboard.send_text(keys)
    async with asyncio.timeout(WAIT_S):
        return await prompt.prompt_async()


async def test_enter_sends_the_line(keyboard: PipeInput, tmp_path: Path) -> None:
    assert await read_line(session(keyboard, tmp_path / "h"), keyboard, "hello" + ENTER) == "hello"


async def test_alt_enter_and_a_trailing_backslash_add_lines(keyboard: PipeInput, tmp_path: Path) -> None:
    prompt = session(keyboard, tmp_path / "h")
    keys = "one" + ALT_ENTER + "two\\" + ENTER + "three" + ENTER
    assert await read_line(prompt, keyboard, keys) == "one\ntwo\nthree"


async def test_a_backslash_in_the_middle_of_a_line_is_kept(keyboard: PipeInput, tmp_path: Path) -> None:
    assert await read_line(session(keyboard, tmp_path / "h"), keyboard, r"C:\path" + ENTER) == r"C:\path"


async def test_ctrl_c_clears_the_line_and_on_an_empty_line_interrupts(keyboard: PipeInput, tmp_path: Path) -> None:
    interrupts: list[str] = []
    prompt = session(keyboard, tmp_path / "h", interrupts)
    assert await read_line(prompt, keyboard, "oops" + CTRL_C + "meant this" + ENTER) == "meant this"
    assert interrupts == []
    assert await read_line(prompt, keyboard, CTRL_C + "after" + ENTER) == "after"
    assert interrupts == ["interrupt"]


async def test_ctrl_d_on_an_empty_line_ends_the_input(keyboard: PipeInput, tmp_path: Path) -> None:
    with pytest.raises(EOFError):
        await read_line(session(keyboard, tmp_path / "h"), keyboard, CTRL_D)


async def test_history_is_kept_in_a_file_across_sessions(keyboard: PipeInput, tmp_path: Path) -> None:
    history = tmp_path / ".decode" / "history"
    await read_line(session(keyboard, history), keyboard, "first prompt" + ENTER)
    assert "first prompt" in history.read_text()  # the directory was created too

    with create_pipe_input() as later:
        assert await read_line(session(later, history), later, UP + ENTER) == "first prompt"


async def test_tab_completes_a_command_and_enter_takes_a_highlighted_completion(
    keyboard: PipeInput, tmp_path: Path, until: Until
) -> None:
    prompt = session(keyboard, tmp_path / "h")
    buffer = prompt.default_buffer
    line = asyncio.ensure_future(prompt.prompt_async())
    # Completions arrive asynchronously, as they would while a person types: wait for them.
    keyboard.send_text("/mo")
    await until(lambda: buffer.complete_state is not None and buffer.complete_state.completions)
    keyboard.send_text(TAB)
    await until(lambda: buffer.text == "/model")
    keyboard.send_text(ENTER)  # takes the highlighted completion, does not send
    await until(lambda: buffer.complete_state is None)
    assert not line.done()
    keyboard.send_text(" test" + ENTER)
    async with asyncio.timeout(WAIT_S):
        assert await line == "/model test"


def completions(text: str) -> list[tuple[str, str]]:
    completer = SlashCommandCompleter(builtin_commands(), lambda name: MODELS if name == "model" else [])
    found = completer.get_completions(Document(text), CompleteEvent(text_inserted=True))
    return [(completion.text, completion.display_meta_text) for completion in found]


def test_typing_a_slash_offers_every_command_with_its_summary() -> None:
    offered = completions("/")
    assert [text for text, _ in offered] == [f"/{command.name}" for command in builtin_commands()]
    assert [text for text, _ in offered][:3] == ["/help", "/status", "/model"]
    assert ("/cost", "Show the tokens and cost so far") in offered
    assert [text for text, _ in completions("/c")] == ["/clear", "/cost"]


def test_a_commands_argument_is_completed_from_its_suggestions() -> None:
    assert [text for text, _ in completions("/model google")] == ["google-gla:gemini-flash-latest", "google-gla:"]
    assert completions("/clear x") == []
    assert completions("/nope x") == []


def test_prompts_get_no_completions() -> None:
    assert completions("fix the /etc/hosts") == []
    assert completions("/help\nmore") == []


# -- while a turn runs (lesson 10) ---------------------------------------------------------------

ESC = "\x1b"


class Turn:
    """A stand-in for the REPL's side of `TurnKeys`: whether it is busy, and what the keys asked for."""

    def __init__(self, busy: bool) -> None:
        self.is_busy = busy
        self.actions: list[str] = []

    def keys(self) -> TurnKeys:
        return TurnKeys(
            busy=lambda: self.is_busy,
            abort=lambda: self.actions.append("abort"),
            follow_up=lambda text: self.actions.append(f"follow-up: {text}"),
        )


def busy_session(keyboard: PipeInput, history: Path, turn: Turn) -> PromptSession[str]:
    return build_prompt_session(
        commands=builtin_commands(),
        arguments=lambda name: [],
        message="❯ ",
        footer="footer",
        on_interrupt=lambda: turn.actions.append("interrupt"),
        turn_keys=turn.keys(),
        history_file=history,
        input=keyboard,
        output=DummyOutput(),
    )


async def test_while_busy_alt_enter_sends_a_follow_up_and_esc_and_ctrl_c_abort(
    keyboard: PipeInput, tmp_path: Path, until: Until
) -> None:
    turn = Turn(busy=True)
    prompt = busy_session(keyboard, tmp_path / "h", turn)
    keys = "then test" + ALT_ENTER + "steer\\" + ENTER + "two lines" + ENTER
    assert await read_line(prompt, keyboard, keys) == "steer\ntwo lines"  # Enter sends (the REPL steers)
    assert turn.actions == ["follow-up: then test"]

    reading = asyncio.create_task(prompt.prompt_async())
    keyboard.send_text(ESC)
    await until(lambda: turn.actions[-1:] == ["abort"])
    keyboard.send_text("kept" + CTRL_C)
    await until(lambda: turn.actions == ["follow-up: then test", "abort", "abort"])
    assert prompt.default_buffer.text == "kept"  # stopping the turn leaves the line alone
    reading.cancel()
    await asyncio.gather(reading, return_exceptions=True)


async def test_while_idle_alt_enter_still_adds_a_line(keyboard: PipeInput, tmp_path: Path) -> None:
    turn = Turn(busy=False)
    prompt = busy_session(keyboard, tmp_path / "h", turn)
    assert await read_line(prompt, keyboard, "one" + ALT_ENTER + "two" + ENTER) == "one\ntwo"
    assert turn.actions == []


async def test_ctrl_c_twice_in_a_row_leaves(keyboard: PipeInput, tmp_path: Path) -> None:
    turn = Turn(busy=True)
    with pytest.raises(EOFError):
        await read_line(busy_session(keyboard, tmp_path / "h", turn), keyboard, CTRL_C + CTRL_C)
    assert turn.actions == ["abort"]  # the first stopped the turn, the second left


def test_extra_names_such_as_skills_are_offered_unless_a_command_has_the_name() -> None:
    extra = [("lint", "Run the linters."), ("cost", "A skill hidden by /cost.")]
    completer = SlashCommandCompleter(builtin_commands(), lambda name: [], lambda: extra)
    found = completer.get_completions(Document("/"), CompleteEvent(text_inserted=True))
    offered = [(completion.text, completion.display_meta_text) for completion in found]
    assert ("/lint", "Run the linters.") in offered
    assert [text for text, _ in offered].count("/cost") == 1
    assert ("/cost", "A skill hidden by /cost.") not in offered
