"""Compaction: where a history may be cut, and summarising with a scripted model."""

import random
from collections.abc import Callable

import pytest
from pydantic_ai.messages import (
    ModelMessage,
    ModelRequest,
    ModelResponse,
    SystemPromptPart,
    TextPart,
    ToolCallPart,
    ToolReturnPart,
    UserPromptPart,
)
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from decode.context.compaction import (
    CompactionError,
    files_touched,
    needs_summary,
    render_transcript,
    safe_cuts,
    summarise,
    tail_start,
)
from decode.context.windows import SUMMARY_MARK

SUMMARY = "## Goal\nShip the parser.\n## Constraints\nnone\n## Progress\nTests pass.\n## Decisions\nUse pathlib.\n## Next steps\nRelease.\n## Files touched\nsrc/parse.py"  # noqa: E501

PairCheck = Callable[[list[ModelMessage]], bool]


class Summariser:
    """A scripted summarising model that remembers what it was asked."""

    def __init__(self, answer: str | Exception = SUMMARY) -> None:
        self.answer = answer
        self.requests: list[ModelRequest] = []
        self.model = FunctionModel(self.respond)

    def respond(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        assert isinstance(messages[-1], ModelRequest)
        self.requests.append(messages[-1])
        if isinstance(self.answer, Exception):
            raise self.answer
        return ModelResponse(parts=[TextPart(self.answer)])

    @property
    def prompt(self) -> str:
        part = self.requests[-1].parts[0]
        assert isinstance(part, UserPromptPart)
        assert isinstance(part.content, str)
        return part.content


# --- cutting -------------------------------------------------------------------------------


def test_no_safe_cut_separates_a_tool_call_from_its_result(histories, tool_pairs_intact: PairCheck) -> None:
    for seed in range(200):
        messages = histories.random(random.Random(seed), turns=random.Random(seed).randint(1, 6))
        for cut in safe_cuts(messages):
            assert tool_pairs_intact(messages[:cut]), (seed, cut)
            assert tool_pairs_intact(messages[cut:]), (seed, cut)


def test_cuts_fall_between_turns_and_before_responses_never_before_a_result(histories) -> None:
    messages = [*histories.turn("one", "a", tools=[("read", {"path": "x"}, "data")]), *histories.turn("two", "b")]
    # 0 request, 1 call, 2 result, 3 answer | 4 request, 5 answer
    assert safe_cuts(messages) == [1, 3, 4, 5]


def test_the_tail_is_the_longest_that_fits_the_budget(histories) -> None:
    messages = [*histories.turn("a" * 400, "b" * 400), *histories.turn("c" * 400, "d" * 400)]
    assert tail_start(messages, budget_tokens=250) == 2  # the last turn: 200 tokens
    assert tail_start(messages, budget_tokens=50) == 3  # nothing fits: the shortest tail
    assert tail_start(messages[:1], budget_tokens=50) is None  # a lone prompt cannot be cut


# --- tier 1: pruning ------------------------------------------------------------------------


def test_the_summary_threshold_is_80_percent() -> None:
    def at(tokens: int) -> list[ModelMessage]:
        return [ModelResponse(parts=[TextPart("x")], usage=RequestUsage(input_tokens=tokens))]

    assert not needs_summary(at(7_999), window=10_000)
    assert needs_summary(at(8_000), window=10_000)


async def test_a_summary_replaces_the_head_and_the_tail_stays_verbatim(histories, tool_pairs_intact: PairCheck) -> None:
    head = [
        *histories.turn("build the parser", "done", tools=[("edit", {"path": "src/parse.py"}, "edited " * 300)]),
        *histories.turn("now test it", "tests pass. " * 100, tools=[("bash", {"command": "pytest"}, "passed " * 300)]),
    ]
    tail = histories.turn("what next?", "release it")
    summariser = Summariser()
    compaction = await summarise([*head, *tail], summariser.model, window=1_000)

    assert (compaction.replaced, compaction.kept) == (len(head), len(tail))
    first = compaction.history[0]
    assert isinstance(first, ModelRequest)
    summary_part, *kept_parts = first.parts
    assert isinstance(summary_part, UserPromptPart)
    assert SUMMARY in summary_part.content
    assert "`src/parse.py`" in summary_part.content  # paths from the tool calls, exactly
    assert kept_parts == list(tail[0].parts)  # the tail's own prompt, verbatim after the summary
    assert compaction.history[1:] == tail[1:]
    assert first.metadata == {SUMMARY_MARK: {"replaced": len(head), "carried": len(tail) - 1}}
    assert tool_pairs_intact(compaction.history)


async def test_the_summariser_reads_a_transcript_and_the_focus_but_no_instructions(histories) -> None:
    history = [
        ModelRequest(
            parts=[SystemPromptPart("SECRET MEMORY"), UserPromptPart("fix the bug")], instructions="AGENTS.md rules"
        ),
        ModelResponse(parts=[ToolCallPart("read", {"path": "bug.py"}, tool_call_id="c1")]),
        ModelRequest(parts=[ToolReturnPart("read", "x" * 5000, tool_call_id="c1")]),
        ModelResponse(parts=[TextPart("fixed")]),
        *histories.turn("anything else?", "no"),
    ]
    summariser = Summariser()
    await summarise(history, summariser.model, window=1_000, focus="the bug in bug.py")
    prompt = summariser.prompt
    assert "User: fix the bug" in prompt
    assert 'Assistant called read({"path":"bug.py"})' in prompt
    assert "more characters]" in prompt  # a long tool output is clipped
    assert "focus on: the bug in bug.py" in prompt
    assert "SECRET MEMORY" not in prompt
    assert "AGENTS.md rules" not in prompt
    assert "## Next steps" in summariser.requests[-1].instructions


async def test_a_failing_summariser_leaves_the_history_as_it_was(histories) -> None:
    history = [*histories.turn("a" * 2000, "b" * 2000), *histories.turn("c", "d")]
    before = list(history)
    with pytest.raises(CompactionError, match="summarising request failed: provider down"):
        await summarise(history, Summariser(RuntimeError("provider down")).model, window=1_000)
    with pytest.raises(CompactionError, match="empty summary"):
        await summarise(history, Summariser("   ").model, window=1_000)
    assert history == before


async def test_a_history_with_nothing_before_the_tail_cannot_be_compacted() -> None:
    with pytest.raises(CompactionError, match="nothing to compact"):
        await summarise([ModelRequest(parts=[UserPromptPart("hi")])], Summariser().model, window=1_000)


async def test_a_tail_starting_with_a_response_gets_its_own_summary_request(histories, tool_pairs_intact) -> None:
    # One long turn: the only cuts are before responses, inside the turn.
    tools = [("read", {"path": f"f{n}.py"}, "z" * 2000) for n in range(6)]
    history = histories.turn("read everything", "all read", tools=tools)
    compaction = await summarise(history, Summariser().model, window=2_000)
    first, second = compaction.history[:2]
    assert isinstance(first, ModelRequest)
    assert isinstance(second, ModelResponse)
    assert first.metadata == {SUMMARY_MARK: {"replaced": compaction.replaced, "carried": compaction.kept}}
    assert compaction.history[1:] == history[compaction.replaced :]
    assert tool_pairs_intact(compaction.history)


def test_files_touched_lists_each_path_once_in_order(histories) -> None:
    messages = histories.turn(
        "edit",
        "ok",
        tools=[
            ("read", {"path": "b.py"}, ""),
            ("edit", {"path": "a.py"}, ""),
            ("read", {"path": "b.py"}, ""),
            ("bash", {"command": "ls"}, ""),
        ],
    )
    assert files_touched(messages) == ["b.py", "a.py"]


def test_the_transcript_names_who_said_what(histories) -> None:
    text = render_transcript(histories.turn("hello", "hi there", tools=[("read", {"path": "x"}, "contents")]))
    assert text.splitlines()[0] == "User: hello"
    assert "Result of read: contents" in text
    assert text.endswith("Assistant: hi there")


# --- never growing the context --------------------------------------------------------------


async def test_a_short_history_is_not_sent_for_summarising(histories) -> None:
    summariser = Summariser()
    history = [*histories.turn("what is 6 x 7?", "42"), *histories.turn("and 6 x 8?", "48")]
    with pytest.raises(CompactionError, match="nothing worth summarising yet") as raised:
        await summarise(history, summariser.model, window=1_000)
    assert summariser.requests == []  # no request at all
    assert raised.value.usage is None


async def test_a_summary_no_shorter_than_the_history_is_refused_but_its_cost_is_kept(histories) -> None:
    history = [*histories.turn("a" * 1_000, "b" * 1_000), *histories.turn("c", "d")]
    summariser = Summariser("## Goal\n" + "a very long summary " * 500)
    with pytest.raises(CompactionError, match="no shorter than what it would replace") as raised:
        await summarise(history, summariser.model, window=1_000)
    assert len(summariser.requests) == 1
    assert raised.value.usage is not None
    assert raised.value.usage.requests == 1
