"""Lesson 10's exercises: each check runs the learner's function on a real pydantic-ai run.

The runs are offline: a plain pydantic-ai agent on decode's scripted model (lesson 02) with one
slow `shell` tool, in a scratch folder. The checks are plain functions, so they run in a thread of
their own (the notebook's kernel already has an event loop running).
"""

import asyncio
import concurrent.futures
import json
import tempfile
from collections.abc import Callable, Coroutine, Sequence
from pathlib import Path
from typing import Any

from course import Verdict, check
from pydantic_ai import Agent
from pydantic_ai.exceptions import RunCancelled
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart, UserPromptPart

from decode.models.script import ScriptedModel


def _run(coroutine: Coroutine[Any, Any, None]) -> None:
    """Run `coroutine` to its end on an event loop of its own (works inside a notebook too)."""
    with concurrent.futures.ThreadPoolExecutor(1) as pool:
        pool.submit(asyncio.run, coroutine).result()


def _agent(responses: list[dict], started: asyncio.Event) -> Agent[None, str]:
    """A pydantic-ai agent on the scripted model, with a `shell` tool that "runs" slowly (`sleep` forever)."""
    folder = Path(tempfile.mkdtemp(prefix="decode-exercise07-"))
    (folder / "script.json").write_text(json.dumps(responses))
    agent = Agent(ScriptedModel.from_file(folder / "script.json"))

    @agent.tool_plain
    async def shell(command: str) -> str:
        """Run a shell command."""
        started.set()
        await asyncio.sleep(300 if command.startswith("sleep") else 0.05)
        return f"ran {command}"

    return agent


def _said(messages: Sequence[ModelMessage]) -> list[str]:
    lines = []
    for message in messages:
        for part in message.parts:
            if part.part_kind in ("user-prompt", "text", "tool-return"):
                lines.append(f"{part.part_kind}: {part.content}")
            elif part.part_kind == "tool-call":
                lines.append(f"tool-call: {part.args_as_dict()['command']}")
    return lines


def _guarded(description: str, call: Callable[[], Any]) -> Any:
    """Call the learner's code; an exception it raises becomes a failed check that names it."""
    try:
        return call()
    except (AssertionError, NotImplementedError):
        raise
    except Exception as exc:
        raise AssertionError(f"{description} raised {type(exc).__name__}: {exc}") from None


# --- exercise 1: a steer that cannot get lost -------------------------------------------------------


def check_steer(steer: Callable[[Any, str, list[str]], str | None]) -> Verdict:
    """`steer(run, text, waiting)` hands `text` to the running `run` before the model's next request,
    and, when the run has ended and takes nothing more, appends it to `waiting` instead."""

    def test() -> None:
        async def scenario() -> None:
            started = asyncio.Event()
            agent = _agent(
                [
                    {"text": "Installing.", "tool_calls": [{"name": "shell", "args": {"command": "npm install"}}]},
                    {"text": "Right, pnpm it is."},
                    {"text": "(one more answer, for a message read after the end)"},
                ],
                started,
            )
            waiting: list[str] = []
            returned: list[str | None] = []
            async with agent.iter("install the dependencies") as run:

                async def user() -> None:
                    await started.wait()  # the tool runs: the model is not reading now
                    returned.append(steer(run, "use pnpm, not npm", waiting))

                typing = asyncio.create_task(user())
                async for _node in run:
                    pass
                await typing
            said = _said(run.all_messages())
            assert "user-prompt: use pnpm, not npm" in said, (
                f"the model never received the steer; the conversation was {said}"
            )
            after_tool = said.index("tool-return: ran npm install")
            assert said[after_tool + 1] == "user-prompt: use pnpm, not npm", (
                "the steer must reach the model in its next request, with the tool's result "
                f"(priority='asap'); it came later: {said}"
            )
            assert waiting == [], f"a steer the run took must not wait for the next turn too: waiting = {waiting}"
            assert isinstance(returned[0], str), f"return the id run.enqueue() gives, not {returned[0]!r}"
            late = _guarded("steer() on a run that has ended", lambda: steer(run, "and run the tests", waiting))
            assert waiting == ["and run the tests"], (
                f"a message sent after the run ended must wait for the next turn: waiting = {waiting}"
            )
            assert late is None, f"a message the run did not take has no enqueue id: return None, not {late!r}"

        _guarded("steer()", lambda: _run(scenario()))

    return check("a steer reaches the model's next request, and a late one waits for the next turn", test)


# --- exercise 2: abort, and keep the partial turn ---------------------------------------------------


async def _aborted_turn() -> list[ModelMessage]:
    """The new messages of a turn aborted while one of its two tool calls still ran."""
    started = asyncio.Event()
    agent = _agent(
        [
            {
                "text": "Two commands.",
                "tool_calls": [
                    {"name": "shell", "args": {"command": "date"}},
                    {"name": "shell", "args": {"command": "sleep 300"}},
                ],
            }
        ],
        started,
    )

    async def turn() -> None:
        async with agent.iter("what time is it, then wait") as run:
            async for _node in run:
                pass

    task = asyncio.create_task(turn())
    await started.wait()
    await asyncio.sleep(0.2)  # `date` has answered, `sleep 300` has not
    task.cancel()
    try:
        await task
    except asyncio.CancelledError as cancelled:
        state = RunCancelled.from_cancellation(cancelled)
        assert state is not None
        return list(state.new_messages())
    raise RuntimeError("the turn was not cancelled")


def check_close_turn(close_turn: Callable[[list[ModelMessage]], list[ModelMessage]]) -> Verdict:
    """`close_turn(messages)` makes an aborted turn valid: every tool call answered once, the results
    that came back kept, an "interrupted" result for the others, and a closing note from the user."""

    def test() -> None:
        captured: list[list[ModelMessage]] = []

        async def abort() -> None:
            captured.append(await _aborted_turn())

        _run(abort())
        messages = captured[0]
        closed = _guarded("close_turn()", lambda: close_turn(list(messages)))
        assert isinstance(closed, list), f"close_turn() must return the list of messages, not {closed!r}"
        responses = [message for message in closed if isinstance(message, ModelResponse)]
        assert responses, "the partial turn is gone: keep the model's response and its calls"
        assert responses[-1].tool_calls, "the partial turn is gone: keep the model's response and its calls"
        answers: dict[str, list[str]] = {}
        for message in closed:
            if isinstance(message, ModelRequest):
                for part in message.parts:
                    if isinstance(part, ToolReturnPart):
                        answers.setdefault(part.tool_call_id, []).append(str(part.content))
        for call in responses[-1].tool_calls:
            command = call.args_as_dict()["command"]
            got = answers.get(call.tool_call_id, [])
            assert got, f"the call shell({command}) has no result: an orphan, the next request would be rejected"
            assert len(got) == 1, f"the call shell({command}) has {len(got)} results; give each call exactly one"
        date_call, sleep_call = responses[-1].tool_calls
        assert answers[date_call.tool_call_id] == ["ran date"], (
            f"shell(date) finished before the abort: keep its real result, not {answers[date_call.tool_call_id]}"
        )
        assert "interrupt" in answers[sleep_call.tool_call_id][0].lower(), (
            "the result of the call cut short should say it was interrupted, not "
            f"{answers[sleep_call.tool_call_id][0]!r}"
        )
        note = "end with a note from the user (a UserPromptPart in the last request), so the next prompt follows"
        assert isinstance(closed[-1], ModelRequest), note
        assert isinstance(closed[-1].parts[-1], UserPromptPart), note

    return check("an aborted turn is kept, every tool call answered exactly once", test)
