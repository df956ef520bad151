"""Histories to test sessions and compaction with (real pydantic-ai messages, built by hand), and session logs."""

import json
import random
import subprocess
import sys
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.usage import RequestUsage

from decode.context.session_log import SessionLog
from decode.entities.usage import Usage


@dataclass
class Histories:
    """Builds conversations turn by turn, each tool call with a unique id and its result."""

    calls: int = 0

    def turn(
        self,
        prompt: str,
        answer: str,
        tools: list[tuple[str, dict, str]] | None = None,
        input_tokens: int = 0,
    ) -> list[ModelMessage]:
        """`prompt` → (a response calling each tool, its result)… → `answer`."""
        messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart(prompt)])]
        for name, args, output in tools or []:
            self.calls += 1
            call_id = f"call-{self.calls}"
            messages.append(ModelResponse(parts=[ToolCallPart(name, args, tool_call_id=call_id)]))
            messages.append(ModelRequest(parts=[ToolReturnPart(name, output, tool_call_id=call_id)]))
        usage = RequestUsage(input_tokens=input_tokens, output_tokens=len(answer) // 4 if input_tokens else 0)
        messages.append(ModelResponse(parts=[TextPart(answer)], usage=usage))
        return messages

    def random(self, rng: random.Random, turns: int) -> list[ModelMessage]:
        """A conversation of `turns` turns with 0–4 tool calls each (sometimes two in one response)."""
        messages: list[ModelMessage] = []
        for number in range(turns):
            messages.append(ModelRequest(parts=[UserPromptPart(f"task {number}: " + "word " * rng.randint(1, 80))]))
            for _ in range(rng.randint(0, 4)):
                width = rng.choice([1, 1, 2])
                ids = [f"call-{self.calls + index}" for index in range(width)]
                self.calls += width
                messages.append(
                    ModelResponse(parts=[ToolCallPart("read", {"path": f"f{i}.py"}, tool_call_id=i) for i in ids])
                )
                messages.append(
                    ModelRequest(
                        parts=[ToolReturnPart("read", "line\n" * rng.randint(1, 400), tool_call_id=i) for i in ids]
                    )
                )
            messages.append(ModelResponse(parts=[TextPart("done " * rng.randint(1, 60))]))
        return messages


@pytest.fixture
def histories() -> Histories:
    return Histories()


def _tool_pairs_intact(messages: list[ModelMessage]) -> bool:
    """Every tool call is answered later in `messages`, and every result answers an earlier call."""
    called: set[str] = set()
    for message in messages:
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                called.add(part.tool_call_id)
            elif isinstance(part, ToolReturnPart):
                if part.tool_call_id not in called:
                    return False
                called.discard(part.tool_call_id)
    return not called


@pytest.fixture
def tool_pairs_intact() -> Callable[[list[ModelMessage]], bool]:
    return _tool_pairs_intact


@pytest.fixture
def log(tmp_path: Path) -> SessionLog:
    """A new session's log in a scratch Harness Home (no file until the first record)."""
    return SessionLog.new(tmp_path, model="script:turns.json", mode="accept-edits")


@pytest.fixture
def three_turns(histories: Histories) -> Callable[[SessionLog], list[int]]:
    """Write three turns to a log; return the byte offset where each line starts."""

    def write(log: SessionLog) -> list[int]:
        for number in range(3):
            log.append_turn(histories.turn(f"turn {number}", "answer " * 50), Usage(), model="test")
        data = log.path.read_bytes()
        return [0, *[index + 1 for index, byte in enumerate(data) if byte == ord("\n")][:-1]]

    return write


@pytest.fixture
def log_lines() -> Callable[[Path], list[dict]]:
    """A log's lines, parsed."""
    return lambda path: [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


class Holder:
    """Another process holding a session log's Session Lock until it is stopped."""

    def __init__(self, log: Path) -> None:
        code = (
            "import sys, pathlib\nfrom decode.context.session_lock import hold\n"
            f"hold(pathlib.Path({str(log)!r}))\nprint('held', flush=True)\nsys.stdin.read()\n"
        )
        self.process = subprocess.Popen(
            [sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline() == "held\n"  # waits for the lock to be taken

    @property
    def pid(self) -> int:
        return self.process.pid

    def kill(self) -> None:
        """SIGKILL: it never lets go itself (the kernel does)."""
        self.process.kill()
        self.process.communicate()


@pytest.fixture
def held_elsewhere() -> Iterator[Callable[[Path], Holder]]:
    """`held_elsewhere(log)`: another process holds `log`; killed at the end of the test."""
    holders: list[Holder] = []

    def start(log: Path) -> Holder:
        holders.append(Holder(log))
        return holders[-1]

    yield start
    for holder in holders:
        if holder.process.poll() is None:
            holder.kill()
