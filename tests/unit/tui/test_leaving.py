"""Leaving and coming back (issue 11): a prompt kept when there is no model, /status, /permissions,
/resume, /compact that never grows the context and is counted, `decode --resume` with nothing to resume.

Driven like a user: keys through a pipe, a scripted model, real session logs in the project.
"""

from pathlib import Path

from click.testing import CliRunner

from decode.cli import cli
from decode.config.settings import Settings
from decode.runtime.run import run


async def test_without_a_model_a_typed_prompt_is_kept_and_the_footer_says_what_is_missing(start_repl) -> None:
    session = await start_repl()  # the default Gemini model, and no key
    session.send("fix the login bug")

    await session.wait_until(lambda: session.repl.session.default_buffer.text == "fix the login bug")
    await session.wait_for("GEMINI_API_KEY is not set")
    from decode.tui.footer import footer, plain

    assert "no model: GEMINI_API_KEY is not set · /model provider:name" in plain(footer(session.repl.status))
    # The failed turn printed its error just before it ended: press Enter once it has ended.
    await session.wait_until(lambda: not session.repl.busy)
    session.send("")  # Enter again: still no model, and the prompt stays
    await session.wait_for("not sent (kept in the input line)")  # the second Enter was handled
    await session.wait_until(lambda: session.repl.session.app.is_running)  # and the next prompt is up
    assert session.repl.session.default_buffer.text == "fix the login bug"


async def test_status_names_the_model_mode_session_and_context(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hi."}]))
    session.send("hello")
    await session.wait_for("Hi.")

    session.send("/status")
    output = await session.wait_for("usage:")

    session_id = session.repl.loop.session.session_id
    assert "model:     script:" in output
    assert "mode:      default" in output
    assert f"session:   {session_id} (saved)" in output
    assert "context:" in output
    # Each part's lines come in the order the parts were added to the registry, before the context.
    names = [line.split(":")[0] for line in output.splitlines()]
    wanted = ["model", "directory", "mode", "session", "sandbox", "context", "usage"]
    assert [name for name in names if name in wanted] == wanted


async def test_permissions_prints_the_rules_in_force(start_repl, script, project, write) -> None:
    write(project / ".decode" / "settings.json", '{"permissions": {"deny": ["Bash(rm:*)"]}}')
    session = await start_repl(script([]))

    session.send("/permissions")
    output = await session.wait_for("decode permissions check")

    assert "mode: default" in output
    assert "deny   Bash(rm:*)" in output
    assert ".decode/settings.json" in output


async def test_compact_skips_a_short_history_without_a_request(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hi."}, {"text": "## Goal\nnever asked"}]))
    session.send("hello")
    await session.wait_for("Hi.")

    session.send("/compact")
    await session.wait_for("nothing worth summarising yet")

    assert session.repl.status.requests == 1
    assert len(session.repl.loop.history) == 2  # unchanged


async def test_compact_counts_its_request_in_cost(start_repl, script) -> None:
    long = "A long answer. " * 200
    small = Settings(_env_file=None, context_window=2_000)  # type: ignore[call-arg]
    session = await start_repl(
        script([{"text": long}, {"text": "Short."}, {"text": "## Goal\nsummarised"}]), settings=small
    )
    session.send("explain")
    await session.wait_for("A long answer.")
    session.send("and briefly?")
    await session.wait_for("Short.")

    session.send("/compact")
    await session.wait_for("compacted 2 earlier messages")
    session.send("/cost")

    await session.wait_for("requests: 3")  # two turns and the summary
    assert session.repl.status.requests == session.repl.loop.usage.requests == 3


async def test_resume_lists_the_sessions_and_continues_one(start_repl, script, project) -> None:
    first = await start_repl(script([{"text": "The first answer."}]))
    first.send("first conversation")
    await first.wait_for("The first answer.")
    first_id = first.repl.loop.session.session_id
    first.send("/quit")
    assert await first.exit_code() == 0

    second = await start_repl(script([{"text": "Another answer."}]))
    second.send("another conversation")
    await second.wait_for("Another answer.")
    second.send("/resume")
    output = await second.wait_for("/resume ID continues one")
    assert first_id in output
    assert "(this one)" in output

    second.send(f"/resume {first_id}")
    await second.wait_for(f"resumed session {first_id}: 2 messages")
    assert second.repl.loop.session.session_id == first_id
    second.send("and then?")  # on the resumed session's own model: its script starts over
    await second.wait_for("The first answer.", count=2)
    assert len(second.repl.loop.history) == 4


def test_resume_with_no_session_here_says_so_and_exits_2(project: Path) -> None:
    result = CliRunner().invoke(cli, ["--resume"])
    assert result.exit_code == 2
    assert "no saved sessions in" in result.output
    assert "nothing to resume" in result.output


def test_dash_h_is_help_everywhere_even_after_a_command_ran_on_its_own() -> None:
    runner = CliRunner()
    assert runner.invoke(run, ["--help"]).exit_code == 0  # `run` alone first: click caches its help option
    for args in (["-h"], ["run", "-h"], ["sessions", "-h"], ["permissions", "-h"], ["permissions", "check", "-h"]):
        result = runner.invoke(cli, args)
        assert result.exit_code == 0, (args, result.output)
        assert "Usage:" in result.output
