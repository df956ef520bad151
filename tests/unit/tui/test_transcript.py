"""How the transcript reads: the first line, commands echoed like prompts, blank lines, a rule between turns."""

import io
import uuid
from pathlib import Path
from types import SimpleNamespace

from rich.console import Console

from decode.config.settings import Settings
from decode.tui.render import Renderer

RULE = "─" * 20


def lines_of(output: str) -> list[str]:
    return [line.rstrip() for line in output.splitlines()]


async def test_the_first_line_names_decode_the_model_and_the_directory(start_repl, script, project: Path) -> None:
    session = await start_repl(script([{"text": "Hello."}]))
    await session.warm()
    first = lines_of(await session.wait_for("/help lists the commands"))[0]
    assert first.startswith("decode · script:")
    assert f"/{project.name} · /help lists the commands" in first


async def test_a_slash_command_is_echoed_like_a_prompt(start_repl, script) -> None:
    session = await start_repl(script([{"text": "Hello."}]))
    await session.warm()
    session.send("/help")
    output = lines_of(await session.wait_for("Commands"))
    echoed = output.index("❯ /help")
    assert output[echoed - 1] == ""  # a blank line above it, as above a prompt
    assert output[echoed + 1].startswith("Commands")
    session.send("/nosuchcommand")
    output = lines_of(await session.wait_for("unknown command /nosuchcommand"))
    assert "❯ /nosuchcommand" in output  # what was typed shows, then what came of it


async def test_a_rule_separates_turns_but_not_the_first(start_repl, script) -> None:
    session = await start_repl(script([{"text": "First answer."}, {"text": "Second answer."}]))
    session.send("one")
    await session.wait_for("First answer.")
    assert RULE not in session.output()
    session.send("two")
    output = lines_of(await session.wait_for("Second answer."))
    rules = [index for index, line in enumerate(output) if line.startswith(RULE)]
    assert len(rules) == 1
    assert output.index("First answer.") < rules[0] < output.index("❯ two")
    assert output[rules[0] + 1] == "❯ two"
    assert output[rules[0] - 1] == ""


def test_markdown_paragraphs_and_code_blocks_are_set_apart_by_blank_lines() -> None:
    out = io.StringIO()
    renderer = Renderer(Console(file=out, width=60))
    text = "The project is **tiny**.\n\nIt has one file:\n\n```python\nprint('demo')\n```\nThat is all.\n\n- a\n- b\n"
    for start in range(0, len(text), 5):  # streamed, a few characters at a time
        renderer.event(SimpleNamespace(kind="text", text=text[start : start + 5]))
    renderer.end_turn()
    shown = lines_of(out.getvalue())
    assert shown == [
        "The project is tiny.",
        "",
        "It has one file:",
        "",
        " print('demo')",
        "",
        "That is all.",
        "",
        " • a",
        " • b",
    ]


async def test_a_warning_during_the_warm_up_is_one_notice_after_the_first_line(start_repl, project: Path) -> None:
    model = f"openai-compatible:local-{uuid.uuid4().hex[:8]}"  # no window known for it: a warning, once
    settings = Settings(_env_file=None, openai_base_url="http://127.0.0.1:9/v1")  # type: ignore[call-arg]
    session = await start_repl(model, settings=settings)
    await session.warm()
    output = await session.wait_for(f"no context window known for {model}")
    assert output.count("no context window known") == 1
    assert "WARNING" not in output  # a notice, not a raw log line
    assert output.index("/help lists the commands") < output.index("no context window known")


async def test_a_bad_model_shows_its_error_without_the_warnings_about_it(start_repl, project: Path) -> None:
    model = f"nonsense{uuid.uuid4().hex[:8]}:x"  # a model never looked up before: its window warning is new
    session = await start_repl(model)
    output = await session.wait_for(f"unknown model provider in '{model}'")
    await session.wait_until(lambda: session.repl.status.phase == "unavailable")
    assert "no context window known" not in session.output()
    assert lines_of(output)[0].startswith(f"decode · {model} · ")
