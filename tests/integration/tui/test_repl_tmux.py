"""`decode` in a real terminal: tmux runs it, the test types with send-keys and reads the pane."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode, Terminal

pytestmark = pytest.mark.integration


def test_a_scripted_session_in_a_real_terminal(terminal: Terminal, project: Path, decode: str) -> None:
    (project / "README.md").write_text("# Demo\n\nA tiny project.\n")
    turns = project / "turns.json"
    turns.write_text(
        json.dumps(
            [
                {"text": "Reading the README.", "tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
                {"text": "The project is **tiny**.\n\n```python\nprint('demo')\n```\n\nThat is all."},
            ]
        )
    )
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project)

    # The prompt and the footer, then the footer says the agent is warm.
    terminal.wait_for_text("❯")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    assert "script:turns.json" in terminal.footer()

    terminal.submit("what is this project?")
    # Finished blocks print above the prompt while the live area shows the one still streaming, so
    # read the screen once the turn is over (ready, with usage): then every block has been printed.
    terminal.wait_for(
        lambda _: "● ready" in terminal.footer() and " 0 tokens" not in terminal.footer(), "the turn's end"
    )
    screen = terminal.wait_for_text("That is all.")

    assert "❯ what is this project?" in screen
    assert "Reading the README." in screen
    tool_line = next(line for line in screen.splitlines() if "read(README.md)" in line)
    assert tool_line.startswith("✓ read(README.md) · ")
    assert "The project is tiny." in screen  # Markdown rendered: no asterisks
    assert "print('demo')" in screen
    assert "```" not in screen
    footer = terminal.footer()
    assert "tokens" in footer
    assert "$" not in footer  # no price is known for a scripted model: no cost shown
    assert "n/a" not in footer
    assert footer.endswith("⏵⏵ default (shift+tab)")
    assert f"/{project.name} │" in footer

    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
    assert "what is this project?" in (project / ".decode" / "history").read_text()


@pytest.mark.parametrize("columns", [70, 120])
def test_the_first_screen_and_the_footer_at_70_and_120_columns(
    terminal: Terminal, project: Path, decode: str, columns: int
) -> None:
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "Hello."}]))
    terminal.start(f"{decode} --model script:{turns}; sleep 60", project, size=(columns, 30))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    screen = terminal.screen()
    assert screen.splitlines()[0].startswith("decode · script:turns.json · ")
    first_line = f"decode · script:turns.json · {project} · /help lists the commands"
    assert "".join(first_line.split()) in "".join(screen.split())  # whole, wrapped where it must be
    footer = terminal.footer()
    assert len(footer) <= columns
    assert "⏵⏵ default" in footer  # the mode stays visible
    assert ("(shift+tab)" in footer) == (columns >= 120)  # the hint gives way first
    assert ("tokens" in footer) == (columns >= 120)
    terminal.keys("BTab")
    terminal.wait_for(lambda _: "⏵⏵ accept-edits" in terminal.footer(), "the mode in the footer")
    terminal.submit("/cost")
    screen = terminal.wait_for_text("requests:")
    assert "❯ /cost" in screen  # the command echoed like a prompt


def test_a_bad_model_shows_its_error_first_and_no_raw_warning(terminal: Terminal, project: Path, decode: str) -> None:
    terminal.start(f"{decode} --model nonsense:x; sleep 60", project, size=(70, 30))
    terminal.wait_for(lambda _: "✗ no model" in terminal.footer(), "the no-model footer")
    screen = terminal.screen()
    assert screen.splitlines()[0].startswith("decode · nonsense:x · ")
    assert "unknown model provider in 'nonsense:x'" in " ".join(screen.split())
    assert "WARNING" not in screen
    assert "no context window known" not in screen
    assert "⏵⏵ default" in terminal.footer()


def test_ctrl_d_leaves_and_a_missing_key_does_not_stop_the_repl(terminal: Terminal, project: Path, decode: str) -> None:
    terminal.start(f"{decode}; echo decode-exited-$?; sleep 60", project)  # Gemini by default, and no key
    terminal.wait_for_text("GEMINI_API_KEY is not set")
    terminal.wait_for(lambda _: "✗ no model" in terminal.footer(), "the no-model footer")
    terminal.submit("/help")
    # The help prints between two prompts, when the terminal is not in raw mode and swallows a Ctrl-D
    # as end-of-file: press it once the next prompt has drawn its footer below the help.
    terminal.wait_for(lambda screen: "✗ no model" in screen.partition("Leave decode")[2], "the prompt after /help")
    terminal.keys("C-d")
    terminal.wait_for_text("decode-exited-0")


def test_without_a_terminal_decode_exits_2_and_points_to_decode_run(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd(cwd=project)  # stdin is not a terminal
    assert done.returncode == 2
    assert done.stdout == ""
    assert 'decode run "TASK"' in done.stderr


LONG_COMMAND = (
    "echo 'running the formatter over every python file in the project, please wait while it works' "
    "&& touch HIDDEN_TAIL_RAN"
)


@pytest.mark.parametrize("columns", [70, 120])
def test_an_approval_shows_the_whole_command_and_y_answers_alone(
    terminal: Terminal, project: Path, decode: str, columns: int
) -> None:
    """A command longer than the screen is wide: its tail is on screen before the user answers."""
    turns = project / "turns.json"
    turns.write_text(
        json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": LONG_COMMAND}}]}, {"text": "All done."}])
    )
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(columns, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("format everything")

    captured: list[str] = []

    def question_drawn(_: str) -> bool:
        # One whole frame (down to the footer, not one caught mid-redraw) with the question, its
        # choices and the tail of the command. The panel prints above the prompt a moment after the
        # question first shows, so the first frame with the question may not have it yet.
        captured.append(terminal.pane())
        words = " ".join(captured[-1].split())
        return (
            "⏵⏵ default" in captured[-1]  # the footer, the frame's last row
            and "allow the bash call above?" in words
            and "or type what to do instead" in words
            and "HIDDEN_TAIL_RAN" in captured[-1]
        )

    terminal.wait_for(question_drawn, "the question, its choices and the command's tail")
    shown = captured[-1]
    # The footer (the frame's row with the mode) may shorten the folder's name; nothing else is cut.
    # It is read from the same frame: read again later, its spinner may have moved on.
    assert not [row for row in shown.splitlines() if "…" in row and "⏵⏵" not in row], shown
    words = " ".join(shown.split())
    assert "allow the bash call above?" in words
    exact = "Bash(echo 'running the formatter over every python file in the project, please wait while it works')"
    rules = f"a = always: Bash(echo:*), Bash(touch:*) · e = exactly: {exact}, Bash(touch HIDDEN_TAIL_RAN)"
    assert f"y = yes · {rules} · n = no" in words  # each choice names the rules it saves (ADR-0085)
    assert not (project / "HIDDEN_TAIL_RAN").exists()

    terminal.type("y")  # one key, no Enter
    terminal.wait_for_text("All done.")
    assert (project / "HIDDEN_TAIL_RAN").exists()
    assert not (project / ".decode" / "settings.local.json").exists()
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_always_shows_and_saves_the_script_and_says_where(terminal: Terminal, project: Path, decode: str) -> None:
    (project / "calc.py").write_text("import sys\nprint(sum(map(int, sys.argv[1:])))\n")
    turns = project / "turns.json"
    calls = ["python3 calc.py 2 3", "python3 calc.py 7 1", "python3 -c 'print(7)'"]
    turns.write_text(
        json.dumps(
            [*({"tool_calls": [{"name": "bash", "args": {"command": c}}]} for c in calls), {"text": "All done."}]
        )
    )
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(70, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.submit("add numbers")
    # The rule `a` saves is on screen before the key is pressed (ADR-0085): the script, not `python3:*`.
    terminal.wait_for(lambda screen: "a = always: Bash(python3 calc.py:*)" in " ".join(screen.split()), "the rule")
    terminal.type("a")
    terminal.wait_for_text("allow bash(python3 -c 'print(7)')?")  # outside what was approved: it asks
    terminal.type("n")
    screen = terminal.wait_for_text("All done.")
    assert "saved Bash(python3 calc.py:*) to .decode/settings.local.json" in screen
    assert screen.count("permission needed") == 2  # the second calc.py call ran without asking
    saved = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert saved == {"permissions": {"allow": ["Bash(python3 calc.py:*)"]}}
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
