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
from pydantic_ai.messages import ModelMessage, ModelResponse, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models import ModelRequestParameters
from pydantic_ai.settings import ModelSettings

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


class RecordingModel(ScriptedModel):
    """The scripted model, noting what each request sent it: the messages and the tools' names."""

    def __init__(self, responses: list[ScriptedResponse]) -> None:
        super().__init__(responses)
        self.requests: list[tuple[list[ModelMessage], list[str]]] = []

    async def request(
        self,
        messages: list[ModelMessage],
        model_settings: ModelSettings | None,
        model_request_parameters: ModelRequestParameters,
    ) -> ModelResponse:
        tools = [tool.name for tool in model_request_parameters.function_tools]
        self.requests.append((list(messages), tools))
        return await super().request(messages, model_settings, model_request_parameters)


def script(*responses: dict[str, Any]) -> RecordingModel:
    return RecordingModel([ScriptedResponse.model_validate(response) for response in responses])


def parts(messages: list[ModelMessage], kind: type) -> list[Any]:
    """Every part of type `kind` in the conversation."""
    return [part for message in messages for part in message.parts if isinstance(part, kind)]


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
        returns = parts(messages, ToolReturnPart)
        assert [part.content for part in returns] == ["HELLO!"], f"the tool's result should go back once: {returns}"
        assert messages[-1].text == "HELLO!", "a turn that needs exactly `max_requests` requests should finish"
        first, tool_names = model.requests[0]
        assert tool_names == ["shout"], f"the request should tell the model about the tool `shout`, not {tool_names}"
        assert [part.content for part in parts(first, UserPromptPart)] == ["Shout hello."], (
            "the first request should send the prompt"
        )
        second, _ = model.requests[1]
        sent = [part.content for part in parts(second, ToolReturnPart)]
        assert sent == ["HELLO!"], (
            f"the second request sent the model {len(second)} message(s) with tool results {sent}: "
            "send the whole conversation, the tool's result included, every time"
        )
        assert [part.tool_name for part in parts(second, ToolCallPart)] == ["shout"], (
            "the second request should hold the model's own first response (its tool call) too"
        )

        for ceiling in (1, 3):
            model = script(*[ASK] * 10)  # a model that never stops calling tools
            try:
                run_async(candidate(model, "Shout forever.", tools, ceiling))
            except UsageLimitExceeded:
                pass
            except Exception as exc:
                raise AssertionError(
                    f"with max_requests={ceiling} it raised {type(exc).__name__}, expected UsageLimitExceeded "
                    "(raise UsageLimitExceeded('…'), from pydantic_ai.exceptions)"
                ) from None
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
            (home / "list.txt").write_text("milk\nbread and butter")  # the last line has no newline
            turns = [
                {"tool_calls": [{"name": "count_lines", "args": {"path": "poem.txt"}}]},
                {"tool_calls": [{"name": "count_lines", "args": {"path": "list.txt"}}]},
                {"text": "poem.txt has 3 lines, list.txt 2."},
            ]
            (home / "turns.json").write_text(json.dumps(turns))
            options = LoopOptions(home=home, model=f"script:{home / 'turns.json'}", tools=[candidate])
            loop = build_loop(options, Settings(_env_file=None)).loop

            async def turn() -> list[Any]:
                return [event async for event in loop.run_turn("How many lines have poem.txt and list.txt?")]

            events = run_async(turn())
        results = [event.result for event in events if isinstance(event, ToolCallFinished)]
        assert len(results) == 2, f"the model called count_lines twice, but {len(results)} results came back"
        for result, (name, lines, words) in zip(results, [("poem.txt", 3, 6), ("list.txt", 2, 4)], strict=True):
            assert not result.is_error, f"the call on {name} failed: {' '.join(result.content.split())}"
            assert result.content == str(lines), (
                f"{name} has {lines} lines (and {words} words), the tool said {result.content!r}"
                + (": its last line has no newline, and still counts" if name == "list.txt" else "")
            )
        definition = candidate.to_tool().tool_def
        assert definition.description, "give the function a docstring: it is the description the model reads"
        assert list(definition.parameters_json_schema.get("properties", {})) == ["path"], (
            f"the model should see one argument, `path`: {definition.parameters_json_schema}"
        )
        traits = candidate.traits
        assert traits.kind is ToolKind.READ_ONLY, f"it only reads, so its kind is READ_ONLY, not {traits.kind}"
        assert traits.rules == ("Read",), (
            f"the Read rules, and only they, should govern it; its rules are {traits.rules}"
        )
        assert traits.argument({"path": "poem.txt"}) == "poem.txt", "its traits should name `path` as the path"

    return check("a read-only count_lines tool", test)
