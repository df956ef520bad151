"""Approvals in the REPL: the question, the answers, one question at a time (the Decision Channel)."""

import asyncio
import io
import json
import time
from collections.abc import Callable
from pathlib import Path

import pytest
from rich.console import Console

from decode.entities.events import ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.permissions.hook import Answer, Approval, Asking, Saved
from decode.permissions.types import Decision, Verdict
from decode.tui.approvals import Approvals, parse_answer, saved_line
from decode.tui.footer import footer, plain
from decode.tui.questions import QuestionLine
from decode.tui.render import Renderer


@pytest.mark.parametrize(
    ("line", "approval"),
    [
        ("y", Approval(Answer.YES)),
        (" Yes ", Approval(Answer.YES)),
        ("a", Approval(Answer.ALWAYS)),
        ("always", Approval(Answer.ALWAYS)),
        ("n", Approval(Answer.NO)),
        ("NO", Approval(Answer.NO)),
        ("no, use pnpm here", Approval(Answer.NO, "no, use pnpm here")),
        ("", None),
        ("   ", None),
    ],
)
def test_answers(line: str, approval: Approval | None) -> None:
    assert parse_answer(line) == approval


def approvals() -> tuple[Approvals, QuestionLine, io.StringIO]:
    out = io.StringIO()
    line = QuestionLine(Renderer(Console(file=out, width=200)), invalidate=lambda: None)
    return Approvals(line.channel), line, out


VERDICT = Verdict(Decision.ASK, "npm install: no rule allows it in default mode")
CHOICES = (("Bash(npm install:*)",), ("Bash(npm install)",))
ASKING = Asking(Decision.ASK, "npm install: no rule allows it in default mode", call_id="c1", choices=CHOICES)
OFFERED = "y = yes · a = always: Bash(npm install:*) · e = exactly: Bash(npm install) · n = no"


async def test_a_question_waits_for_the_line_that_answers_it() -> None:
    prompts, line, out = approvals()
    assert not line.answer("a prompt, not an answer")
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, ASKING))
    await asyncio.sleep(0)
    assert line.channel.current is not None
    assert line.text == f"allow bash(npm install)? ({OFFERED} · or type what to do instead) "
    assert "permission needed: bash(npm install) — npm install: no rule allows it" in out.getvalue()
    assert line.answer("")  # an empty line: the question stays
    assert line.channel.current is not None
    assert OFFERED in out.getvalue()
    assert line.answer("a")
    assert await asking == Approval(Answer.ALWAYS, rules=CHOICES[0])
    assert "→ always" in out.getvalue()
    assert line.channel.current is None
    assert line.text == ""


async def test_parallel_calls_are_asked_one_at_a_time() -> None:
    prompts, line, out = approvals()
    first = asyncio.create_task(prompts.ask("bash", {"command": "one"}, VERDICT))
    second = asyncio.create_task(prompts.ask("bash", {"command": "two"}, VERDICT))
    await asyncio.sleep(0)
    assert "bash(one)" in line.text
    assert "bash(two)" not in out.getvalue()
    line.answer("y")
    assert await first == Approval(Answer.YES)
    await asyncio.sleep(0)
    assert "bash(two)" in line.text
    assert "permission needed: bash(two)" in out.getvalue()  # its reason shows when its turn comes
    line.answer("not now")
    assert await second == Approval(Answer.NO, "not now")


# -- through the real REPL: keys in through prompt_toolkit's pipe, what the user reads out ---------

SHIFT_TAB = "\x1b[Z"


def touch_then_answer(script: Callable[[list[dict]], str], command: str = "touch made.txt") -> str:
    return script([{"tool_calls": [{"name": "bash", "args": {"command": command}}]}, {"text": "Finished."}])


