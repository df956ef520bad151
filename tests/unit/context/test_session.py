"""A Session driven by the real Agent Loop: turns on disk, resume, compaction before a turn, clear."""

from collections.abc import AsyncIterator
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
from pydantic_ai.models.function import AgentInfo, FunctionModel
from pydantic_ai.usage import RequestUsage

from decode.agent.factory import build_agent
from decode.agent.facts import is_facts
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.catalog import SessionNotFoundError
from decode.context.pruning import placeholder
from decode.context.replay import load_session
from decode.context.session import Session
from decode.context.windows import SUMMARY_MARK
from decode.entities.deps import AgentDeps
from decode.entities.events import Notice, TurnFinished
from decode.processes.local import LocalExecutor

SUMMARY = "## Goal\nCount words.\n## Progress\nOne answer given."
MEMORY = "MEMORY: always answer in English."


class Model:
    """Streams an answer for each turn; answers the (non-streamed) summarising request with `summary`."""

    def __init__(self, summary: str | Exception = SUMMARY) -> None:
        self.summary = summary
        self.turn_requests: list[list[ModelMessage]] = []
        self.summary_requests: list[list[ModelMessage]] = []
        self.model = FunctionModel(self.summarise, stream_function=self.answer)

    def summarise(self, messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        self.summary_requests.append(messages)
        if isinstance(self.summary, Exception):
            raise self.summary
        return ModelResponse(parts=[TextPart(self.summary)])

    async def answer(self, messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        self.turn_requests.append(messages)
        yield f"answer {len(self.turn_requests)}"


def make_loop(session: Session, model: Model, home: Path) -> AgentLoop:
    agent = build_agent(model.model, instructions=f"You are a test agent.\n{MEMORY}")
    return AgentLoop(agent, AgentDeps(LocalExecutor(home), Settings(), harness_home=home), session=session)


async def run(loop: AgentLoop, prompt: str) -> list:
    return [event async for event in loop.run_turn(prompt)]


def prompts(messages: list[ModelMessage]) -> list[str]:
    return [
        part.content
        for message in messages
        if isinstance(message, ModelRequest)
        for part in message.parts
        if isinstance(part, UserPromptPart) and isinstance(part.content, str) and not is_facts(part)
    ]


small_window = Settings(context_window=10_000)
"""A 10,000-token window: a history the provider counted at 6,500 tokens fills it past 60 %."""


@pytest.fixture
def small() -> Settings:
    """A 300-token window: a 200-word prompt fills it past 80 %."""
    return Settings(context_window=300)


async def test_a_turn_is_on_disk_before_it_is_reported_finished(tmp_path: Path) -> None:
    session = Session.start(tmp_path, model="script:x.json", mode="plan")
    loop = make_loop(session, Model(), tmp_path)
    async for event in loop.run_turn("hello"):
        if isinstance(event, TurnFinished):
            saved = load_session(session.log.path)
            assert saved.history == loop.history
            assert (saved.turns, saved.mode, saved.model) == (1, "plan", "script:x.json")


async def test_a_failed_turn_writes_nothing(tmp_path: Path) -> None:
    session = Session.start(tmp_path, model="script:x.json")
    loop = make_loop(session, Model(), tmp_path)
    await run(loop, "first")

    async def broken(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        raise RuntimeError("the model fell over")
        yield ""

    loop.model = FunctionModel(stream_function=broken)  # the model of the next request
    with pytest.raises(RuntimeError):
        await run(loop, "second")
    assert load_session(session.log.path).turns == 1


async def test_resuming_continues_with_the_history_the_model_and_the_mode(tmp_path: Path) -> None:
    first = Session.start(tmp_path, model="script:first.json", mode="accept-edits")
    await run(make_loop(first, Model(), tmp_path), "remember 42")

    session, loaded = Session.resume(tmp_path, first.session_id[:4])
    assert (session.session_id, session.model, session.mode) == (first.session_id, "script:first.json", "accept-edits")
    model = Model()
    loop = make_loop(session, model, tmp_path)
    loop.history = loaded.history
    await run(loop, "what did I say?")
    assert prompts(model.turn_requests[0]) == ["remember 42", "what did I say?"]
    assert load_session(first.log.path).turns == 2


async def test_a_model_given_on_resume_wins_and_is_recorded(tmp_path: Path) -> None:
    await run(make_loop(Session.start(tmp_path, model="script:old.json"), Model(), tmp_path), "hi")
    session, loaded = Session.resume(tmp_path, model="script:new.json")
    loop = make_loop(session, Model(), tmp_path)
    loop.history = loaded.history
    await run(loop, "again")
    assert load_session(session.log.path).model == "script:new.json"


def test_resuming_an_unknown_session_says_so(tmp_path: Path) -> None:
    with pytest.raises(SessionNotFoundError):
        Session.resume(tmp_path, "nope")


async def test_past_80_percent_the_history_is_summarised_before_the_turn(tmp_path: Path, small: Settings) -> None:
    session = Session(Session.start(tmp_path, model="script:x.json").log, model="script:x.json", settings=small)
    model = Model()
    loop = make_loop(session, model, tmp_path)
    await run(loop, "count these: " + "word " * 200)
    assert session.needs_summary(loop.history)

    events = await run(loop, "and now?")
    notice = events[0]
    assert isinstance(notice, Notice)
    assert notice.level == "info"
    assert notice.message == "compacted 1 earlier message into a summary; the last one is kept verbatim"
    summary_request = model.turn_requests[-1][0]
    assert isinstance(summary_request, ModelRequest)
    assert SUMMARY in summary_request.parts[0].content
    assert SUMMARY_MARK in summary_request.metadata
    # Memory is in the instructions of every request, never in what was summarised.
    assert MEMORY in model.turn_requests[-1][-1].instructions
    assert MEMORY not in str(model.summary_requests[0])
    # The log replays to the compacted history: a resumed session continues from the summary.
    assert load_session(session.log.path).history == loop.history
    assert not session.needs_summary(loop.history)


async def test_past_60_percent_the_loop_sends_old_outputs_as_placeholders_and_keeps_them(tmp_path: Path) -> None:
    session = Session(Session.start(tmp_path, model="script:x.json").log, model="script:x.json", settings=small_window)
    model = Model()
    loop = make_loop(session, model, tmp_path)
    old = ToolReturnPart("read", "o" * 24_000, tool_call_id="old")
    loop.history = [
        ModelRequest(parts=[UserPromptPart("read the old file")]),
        ModelResponse(parts=[ToolCallPart("read", {}, tool_call_id="old")]),
        ModelRequest(parts=[old]),
        ModelResponse(parts=[TextPart("read it")], usage=RequestUsage(input_tokens=6_500)),
    ]

    events = await run(loop, "next")

    assert isinstance(events[-1], TurnFinished)
    sent = model.turn_requests[0][2].parts[0]
    assert isinstance(sent, ToolReturnPart)
    assert sent.content == placeholder(old)
    assert loop.history[2].parts[0].content == "o" * 24_000  # the loop's history and the log keep the output
    assert session.pruning.pruned == {"old"}


async def test_a_failed_summary_leaves_the_history_and_the_turn_goes_on(tmp_path: Path, small: Settings) -> None:
    session = Session(Session.start(tmp_path, model="script:x.json").log, model="script:x.json", settings=small)
    model = Model(summary=RuntimeError("503 overloaded"))
    loop = make_loop(session, model, tmp_path)
    await run(loop, "count these: " + "word " * 200)
    before = list(loop.history)

    events = await run(loop, "and now?")
    notice = events[0]
    assert isinstance(notice, Notice)
    assert notice.level == "warning"
    assert "compaction failed" in notice.message
    assert "503 overloaded" in notice.message
    assert "unchanged" in notice.message
    assert isinstance(events[-1], TurnFinished)
    assert loop.history[: len(before)] == before
    assert load_session(session.log.path).history == loop.history


async def test_compact_on_demand_records_the_focus(tmp_path: Path) -> None:
    session = Session.start(tmp_path, model="script:x.json")
    loop = make_loop(session, Model(), tmp_path)
    await run(loop, "first: " + "word " * 200)
    await run(loop, "second")
    notice = await loop.compact("the second prompt")
    assert "compacted" in notice.message
    assert '"focus":"the second prompt"' in session.log.path.read_text()
    assert load_session(session.log.path).history == loop.history
    assert loop.usage.requests == 3  # two turns and the summary


async def test_clear_is_logged_and_a_resume_starts_empty(tmp_path: Path) -> None:
    session = Session.start(tmp_path, model="script:x.json")
    loop = make_loop(session, Model(), tmp_path)
    loop.clear()
    assert not session.log.path.exists()  # nothing to clear yet: no file either
    await run(loop, "first")
    loop.clear()
    assert load_session(session.log.path).history == []


def test_switching_model_switches_the_window(tmp_path: Path) -> None:
    session = Session.start(tmp_path, model="script:x.json")
    session.switch_model("google-gla:gemini-2.5-pro")
    assert session.window.tokens == session.pruning.window == 1_048_576
    assert session.model == "google-gla:gemini-2.5-pro"


# The To-do List travels with each turn line, and comes back on resume.
def todo_loop(session: Session, home: Path) -> AgentLoop:
    deps = AgentDeps(LocalExecutor(home), Settings(), harness_home=home, todos=session.todos)
    return AgentLoop(build_agent(Model().model), deps, session=session)


async def test_the_to_do_list_is_saved_with_each_turn_and_restored_on_resume(tmp_path: Path) -> None:
    from decode.entities.todos import Todo, TodoStatus

    first = Session.start(tmp_path, model="script:x.json")
    loop = todo_loop(first, tmp_path)
    loop.deps.todos[:] = [Todo(content="fix it", status=TodoStatus.IN_PROGRESS)]  # what todo_write does
    await run(loop, "one")

    session, loaded = Session.resume(tmp_path, first.session_id)

    assert loaded.todos == session.todos == [Todo(content="fix it", status=TodoStatus.IN_PROGRESS)]


async def test_clear_empties_the_to_do_list_and_a_resumed_session_has_none(tmp_path: Path) -> None:
    from decode.entities.todos import Todo

    first = Session.start(tmp_path, model="script:x.json")
    loop = todo_loop(first, tmp_path)
    loop.deps.todos[:] = [Todo(content="fix it")]
    await run(loop, "one")
    loop.clear()

    assert loop.deps.todos == []
    assert Session.resume(tmp_path, first.session_id)[0].todos == []


async def test_the_list_survives_a_compaction_line(tmp_path: Path, small: Settings) -> None:
    from decode.entities.todos import Todo

    first = Session.start(tmp_path, model="script:x.json", settings=small)
    loop = todo_loop(first, tmp_path)
    loop.deps.todos[:] = [Todo(content="keep me")]
    await run(loop, "word " * 200)
    await run(loop, "two")
    notice = await loop.compact()

    assert '"type":"compaction"' in first.log.path.read_text(), notice.message
    assert load_session(first.log.path).todos == [Todo(content="keep me")]
