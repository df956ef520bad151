"""`@path` in the REPL: completion (ranking, .gitignore, bounds), the gate's word, and a whole turn."""

import asyncio
import subprocess
from pathlib import Path

import pytest
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document
from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput
from pydantic_ai.messages import ModelRequest, ToolReturnPart, UserPromptPart

from decode.config.settings import Settings
from decode.context.session_log import prompt_preview
from decode.entities.deps import AgentDeps
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision
from decode.processes.local import LocalExecutor
from decode.tools.mentions import attach_mentions
from decode.tui import mentions
from decode.tui.commands import builtin_commands
from decode.tui.input import build_prompt_session
from decode.tui.mentions import MentionCompleter, gate_check, mention_at_cursor, rank, with_folders
from decode.tui.sessions import show_earlier_turns
from tests.unit.tui.conftest import Busy, Until

CODE = "def add(a, b):\n    return a - b\n"
TAB, ENTER = "\t", "\r"


@pytest.fixture
def repo(workspace: Path) -> Path:
    """A small git repository: a file git ignores, a folder, a file in it."""
    subprocess.run(["git", "init", "-q", str(workspace)], check=True)
    for name, text in {
        ".gitignore": "*.log\n",
        "calc.py": CODE,
        "debug.log": "ignored\n",
        "src/main.py": "print('hi')\n",
        "src/calc_test.py": "x = 1\n",
    }.items():
        (workspace / name).parent.mkdir(parents=True, exist_ok=True)
        (workspace / name).write_text(text)
    return workspace


def offered(completer: MentionCompleter, text: str) -> list[str]:
    async def collect() -> list[str]:
        found = completer.get_completions_async(Document(text), CompleteEvent(text_inserted=True))
        return [completion.text async for completion in found]

    return asyncio.run(collect())


def test_the_mention_at_the_cursor() -> None:
    assert mention_at_cursor("look at @src/ma") == ("src/ma", 6)
    assert mention_at_cursor("@") == ("", 0)
    assert mention_at_cursor('see @"my no') == ("my no", 6)  # the quote is replaced too
    assert mention_at_cursor("(@ca") == ("ca", 2)
    assert mention_at_cursor("mail me@ca") is None  # an e-mail address
    assert mention_at_cursor("@calc.py and") is None  # the cursor left the mention


def test_ranking_puts_a_name_that_starts_with_the_query_first() -> None:
    paths = ["docs/shell.md", "tests/test_hello.py", "h/e/l/l/o.txt", "src/hello_world.py", "hello.py", "x.py"]
    assert rank("hel", paths) == [
        "hello.py",  # the name starts with it, shortest first
        "src/hello_world.py",
        "docs/shell.md",  # the name holds it
        "tests/test_hello.py",
        "h/e/l/l/o.txt",  # only the path, loosely
    ]
    assert rank("HW", paths) == ["src/hello_world.py"]  # any case; in order, not together
    assert rank("", ["src/a/b.py", "z.py", "src/", "a.py"]) == ["a.py", "src/", "z.py", "src/a/b.py"]


def test_the_folders_above_each_file_are_offered_too() -> None:
    assert with_folders(["src/a/b.py", "src/c.py", "d.py"]) == ["src/", "src/a/", "src/a/b.py", "src/c.py", "d.py"]


def test_completion_offers_what_git_does_not_ignore_and_folders_end_with_a_slash(repo: Path) -> None:
    completer = MentionCompleter(lambda: LocalExecutor(repo))
    assert offered(completer, "fix @calc") == ["calc.py ", "src/calc_test.py "]
    assert offered(completer, "@sr") == ["src/", "src/main.py ", "src/calc_test.py "]
    assert "debug.log " not in offered(completer, "@")
    assert offered(completer, "@src/") == ["src/main.py ", "src/calc_test.py "]  # the folder itself is typed


def test_no_completion_in_an_email_a_command_or_before_the_workspace_is_known(repo: Path) -> None:
    completer = MentionCompleter(lambda: LocalExecutor(repo))
    assert offered(completer, "me@cal") == []
    assert offered(completer, "/model @cal") == []
    assert offered(MentionCompleter(lambda: None), "@cal") == []


def test_a_path_with_a_space_is_completed_quoted(repo: Path) -> None:
    (repo / "my notes.md").write_text("x\n")
    assert offered(MentionCompleter(lambda: LocalExecutor(repo)), '@"my')[0] == '"my notes.md" '


