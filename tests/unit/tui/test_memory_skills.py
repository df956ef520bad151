"""Lesson 12 in the REPL: /memory, /init, /<skill> [text], and the session note on exit and /clear.

Driven like a user: keys through a pipe, a scripted model, real files in the project and in HOME.
"""

from pathlib import Path

import pytest

from decode.config.settings import Settings
from decode.memory.init_prompt import INIT_PROMPT
from decode.tui.commands import builtin_commands
from decode.tui.memory_skills import add_memory_commands
from tests.conftest import WriteText

CTRL_D = "\x04"


def user_prompts(session) -> list[str]:
    """The prompts the Agent Loop actually sent, in order."""
    return [
        part.content
        for message in session.repl.loop.history
        if message.kind == "request"
        for part in message.parts
        if part.part_kind == "user-prompt"
    ]


def test_memory_and_init_are_registered_next_to_the_builtins() -> None:
    registry = add_memory_commands(builtin_commands())

    assert registry.get("memory") is not None
    assert registry.get("init") is not None
    assert registry.get("help") is not None


async def test_memory_lists_the_files_loaded_in_order_and_the_skills(
    start_repl, script, project, write: WriteText
) -> None:
    write(Path.home() / ".decode" / "AGENTS.md", "user rules")
    write(project / "AGENTS.md", "project rules")
    write(project / ".decode" / "MEMORY.md", "\n".join(f"- note {i} " + "x" * 100 for i in range(100)))
    write(project / ".decode" / "skills" / "deploy" / "SKILL.md", "---\nname: deploy\ndescription: Ship it.\n---\n")
    broken = write(project / ".decode" / "skills" / "broken" / "SKILL.md", "---\nname: broken\n---\n")
    session = await start_repl(script([{"text": "unused"}]))

    session.send("/memory")
    output = await session.wait_for("skill skipped")

    user_line = output.index("~/.decode/AGENTS.md")
    project_line = output.index(str(project / "AGENTS.md"))
    notes_line = output.index(str(project / ".decode" / "MEMORY.md"))
    assert user_line < project_line < notes_line
    assert "oldest left out)" in output
    assert "/deploy" in output
    assert "/commit" in output
    assert f"skill skipped: {broken}: description: Field required" in output


async def test_memory_with_nothing_loaded_points_to_init(start_repl, script) -> None:
    session = await start_repl(script([{"text": "unused"}]))

    session.send("/memory")

    await session.wait_for("/init writes an AGENTS.md")