async def test_yes_runs_the_call_once(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_for("permission needed: bash(touch made.txt)")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("y")
    await session.wait_for("Finished.")
    assert (project / "made.txt").exists()
    assert not (project / ".decode" / "settings.local.json").exists()


async def test_no_with_a_reason_reaches_the_model(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("keep the tree clean")
    output = await session.wait_for("Finished.")
    assert not (project / "made.txt").exists()
    assert "✗ bash(touch made.txt) · The user said no. They said: keep the tree clean." in output
    assert session.repl.loop is not None
    assert "They said: keep the tree clean." in str(session.repl.loop.history)


async def test_always_saves_the_rule_and_the_next_call_does_not_ask(start_repl, script, project: Path) -> None:
    model = script(
        [
            {"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]},
            {"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]},
            {"text": "Finished."},
        ]
    )
    session = await start_repl(model)
    session.send("make a file twice")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("a")
    output = await session.wait_for("Finished.")
    assert output.count("permission needed") == 1
    assert output.count("✓ bash(touch made.txt)") == 2
    saved = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert saved == {"permissions": {"allow": ["Bash(touch:*)"]}}  # the command's first word, not the string
    assert "→ always\nsaved Bash(touch:*) to .decode/settings.local.json\n" in output  # the REPL runs in project


async def test_always_saves_the_script_and_a_command_outside_it_still_asks(start_repl, script, project: Path) -> None:
    (project / "calc.py").write_text("import sys\nprint(sum(map(int, sys.argv[1:])))\n")
    calls = ["python3 calc.py 2 3", "python3 calc.py 7 1", "python3 -c 'print(7)'"]
    model = script(
        [*({"tool_calls": [{"name": "bash", "args": {"command": c}}]} for c in calls), {"text": "Finished."}]
    )
    session = await start_repl(model)
    session.send("add numbers")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    assert "a = always: Bash(python3 calc.py:*) · e = exactly: Bash(python3 calc.py 2 3)" in session.repl.questions.text
    session.send("a")
    await session.wait_for("permission needed: bash(python3 -c 'print(7)')")  # not what was approved: it asks
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.send("n")
    output = await session.wait_for("Finished.")
    assert output.count("permission needed") == 2  # the second `calc.py` call ran without asking
    assert "saved Bash(python3 calc.py:*) to .decode/settings.local.json" in output
    saved = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert saved == {"permissions": {"allow": ["Bash(python3 calc.py:*)"]}}  # the script, never `python3:*`


async def test_a_rule_too_long_for_the_hint_is_printed_whole_before_the_key() -> None:
    long_rule = f"Bash(echo {'x' * 200})"
    choices = ((long_rule, "Bash(touch \x1b]0;owned\x07)"),)
    asking = Asking(Decision.ASK, "echo: no rule allows it in default mode", call_id="c1", choices=choices)
    prompts, line, out = approvals()
    waiting = asyncio.create_task(prompts.ask("bash", {"command": "echo x && touch y"}, asking))
    await asyncio.sleep(0)
    assert "a = always: the rules printed above · n = no" in line.text
    printed = out.getvalue()
    assert f"a = always saves: {long_rule}, Bash(touch ␛]0;owned␇)".replace(" ", "") in "".join(printed.split())
    assert "\x1b" not in printed  # a rule's text is shown, never obeyed
    line.answer("a")
    assert await waiting == Approval(Answer.ALWAYS, rules=choices[0])


def test_the_line_after_always_names_the_file(tmp_path: Path) -> None:
    local = tmp_path / ".decode" / "settings.local.json"
    assert saved_line(Saved(("Bash(python:*)",), local), cwd=tmp_path) == (
        "saved Bash(python:*) to .decode/settings.local.json",
        "info",
    )
    failed = saved_line(Saved(("Bash(python:*)",), None, "read-only"), cwd=tmp_path)
    assert failed == ("could not save Bash(python:*) (read-only); it holds until decode exits", "warning")


async def test_a_plain_verdict_offers_no_always_and_a_hazard_none_either() -> None:
    prompts, line, _ = approvals()
    asking = asyncio.create_task(prompts.ask("bash", {"command": "echo $(id)"}, VERDICT))
    await asyncio.sleep(0)
    assert line.text == "allow bash(echo $(id))? (y = yes · n = no · or type what to do instead) "
    assert line.answer("a")  # not an option: their own words, so no
    assert await asking == Approval(Answer.NO, "a")


async def test_e_saves_the_exact_command() -> None:
    prompts, line, _ = approvals()
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, ASKING))
    await asyncio.sleep(0)
    line.answer("e")
    assert await asking == Approval(Answer.ALWAYS, rules=("Bash(npm install)",))


LONG = (
    "echo 'running the formatter over every python file in the project, please wait while it works' "
    "&& touch HIDDEN_TAIL_RAN"
)


async def test_a_long_command_is_shown_whole_in_a_panel_and_the_question_wraps() -> None:
    out = io.StringIO()
    line = QuestionLine(Renderer(Console(file=out, width=70)), invalidate=lambda: None)
    asking = asyncio.create_task(Approvals(line.channel).ask("bash", {"command": LONG}, ASKING))
    await asyncio.sleep(0)
    printed = out.getvalue()
    assert "…" not in printed
    assert "HIDDEN_TAIL_RAN" in printed
    assert "│" in printed
    assert "permission needed: npm install: no rule allows it" in printed
    shown = line.lines(70)
    assert shown.splitlines()[0] == "allow the bash call above?"
    assert all(len(row) < 70 for row in shown.splitlines())  # wrapped, never cut at the edge
    assert "or type what to do instead" in shown
    assert " ".join(shown.split()) == " ".join(line.text.split()).replace("? (", "? ").rstrip(") ")
    line.answer("n")
    assert await asking == Approval(Answer.NO)


async def test_a_short_command_on_a_narrow_screen_wraps_whole() -> None:
    _, line, _ = approvals()
    command = "python -c 'import calc; print(calc.add(2, 3))'"
    asking = asyncio.create_task(Approvals(line.channel).ask("bash", {"command": command}, ASKING))
    await asyncio.sleep(0)
    shown = line.lines(30)
    assert all(len(row) < 30 for row in shown.splitlines())
    assert "calc.add(2, 3))'" in " ".join(shown.split())  # nothing dropped
    line.answer("y")
    await asking


async def test_single_keys_answer_without_enter(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.type("y")  # no Enter
    await session.wait_for("Finished.")
    assert (project / "made.txt").exists()


async def test_any_other_key_starts_a_sentence(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    session.type("Not yet, and no Bash")  # an uppercase N types; then every key, "a" and "n" too
    await session.wait_until(lambda: session.repl.session.default_buffer.text == "Not yet, and no Bash")
    assert session.repl.questions.channel.current is not None  # still open
    session.send("")
    output = await session.wait_for("Finished.")
    assert "They said: Not yet, and no Bash." in output
    assert not (project / "made.txt").exists()


async def test_a_deny_rule_never_asks(start_repl, script, project: Path) -> None:
    (project / ".decode").mkdir(exist_ok=True)
    (project / ".decode" / "settings.json").write_text('{"permissions": {"deny": ["Bash(touch:*)"]}}')
    session = await start_repl(touch_then_answer(script))
    session.send("make a file")
    output = await session.wait_for("Finished.")
    assert "permission needed" not in output
    assert "✗ bash(touch made.txt) · Permission denied: touch made.txt: denied by Bash(touch:*)" in output


async def test_shift_tab_cycles_the_mode_and_the_footer_shows_it(start_repl, script, project: Path) -> None:
    session = await start_repl(touch_then_answer(script))
    await session.warm()
    assert "⏵⏵ default (shift+tab)" in plain(footer(session.repl.status))
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: accept-edits")
    assert "⏵⏵ accept-edits" in plain(footer(session.repl.status))
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: plan")
    session.send("make a file")
    output = await session.wait_for("Finished.")
    # Plan mode offers the model no tool that changes anything (ADR-0048): a call to one still fails.
    assert "✗ bash(touch made.txt)" in output
    assert not (project / "made.txt").exists()
    session.type(SHIFT_TAB)
    await session.wait_for("permission mode: default")
    assert session.repl.conversation is not None
    assert session.repl.conversation.gate.mode == "default"
    assert session.repl.conversation.session.mode == "default"


async def test_the_mode_option_and_broken_settings_at_start(start_repl, script, project: Path) -> None:
    (project / ".decode").mkdir(exist_ok=True)
    broken = project / ".decode" / "settings.local.json"
    broken.write_text("{oops")
    session = await start_repl(touch_then_answer(script), permission_mode="bypass")
    output = await session.wait_for("not valid JSON")
    assert f"permissions: {broken}:1: not valid JSON" in output
    assert session.repl.status.permission_mode == "bypass"
    session.send("make a file")
    await session.wait_for("Finished.")
    # A broken file's denies cannot vanish: with no good copy of it, every tool is refused (ADR-0042).
    assert not (project / "made.txt").exists()


def test_a_calls_time_leaves_out_the_wait_for_its_answer() -> None:
    out = io.StringIO()
    renderer = Renderer(Console(file=out, width=100))
    t0 = time.monotonic()
    renderer.event(ToolCallStarted(call=ToolCall(id="c1", name="bash", args={"command": "ls"})))
    renderer.clocks.hold({"c1"}, now=t0 + 1)  # asked after a second
    assert "bash · waits for your answer" in renderer.live(now=t0 + 101)
    renderer.clocks.hold(set(), now=t0 + 101)  # answered 100 s later
    assert "· 1.0s" in renderer.live(now=t0 + 101)  # its clock stood still while it waited
    renderer.event(ToolCallFinished(result=ToolResult(call_id="c1", name="bash", content="a", duration_s=101.5)))
    assert "· 1.5s" in out.getvalue()


async def test_the_question_holds_the_call_it_is_about() -> None:
    prompts, line, _ = approvals()
    line.renderer.event(ToolCallStarted(call=ToolCall(id="c1", name="bash", args={"command": "npm install"})))
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, ASKING))
    await asyncio.sleep(0)
    later = time.monotonic() + 60
    assert line.renderer.live(now=later) == "? bash · waits for your answer"
    line.answer("y")
    await asking
    assert "· 2m00s" in line.renderer.live(now=later + 60)  # answered (at once): its clock runs again


# -- an edit or a write shows its change before the user answers -------------------------------------

EDIT_VERDICT = Verdict(Decision.ASK, "edit: no rule allows it in default mode")


async def test_an_edit_shows_its_diff_with_its_question_one_at_a_time(tmp_path: Path) -> None:
    (tmp_path / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    out = io.StringIO()
    line = QuestionLine(Renderer(Console(file=out, width=120)), invalidate=lambda: None)
    prompts = Approvals(line.channel, workspace=tmp_path, attach=line.attach)
    edit = {"path": "calc.py", "old_string": "    return a - b", "new_string": "    return a + b"}
    write = {"path": "notes.md", "content": "# Notes\nfirst line\n"}
    first = asyncio.create_task(prompts.ask("edit", edit, EDIT_VERDICT))
    second = asyncio.create_task(prompts.ask("write", write, EDIT_VERDICT))
    await asyncio.sleep(0)
    shown = out.getvalue()
    assert "allow edit(calc.py)?" in line.text
    assert "2 -     return a - b" in shown  # numbered from the file, before anything ran
    assert "2 +     return a + b" in shown
    assert shown.index("permission needed: edit(calc.py)") < shown.index("return a - b")
    assert "first line" not in shown  # the second call's change waits for its question
    assert (tmp_path / "calc.py").read_text().endswith("a - b\n")
    line.answer("n")
    assert await first == Approval(Answer.NO)
    await asyncio.sleep(0)
    assert "first line" in out.getvalue()  # a new file: its first lines
    line.answer("y")
    assert await second == Approval(Answer.YES)


async def test_a_command_has_no_diff_and_without_a_workspace_nothing_is_attached(tmp_path: Path) -> None:
    out = io.StringIO()
    line = QuestionLine(Renderer(Console(file=out, width=120)), invalidate=lambda: None)
    attached: list[object] = []
    prompts = Approvals(line.channel, workspace=tmp_path, attach=lambda question, preview: attached.append(preview))
    asking = asyncio.create_task(prompts.ask("bash", {"command": "npm install"}, ASKING))
    await asyncio.sleep(0)
    line.answer("y")
    await asking
    assert attached == []


async def test_the_repl_shows_an_edits_diff_before_asking(start_repl, script, project: Path) -> None:
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    edit = {"path": "calc.py", "old_string": "    return a - b", "new_string": "    return a + b"}
    steps = [
        {"tool_calls": [{"name": "read", "args": {"path": "calc.py"}}]},
        {"tool_calls": [{"name": "edit", "args": edit}]},
    ]
    session = await start_repl(script([*steps, {"text": "Fixed."}]))
    session.send("fix add")
    await session.wait_until(lambda: session.repl.questions.channel.current)
    output = await session.wait_for("2 +     return a + b")
    assert "2 -     return a - b" in output
    assert (project / "calc.py").read_text().endswith("a - b\n")  # shown, not yet done
    session.send("y")
    await session.wait_for("Fixed.")
    assert (project / "calc.py").read_text().endswith("a + b\n")
