"""Lesson 02's exercises: a request ceiling for the hand-made loop, and a tool declared as a ToolSpec.

Each `check_NAME(candidate)` runs the candidate for real, on the scripted model, and shows ✓ or ✗
with the reason (`course.check`). The reference solutions are in `solutions.py`.
"""

import asyncio
import json
import tempfile
import threading
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from course import Verdict, check
from pydantic_ai.exceptions import UsageLimitExceeded
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, ToolReturnPart

from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.entities.events import ToolCallFinished
from decode.entities.tools import ToolKind, ToolSpec
from decode.models.script import ScriptedModel, ScriptedResponse


def run_async[T](coroutine: Coroutine[Any, Any, T]) -> T:
    """Run a coroutine to its end from plain code, even inside Jupyter's running event loop."""
    outcome: dict[str, Any] = {}

    def target() -> None:
        try:
            outcome["value"] = asyncio.run(coroutine)
        except BaseException as exc:  # handed to the caller's thread below
            outcome["error"] = exc

    thread = threading.Thread(target=target)
    thread.start()
    thread.join()
    if "error" in outcome:
        raise outcome["error"]
    return outcome["value"]


def script(*responses: dict[str, Any]) -> ScriptedModel:
    return ScriptedModel([ScriptedResponse.model_validate(response) for response in responses])


ASK = {"text": "Let me look.", "tool_calls": [{"name": "shout", "args": {"word": "hello"}}]}


def check_react_with_ceiling(candidate: Callable[..., Coroutine[Any, Any, list[ModelMessage]]]) -> Verdict:
    """`candidate(model, prompt, tools, max_requests)` runs the ReAct loop and stops at the ceiling."""

    def shout(word: str) -> str:
        """Say a word loudly."""
        return word.upper() + "!"

    tools = {"shout": shout}

    def test() -> None:
        model = script({"text": "Hi."})
        messages = run_async(candidate(model, "Say hi.", tools, 1))
        assert isinstance(messages, list), "it should return the conversation, a list of messages"
        assert messages, "it returned no messages: it should return the conversation"
        last = messages[-1]
        assert isinstance(last, ModelResponse), f"the last message should be the model's answer, not {last}"
        assert last.text == "Hi.", f"the last message should be the answer 'Hi.', not {last.text!r}"

        model = script(ASK, {"text": "HELLO!"})
        messages = run_async(candidate(model, "Shout hello.", tools, 2))
        returns = [
            part
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        assert [part.content for part in returns] == ["HELLO!"], f"the tool's result should go back once: {returns}"
        assert messages[-1].text == "HELLO!", "a turn that needs exactly `max_requests` requests should finish"

        for ceiling in (1, 3):
            model = script(*[ASK] * 10)  # a model that never stops calling tools
            try:
                run_async(candidate(model, "Shout forever.", tools, ceiling))
            except UsageLimitExceeded:
                pass
            else:
                raise AssertionError(f"with max_requests={ceiling} and a model that never stops, nothing was raised")
            assert model.played == ceiling, (
                f"with max_requests={ceiling} it made {model.played} requests; stop before request {ceiling + 1}"
            )

    return check("the hand-made loop stops at the request ceiling", test)


def check_line_count_tool(candidate: ToolSpec) -> Verdict:
    """`candidate` is a ToolSpec `count_lines(path)` that counts a file's lines, declared read-only."""

    def test() -> None:
        assert isinstance(candidate, ToolSpec), "it should be a ToolSpec(name, function, traits)"
        with tempfile.TemporaryDirectory(prefix="decode-exercise-") as folder:
            home = Path(folder).resolve()
            (home / "poem.txt").write_text("one two\nthree\nfour five six\n")
            turns = [
                {"tool_calls": [{"name": "count_lines", "args": {"path": "poem.txt"}}]},
                {"text": "poem.txt has 3 lines."},
            ]
            (home / "turns.json").write_text(json.dumps(turns))
            options = LoopOptions(
                home=home, settings=Settings(_env_file=None), model=f"script:{home / 'turns.json'}", tools=[candidate]
            )
            loop = build_loop(options).loop

            async def turn() -> list[Any]:
                return [event async for event in loop.run_turn("How many lines has poem.txt?")]

            events = run_async(turn())
        results = [event.result for event in events if isinstance(event, ToolCallFinished)]
        assert len(results) == 1, f"the model called count_lines once, but {len(results)} results came back"
        result = results[0]
        assert not result.is_error, f"the call failed: {' '.join(result.content.split())}"
        assert result.content == "3", f"poem.txt has 3 lines (and 6 words), the tool said {result.content!r}"
        definition = candidate.to_tool().tool_def
        assert definition.description, "give the function a docstring: it is the description the model reads"
        assert list(definition.parameters_json_schema.get("properties", {})) == ["path"], (
            f"the model should see one argument, `path`: {definition.parameters_json_schema}"
        )
        traits = candidate.traits
        assert traits.kind is ToolKind.READ_ONLY, f"it only reads, so its kind is READ_ONLY, not {traits.kind}"
        assert "Read" in traits.rules, f"the Read rules should govern it; its rules are {traits.rules}"
        assert traits.argument({"path": "poem.txt"}) == "poem.txt", "its traits should name `path` as the path"

    return check("a read-only count_lines tool", test)
