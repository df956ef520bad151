"""Bash Mode in a real terminal: `!command` runs through the gate and the bash tool, and the next
model request (to a chat-completions server on loopback) carries the command and its output."""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import Terminal
from tests.integration.context.conftest import model_server, without_facts

pytestmark = pytest.mark.integration

__all__ = ["model_server"]  # the loopback model server, a fixture of this module too


def latest_user_text(request: dict[str, Any]) -> str:
    """The user's words since the model last spoke, in one text (the Turn Facts left out)."""
    texts: list[str] = []
    for message in without_facts(request["messages"]):
        if message["role"] == "assistant":
            texts = []
        elif message["role"] == "user":
            content = message["content"]
            texts.append(content if isinstance(content, str) else " ".join(p.get("text", "") for p in content))
    return "\n".join(texts)


def test_a_bang_command_runs_asks_first_and_the_model_reads_it_next_turn(
    terminal: Terminal, project: Path, decode: str, model_server, monkeypatch: pytest.MonkeyPatch
) -> None:
    server, env = model_server(lambda request: {"text": "You wrote hi to f.txt."})
    for name in ("DECODE_MODEL", "OPENAI_BASE_URL", "DECODE_MAX_RETRIES", "DECODE_CONTEXT_WINDOW"):
        monkeypatch.setenv(name, env[name])  # the terminal's server starts with this environment
    terminal.start(f"{decode}; echo decode-exited-$?; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("!echo hi > f.txt")
    terminal.wait_for_text("allow bash(echo hi > f.txt)?")  # it writes a file: default mode asks
    assert not (project / "f.txt").exists()
    terminal.type("y")
    terminal.wait_for(lambda s: "✓ bash(echo hi > f.txt) · exit 0 · no output" in s, "the call's line")
    assert (project / "f.txt").read_text() == "hi\n"
    terminal.submit("!cat f.txt")  # read-only: it runs without asking
    screen = terminal.wait_for_text("✓ bash(cat f.txt) · exit 0 · 1 line")
    assert "│ hi" in screen
    assert "❯ !echo hi > f.txt" in screen
    assert "❯ !cat f.txt" in screen
    assert server.requests == []  # no model asked

    terminal.submit("what did I just do?")
    terminal.wait_for_text("You wrote hi to f.txt.")
    (request,) = server.requests
    said = latest_user_text(request)
    assert "<bash-input>echo hi > f.txt</bash-input>\n<bash-output>\nexit code: 0\nstdout: (empty)" in said
    assert "<bash-input>cat f.txt</bash-input>\n<bash-output>\nexit code: 0\nstdout:\nhi\n" in said
    assert said.endswith("what did I just do?")
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_a_deny_rule_refuses_a_bang_command_and_esc_stops_a_running_one(
    terminal: Terminal, project: Path, decode: str
) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / "settings.json").write_text(json.dumps({"permissions": {"deny": ["Bash(rm:*)"]}}))
    (project / "keep.txt").write_text("precious")
    turns = project / "turns.json"
    turns.write_text(json.dumps([{"text": "unused"}]))
    terminal.start(f"{decode} --model script:{turns} --permission-mode bypass; sleep 60", project, size=(160, 40))
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.submit("!rm -f keep.txt")
    terminal.wait_for_text("error: not run: rm -f keep.txt: denied by Bash(rm:*)")
    assert (project / "keep.txt").exists()

    terminal.submit("!")
    terminal.wait_for_text("bash mode: type a command after the !")

    terminal.submit("!echo started; sleep 30; touch late.txt")
    terminal.wait_for(lambda _: "│ started" in terminal.pane(), "the running command's output")
    terminal.keys("Escape")
    terminal.wait_for_text("✗ bash(echo started; sleep 30; touch late.txt) · stopped")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer again")
    assert not (project / "late.txt").exists()
