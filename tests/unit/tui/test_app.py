"""The REPL as a user drives it: keys in through a pipe, what they would read out of the console."""

import asyncio
import subprocess
import sys
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from click.testing import CliRunner
from pydantic_ai.exceptions import ModelHTTPError, UnexpectedModelBehavior
from pydantic_ai.messages import ModelMessage
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.agent.facts import is_facts
from decode.cli import cli
from decode.harness.abort import INTERRUPTED_NOTE
from decode.tui.app import Repl, describe_error
from decode.tui.footer import footer, plain

CTRL_C, CTRL_D = "\x03", "\x04"


def use_function_model(repl: Repl, stream_function) -> None:
    """Put pydantic-ai's FunctionModel (the model boundary) in the warm REPL's Agent Loop, as /model would."""
    assert repl.loop is not None
    repl.loop.model = FunctionModel(stream_function=stream_function)


async def test_a_prompt_streams_the_answer_a_tool_line_and_updates_the_footer(start_repl, script, project) -> None:
    (project / "README.md").write_text("hello\n")
    model = script(
        [
            {"text": "Looking first.", "tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
            {"text": "# Summary\n\nThe README says **hello**."},
        ]
    )
    session = await start_repl(model)
    session.send("what does the readme say?")
    output = await session.wait_for("The README says hello.")

    assert "❯ what does the readme say?" in output
    assert "Looking first." in output
    tool_line = next(line for line in output.splitlines() if "read(README.md)" in line)
    assert tool_line.startswith("✓ read(README.md) · ")
    assert tool_line.rstrip().endswith("s")  # the time it took
    assert "# Summary" not in output
    assert "Summary" in output
    assert "**" not in output
    status = session.repl.status
    await session.wait_until(lambda: status.phase == "ready")
    assert status.requests == 2
    assert status.input_tokens > 0
    assert Path(model).name in plain(footer(status))
    assert "ready" in plain(footer(status))


async def test_prompts_are_kept_in_the_history_file_of_the_launch_directory(start_repl, script, project) -> None:
    session = await start_repl(script([{"text": "ok"}]))
    session.send("remember me")
    await session.wait_for("ok")
    session.type(CTRL_D)
    assert await session.exit_code() == 0
    assert "remember me" in (project / ".decode" / "history").read_text()


async def test_a_missing_key_is_shown_and_model_switches_to_a_working_model(start_repl, script) -> None:
    session = await start_repl()  # the default model is Gemini; the test's settings have no key
    output = await session.wait_for("GEMINI_API_KEY is not set")
    assert "/model" in output
    assert session.repl.status.phase == "unavailable"

    session.send("hello?")
    await session.wait_for("not sent (kept in the input line)")
    await session.wait_until(lambda: session.repl.session.app.is_running)
    assert session.repl.session.default_buffer.text == "hello?"  # kept, to send once there is a model
    session.type(CTRL_C)  # cleared, to pick one first
    await session.wait_until(lambda: session.repl.session.default_buffer.text == "")

    working = script([{"text": "Now I can answer."}])
    session.send(f"/model {working}")
    await session.wait_for(f"model: {working}")
    session.send("hello again")
    await session.wait_for("Now I can answer.")
    assert session.repl.status.model == working


async def test_switching_model_keeps_the_conversation(start_repl, script) -> None:
    session = await start_repl(script([{"text": "first answer"}]))
    session.send("my name is Ada")
    await session.wait_for("first answer")
    before = len(session.repl.loop.history)

    session.send(f"/model {script([{'text': 'second answer'}])}")
    await session.wait_for("model: script:")
    session.send("what is my name?")
    await session.wait_for("second answer")
    history = session.repl.loop.history
    assert len(history) > before
    assert "my name is Ada" in str(history[0])
    assert session.repl.status.requests == 2  # the session's usage carried over too


async def test_switching_model_keeps_the_files_read_so_an_edit_needs_no_new_read(start_repl, script, project) -> None:
    (project / "notes.txt").write_text("buy milk\n")
    reader = script([{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}, {"text": "You need milk."}])
    session = await start_repl(reader, permission_mode="accept-edits")  # edits run without a question
    session.send("what do I need?")
    await session.wait_for("You need milk.")

    edit = {"path": "notes.txt", "old_string": "buy milk", "new_string": "buy oat milk"}
    editor = script([{"tool_calls": [{"name": "edit", "args": edit}]}, {"text": "Changed it."}])
    session.send(f"/model {editor}")
    await session.wait_for(f"model: {editor}")
    session.send("make it oat milk")
    output = await session.wait_for("Changed it.")

    assert "has not been read" not in output  # the Read Ledger came along with the conversation
    assert "✓ edit(notes.txt)" in output
    assert (project / "notes.txt").read_text() == "buy oat milk\n"
    assert session.repl.status.permission_mode == "accept-edits"  # and so did the gate's mode


async def test_an_unknown_model_is_refused_and_the_old_one_stays(start_repl, script) -> None:
    model = script([{"text": "still here"}])
    session = await start_repl(model)
    session.send("/model nope:thing")
    await session.wait_for("unknown model provider")
    session.send("hi")
    await session.wait_for("still here")
    assert session.repl.status.model == model


async def test_a_model_that_runs_out_is_an_error_line_and_the_repl_goes_on(start_repl, script) -> None:
    session = await start_repl(script([{"text": "the only answer"}]))
    session.send("one")
    await session.wait_for("the only answer")
    session.send("two")
    output = await session.wait_for("has no response left")
    assert "error: script model:" in output

    session.send(f"/model {script([{'text': 'back again'}])}")
    session.send("three")
    await session.wait_for("back again")


async def unavailable(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
    raise ModelHTTPError(503, "flaky-model", body="overloaded")
    yield ""  # an async generator, as FunctionModel wants


async def garbled(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
    raise UnexpectedModelBehavior("the response was not valid JSON")
    yield ""


@pytest.mark.parametrize(
    ("stream_function", "message"),
    [
        (unavailable, "error: model request failed: HTTP 503 from flaky-model"),
        (garbled, "error: the model's response could not be used: the response was not valid JSON"),
    ],
)
async def test_model_errors_are_error_lines_and_the_repl_stays_usable(
    start_repl, script, stream_function, message
) -> None:
    session = await start_repl("test")
    await session.warm()
    use_function_model(session.repl, stream_function)
    session.send("try")
    await session.wait_for(message)
    await session.wait_until(lambda: not session.repl.busy)

    session.send(f"/model {script([{'text': 'recovered'}])}")
    session.send("again")
    await session.wait_for("recovered")


async def test_the_request_ceiling_stops_the_turn_with_an_error(start_repl, script, project) -> None:
    (project / "a.txt").write_text("a\n")
    model = script(
        [{"tool_calls": [{"name": "read", "args": {"path": "a.txt"}}]}, {"text": "never reached"}],
    )
    session = await start_repl(model, max_requests=1)
    session.send("read it")
    output = await session.wait_for("request ceiling")
    assert "never reached" not in output
    assert session.repl.loop.history == []  # a failed turn leaves the conversation as it was


async def test_ctrl_c_stops_a_running_turn_and_the_next_turn_works(start_repl) -> None:
    calls = 0

    async def hangs_then_answers(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        nonlocal calls
        calls += 1
        if calls == 1:
            yield "thinking about it for a long time"
            await asyncio.sleep(3600)
        yield "recovered"

    session = await start_repl("test")
    await session.warm()
    use_function_model(session.repl, hangs_then_answers)
    session.send("a slow question")
    await session.wait_until(lambda: "thinking about it" in session.repl.renderer.live())

    session.type(CTRL_C)
    output = await session.wait_for("interrupted")
    # The turn prints its end from inside its task, which is done a moment later.
    await session.wait_until(lambda: not session.repl.busy)
    assert "thinking about it" in output  # what had streamed is kept on screen
    # ... and in the conversation (lesson 10), closed by a note that the user interrupted.
    said = [p.content for m in session.repl.loop.history for p in m.parts if p.part_kind in ("text", "user-prompt")]
    assert said == ["a slow question", "thinking about it for a long time", INTERRUPTED_NOTE]

    session.send("try again")
    await session.wait_for("recovered")


async def test_a_prompt_sent_while_busy_waits_and_reaches_the_model_in_the_same_turn(start_repl) -> None:
    asked, release = asyncio.Event(), asyncio.Event()

    async def waits_for_release(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator[str]:
        prompts = [p.content for m in messages for p in m.parts if p.part_kind == "user-prompt" and not is_facts(p)]
        if prompts[-1] == "first":
            asked.set()
            await release.wait()
        yield f"answer to {prompts[-1]}"

    session = await start_repl("test")
    await session.warm()
    use_function_model(session.repl, waits_for_release)
    session.send("first")
    await asyncio.wait_for(asked.wait(), 20)  # the model is answering "first": "second" must wait
    session.send("second")
    await session.wait_until(lambda: session.repl.status.queued == 1)
    assert session.repl.status.phase == "busy"
    assert "1 queued" in plain(footer(session.repl.status))

    session.send("/clear")  # changes the conversation: refused while a turn runs
    await session.wait_for("/clear waits until the turn is over")

    release.set()
    output = await session.wait_for("answer to second")
    assert output.index("answer to first") < output.index("❯ second") < output.index("answer to second")
    assert session.repl.status.queued == 0
    assert output.count("❯ second") == 1  # a steer: one turn, the message echoed where the model got it


async def test_ctrl_c_clears_the_line_and_on_an_empty_line_says_how_to_leave(start_repl, script) -> None:
    session = await start_repl(script([{"text": "answered"}]))
    session.type("never sent")
    session.type(CTRL_C)
    session.send("sent")
    await session.wait_for("answered")
    assert "never sent" not in session.output()

    await session.wait_until(lambda: not session.repl.busy)  # the turn is over: Ctrl-C has nothing to stop
    session.type(CTRL_C)
    await session.wait_for("Ctrl-D")


async def test_ctrl_d_and_quit_leave_with_exit_code_0(start_repl, script) -> None:
    session = await start_repl(script([]))
    session.type(CTRL_D)
    assert await session.exit_code() == 0

    session = await start_repl(script([]))
    session.send("/exit")
    assert await session.exit_code() == 0


def test_without_a_terminal_decode_says_to_use_decode_run() -> None:
    result = CliRunner().invoke(cli, [])  # CliRunner's stdin is not a terminal
    assert result.exit_code == 2
    assert "decode run" in result.output


def test_repl_options_before_a_subcommand_are_a_usage_error() -> None:
    result = CliRunner().invoke(cli, ["--model", "test", "run", "hi"])
    assert result.exit_code == 2
    assert "after the subcommand" in result.output


def test_describe_error_is_one_short_line() -> None:
    assert describe_error(ModelHTTPError(429, "gemini-x", body="x" * 5000)) == "HTTP 429 from gemini-x"
    text = describe_error(RuntimeError("line one\nline two " + "y" * 500))
    assert "\n" not in text
    assert len(text) <= 300
    assert text.startswith("line one line two")


def test_the_repl_draws_its_prompt_without_importing_the_agent() -> None:
    # The prompt appears before pydantic-ai is imported (the warm-up thread does that): importing
    # the REPL must not pull in the agent, the settings or a provider SDK.
    code = "import sys, decode.tui.app; print('\\n'.join(sys.modules))"
    done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=60)
    heavy = {"pydantic", "pydantic_ai", "pydantic_settings", "openai", "google", "httpx", "httpx2"}
    loaded = sorted(name for name in done.stdout.split() if name.split(".")[0] in heavy)
    assert not loaded, f"importing decode.tui.app imported {loaded[:5]}"