async def test_init_sends_the_init_prompt_and_shows_only_the_command(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Wrote AGENTS.md."}]))

    session.send("/init mention the Makefile")
    output = await session.wait_for("Wrote AGENTS.md.")

    assert "❯ /init mention the Makefile" in output
    assert INIT_PROMPT.splitlines()[0] not in output  # the long prompt is not echoed
    (prompt,) = user_prompts(session)
    assert prompt.startswith(INIT_PROMPT)
    assert prompt.endswith("The user adds: mention the Makefile")


async def test_a_skill_name_runs_the_skill_with_the_text(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Committed."}]))

    session.send("/commit only the docs")
    output = await session.wait_for("Committed.")

    assert "❯ /commit only the docs" in output
    (prompt,) = user_prompts(session)
    assert prompt.startswith("Use the skill `commit`")
    assert "git status --short" in prompt  # the built-in body
    assert prompt.endswith("The user's request: only the docs")


async def test_a_project_skill_overrides_the_builtin_of_the_same_name(
    start_repl, script, project, write: WriteText
) -> None:
    write(project / ".decode/skills/commit/SKILL.md", "---\nname: commit\ndescription: Ours.\n---\nOUR RULES")
    session = await start_repl(script([{"text": "Done."}]))

    session.send("/commit")
    await session.wait_for("Done.")

    (prompt,) = user_prompts(session)
    assert "OUR RULES" in prompt
    assert "git status --short" not in prompt


async def test_repl_commands_win_over_skills_and_unknown_names_still_fail(
    start_repl, script, project, write: WriteText
) -> None:
    write(project / ".decode/skills/cost/SKILL.md", "---\nname: cost\ndescription: A skill named cost.\n---\nX")
    session = await start_repl(script([{"text": "unused"}]))

    session.send("/cost")
    await session.wait_for("requests:")
    session.send("/nosuchthing")
    await session.wait_for("unknown command /nosuchthing")

    assert session.repl.loop is None or user_prompts(session) == []


@pytest.fixture
def noting() -> Settings:
    """Settings with session notes on (DECODE_SESSION_NOTES=true); they are off by default."""
    return Settings(_env_file=None, session_notes=True)  # type: ignore[call-arg]


async def test_by_default_leaving_sends_no_request_and_writes_no_note(start_repl, script, project) -> None:
    session = await start_repl(script([{"text": "Renamed the module."}, {"text": "A NOTE NOBODY ASKED FOR"}]))
    session.send("rename utils")
    await session.wait_for("Renamed the module.")
    session_id = session.repl.loop.session.session_id

    session.send("/quit")

    assert await session.exit_code() == 0
    assert session.repl.status.requests == 1  # the turn's request only
    model = session.repl.loop.model
    assert getattr(model, "wrapped", model).played == 1  # the script's second answer was never asked for
    assert not (project / ".decode" / "MEMORY.md").exists()
    assert "memory:" not in session.output()
    assert f"session {session_id} saved · continue it with: decode --resume {session_id}" in session.output()


async def test_leaving_appends_the_session_note(start_repl, script, project, noting) -> None:
    session = await start_repl(
        script([{"text": "Renamed the module."}, {"text": "Renamed utils to helpers."}]), settings=noting
    )
    session.send("rename utils")
    await session.wait_for("Renamed the module.")

    session.type(CTRL_D)

    assert await session.exit_code() == 0
    (line,) = (project / ".decode" / "MEMORY.md").read_text().splitlines()
    assert line.endswith(" UTC: Renamed utils to helpers.")
    assert "memory: noted in .decode/MEMORY.md: Renamed utils to helpers." in session.output()


async def test_an_empty_session_leaves_no_note(start_repl, script, project, noting) -> None:
    session = await start_repl(script([{"text": "never asked"}]), settings=noting)
    await session.warm()

    session.send("/quit")

    assert await session.exit_code() == 0
    assert not (project / ".decode" / "MEMORY.md").exists()
    assert "memory:" not in session.output()


async def test_an_unreachable_model_skips_the_note_with_a_notice(start_repl, script, project, noting) -> None:
    session = await start_repl(script([{"text": "Hi."}]), settings=noting)  # nothing left for the summary
    session.send("hello")
    await session.wait_for("Hi.")

    session.send("/quit")

    assert await session.exit_code() == 0
    assert "memory: session note skipped, the model is not reachable" in session.output()
    assert not (project / ".decode" / "MEMORY.md").exists()


async def test_clear_notes_the_conversation_then_starts_a_new_one(start_repl, script, project, noting) -> None:
    session = await start_repl(
        script([{"text": "First."}, {"text": "Talked about one."}, {"text": "Second."}]), settings=noting
    )
    session.send("one")
    await session.wait_for("First.")

    session.send("/clear")
    await session.wait_for("conversation cleared")
    await session.wait_for("memory: noted in .decode/MEMORY.md")  # in the background: wait before the next turn
    session.send("two")
    await session.wait_for("Second.")

    (line,) = (project / ".decode" / "MEMORY.md").read_text().splitlines()
    assert line.endswith("Talked about one.")
    assert user_prompts(session) == ["two"]


async def test_help_and_completion_offer_the_skills_but_not_one_a_command_hides(
    start_repl, script, project, write: WriteText
) -> None:
    write(project / ".decode/skills/lint/SKILL.md", "---\nname: lint\ndescription: Run the linters.\n---\nX")
    write(project / ".decode/skills/cost/SKILL.md", "---\nname: cost\ndescription: Hidden by /cost.\n---\nX")
    session = await start_repl(script([]))

    skills = dict(session.repl.extra_commands())
    assert set(skills) == {"commit", "lint"}  # the built-in, the project's; not `cost`
    assert skills["lint"] == "Run the linters."
    session.send("/help")
    output = await session.wait_for("Skills")
    assert "/lint [text]" in output
    assert "Run the linters." in output
    assert "Hidden by /cost." not in output


async def test_memory_lists_claude_files_imports_and_problems(start_repl, script, project, write: WriteText) -> None:
    write(Path.home() / ".claude" / "CLAUDE.md", "claude user rules")
    write(project / "CLAUDE.md", "See @docs/style.md and @docs/missing.md")
    write(project / "docs" / "style.md", "Use tabs.")
    write(project / "CLAUDE.local.md", "mine")
    session = await start_repl(script([{"text": "unused"}]))

    session.send("/memory")
    output = await session.wait_for("not imported: no such file")

    order = [output.index(name) for name in ("~/.claude/CLAUDE.md", f"{project}/CLAUDE.md", "@ ", "CLAUDE.local.md")]
    assert order == sorted(order)
    assert f"{project / 'docs' / 'style.md'}" in output
