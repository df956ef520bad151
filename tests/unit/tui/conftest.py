"""A REPL driven in-process: prompt_toolkit's pipe input for the keyboard, a Rich console that records.

`start_repl(...)` starts a real `Repl` (real warm-up thread, real Agent Loop, real scripted model)
on the test's event loop; the test types with `session.send("…")` and reads what a user would see
with `await session.wait_for("…")`.
"""

import asyncio
import io
import json
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import ExitStack
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import pytest
from prompt_toolkit.input import PipeInput, create_pipe_input
from prompt_toolkit.output import DummyOutput
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel
from rich.console import Console

from decode.agent.facts import is_facts
from decode.agent.options import LoopOptions
from decode.config.settings import Settings
from decode.permissions.types import Mode
from decode.tui.app import Repl
from tests.conftest import until as _poll_until

WAIT_S = 60.0  # a deadline, not a delay: under load the first warm-up imports pydantic-ai slowly

Until = Callable[[Callable[[], bool]], Awaitable[None]]


async def _until(condition: Callable[[], bool]) -> None:
    """Let the event loop run until `condition()` holds (failing the test after WAIT_S)."""
    assert await _poll_until(condition, WAIT_S), "the condition never held"


@dataclass
class Session:
    repl: Repl
    keyboard: PipeInput
    console: Console
    task: "asyncio.Task[int]"

    def output(self) -> str:
        file = self.console.file
        assert isinstance(file, io.StringIO)
        return file.getvalue()

    def type(self, keys: str) -> None:
        """Press keys (text or escape sequences such as "\\x03" for Ctrl-C)."""
        self.keyboard.send_text(keys)

    def send(self, line: str) -> None:
        """Type a line and press Enter."""
        self.type(line + "\r")

    async def wait_for(self, text: str, *, count: int = 1) -> str:
        """Wait until `text` appears `count` times in the output; returns the whole output."""
        try:
            async with asyncio.timeout(WAIT_S):
                while self.output().count(text) < count:
                    if self.task.done():
                        raise AssertionError(f"the REPL ended before {text!r} appeared:\n{self.output()}")
                    await asyncio.sleep(0.01)
        except TimeoutError:
            raise AssertionError(f"{text!r} did not appear; the screen shows:\n{self.output()}") from None
        return self.output()

    async def wait_until(self, condition: Callable[[], bool]) -> None:
        await _until(condition)

    async def warm(self) -> None:
        """Wait until the warm-up is over (the Agent Loop is built, or why not is known)."""
        await self.wait_until(lambda: self.repl.status.phase != "starting")

    async def exit_code(self) -> int:
        """Wait for the REPL to end and return its exit code."""
        async with asyncio.timeout(WAIT_S):
            return await self.task


@pytest.fixture
def until() -> Until:
    """`await until(condition)`: wait on the event loop until `condition()` holds."""
    return _until


@pytest.fixture
def script(project: Path) -> Callable[[list[dict[str, Any]]], str]:
    """Write a scripted-model file in the project; returns its model string."""
    counter = iter(range(1000))

    def write(responses: list[dict[str, Any]]) -> str:
        path = project / f"script-{next(counter)}.json"
        path.write_text(json.dumps(responses), encoding="utf-8")
        return f"script:{path}"

    return write


@pytest.fixture
async def start_repl(project: Path, settings: Settings) -> AsyncIterator[Callable[..., Awaitable[Session]]]:
    sessions: list[Session] = []
    pipes = ExitStack()

    async def start(model: str | None = None, **options: Any) -> Session:
        keyboard = pipes.enter_context(create_pipe_input())
        # Wide, so a line (an error naming a temporary path) never wraps in the middle of what a test looks for.
        console = Console(file=io.StringIO(), width=300, highlight=False, force_terminal=False)
        if isinstance(mode := options.pop("permission_mode", None), str):
            mode = Mode.parse(mode)
        own = {name: options.pop(name) for name in ("settings", "commands", "history_file") if name in options}
        asked = LoopOptions(project, model=model, permission_mode=mode, **options)  # what the command line says
        own.setdefault("settings", settings)
        repl = Repl(console=console, options=asked, input=keyboard, output=DummyOutput(), **own)
        session = Session(repl, keyboard, console, asyncio.create_task(repl.run()))
        sessions.append(session)
        return session

    yield start
    for session in sessions:
        if not session.task.done():
            session.task.cancel()
        await asyncio.gather(session.task, return_exceptions=True)
    pipes.close()


def user_prompts(messages: list[ModelMessage]) -> list[str]:
    return [
        p.content
        for m in messages
        for p in m.parts
        if p.part_kind == "user-prompt" and isinstance(p.content, str) and not is_facts(p)
    ]


class SlowModel:
    """Answers "first" only once the test releases it; records what each request carried."""

    def __init__(self) -> None:
        self.asked, self.release = asyncio.Event(), asyncio.Event()
        self.requests: list[list[str]] = []

    async def stream(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        prompts = user_prompts(messages)
        self.requests.append(prompts)
        if len(self.requests) == 1:
            self.asked.set()
            await self.release.wait()
        yield f"answer {len(self.requests)}."

    def install(self, repl: Repl) -> None:
        assert repl.loop is not None
        repl.loop.model = FunctionModel(stream_function=self.stream)  # as /model swaps it


Busy = tuple[Session, SlowModel]


@pytest.fixture
async def busy(start_repl: Callable[..., Awaitable[Session]]) -> Busy:
    """A warm REPL whose model got "first" and holds its answer until `model.release` is set."""
    session = await start_repl("test")
    await session.warm()
    model = SlowModel()
    model.install(session.repl)
    session.send("first")
    await asyncio.wait_for(model.asked.wait(), 20)
    return session, model