def test_the_listing_is_bounded_and_refreshed(repo: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(mentions, "MAX_LISTED", 2)
    monkeypatch.setattr(mentions, "REFRESH_S", 3600.0)
    completer = MentionCompleter(lambda: LocalExecutor(repo))
    assert len([path for path in offered(completer, "@") if not path.endswith("/")]) == 2
    monkeypatch.setattr(mentions, "MAX_LISTED", 100)
    (repo / "new.py").write_text("x\n")
    assert "new.py " not in offered(completer, "@new")  # the listing is kept for REFRESH_S seconds…
    monkeypatch.setattr(mentions, "REFRESH_S", 0.0)
    assert "new.py " in offered(completer, "@new")  # …then listed again


async def test_tab_completes_a_mention_in_the_input_line(repo: Path, tmp_path: Path, until: Until) -> None:
    with create_pipe_input() as keyboard:
        prompt = build_prompt_session(
            commands=builtin_commands(),
            arguments=lambda name: [],
            message="❯ ",
            footer="",
            on_interrupt=lambda: None,
            history_file=tmp_path / "history",
            completers=[MentionCompleter(lambda: LocalExecutor(repo))],
            input=keyboard,
            output=DummyOutput(),
        )
        buffer = prompt.default_buffer
        line = asyncio.ensure_future(prompt.prompt_async())
        keyboard.send_text("look at @cal")
        await until(lambda: buffer.complete_state is not None and bool(buffer.complete_state.completions))
        keyboard.send_text(TAB)
        await until(lambda: buffer.text == "look at @calc.py ")
        keyboard.send_text("now" + ENTER)
        async with asyncio.timeout(30):
            assert await line == "look at @calc.py now"


async def test_the_gate_refuses_a_secret_and_a_denied_file_in_one_line_each(repo: Path) -> None:
    (repo / ".env").write_text("TOKEN=never-sent\n")
    (repo / "secret").mkdir()
    (repo / "secret" / "plan.txt").write_text("classified\n")
    gate = PermissionGate([parse_rule("Read(secret/**)", Decision.DENY)], workspace=repo, home=repo / "home")
    deps = AgentDeps(LocalExecutor(repo), Settings(_env_file=None), harness_home=repo)  # type: ignore[call-arg]
    result = await attach_mentions(deps, "see @.env, @secret/plan.txt and @calc.py", gate_check(gate))
    assert [item.path for item in result.attached] == ["calc.py"]
    env, denied = result.refused
    assert env.startswith("@.env not attached: read .env: a file that holds secrets")
    assert env.endswith("(ask the agent to read it: it asks you first)")
    assert denied.startswith("@secret/plan.txt not attached: read secret/plan.txt: denied by Read(secret/**)")
    assert "never-sent" not in result.text
    assert "classified" not in result.text
    assert set(deps.read_ledger.stamps) == {(repo / "calc.py").resolve()}  # only what was sent counts as read


async def test_a_turn_shows_the_prompt_as_typed_sends_the_file_and_edits_it_without_a_read(
    start_repl, script, project: Path
) -> None:
    (project / "calc.py").write_text(CODE)
    (project / ".env").write_text("TOKEN=never-sent\n")
    edit = {"path": "calc.py", "old_string": "a - b", "new_string": "a + b"}
    session = await start_repl(
        script([{"tool_calls": [{"name": "edit", "args": edit}]}, {"text": "Fixed."}]), permission_mode="accept-edits"
    )
    await session.warm()
    typed = "fix add in @calc.py, not @.env"
    session.send(typed)
    shown = await session.wait_for("Fixed.")
    assert f"❯ {typed}" in shown
    assert "⎿ attached calc.py (2 lines)" in shown
    assert "@.env not attached: read .env: a file that holds secrets" in shown
    assert "<mentions>" not in shown
    assert (project / "calc.py").read_text() == CODE.replace("a - b", "a + b")

    loop = session.repl.loop
    assert loop is not None
    requests = [message for message in loop.history if isinstance(message, ModelRequest)]
    (sent,) = [part.content for part in requests[0].parts if isinstance(part, UserPromptPart)]
    assert isinstance(sent, str)
    assert sent.startswith(typed + "\n\n<mentions>\n")
    assert '<file path="calc.py">\n     1\tdef add(a, b):\n     2\t    return a - b\n</file>' in sent
    assert "never-sent" not in sent
    (result,) = [part for part in requests[1].parts if isinstance(part, ToolReturnPart)]
    assert str(result.content).startswith("Edited calc.py")

    assert prompt_preview(loop.history) == typed  # the session list, and a resumed transcript: as typed
    show_earlier_turns(session.repl, loop.history)
    assert session.output().count(f"❯ {typed}") == 2
    assert "<mentions>" not in session.output()


async def test_a_steer_with_a_mention_waits_as_typed_and_reaches_the_model_with_the_file(
    busy: Busy, project: Path
) -> None:
    from prompt_toolkit.formatted_text import to_plain_text

    (project / "calc.py").write_text(CODE)
    session, model = busy
    session.send("and look at @calc.py")  # while the turn runs: a steer
    await session.wait_for("⎿ attached calc.py (2 lines)")  # said at once: its echo waits for the model
    await session.wait_until(lambda: "↳ steer · and look at @calc.py\n" in to_plain_text(session.repl._message()))
    model.release.set()
    output = await session.wait_for("answer 2.")
    assert "❯ and look at @calc.py" in output
    assert "<mentions>" not in output
    assert model.requests[-1][-1].startswith("and look at @calc.py\n\n<mentions>\n")
    assert '<file path="calc.py">' in model.requests[-1][-1]
