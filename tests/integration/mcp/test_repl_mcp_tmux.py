"""MCP servers in the REPL, in a real terminal: the prompt does not wait for them, a project's
servers are trusted once (asked through the Decision Channel, remembered), `/mcp` shows them, and
a binary resource keeps the turn."""

import json
import os
import sys
import time
from pathlib import Path

import pytest

from tests.conftest import own_settings
from tests.integration.conftest import WAIT_S, Terminal

pytestmark = pytest.mark.integration

SERVERS = Path(__file__).parent / "servers"


def mcp_until_ready(terminal: Terminal) -> str:
    """Type /mcp until it shows the server ready (it starts in the background); returns the screen."""
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        shown = terminal.screen().count("marker · ")
        terminal.submit("/mcp")
        screen = terminal.wait_for(lambda screen, shown=shown: screen.count("marker · ") > shown, "/mcp's answer")
        if "marker · ready" in screen.rsplit("/mcp", 1)[-1]:
            return screen
    raise AssertionError(f"the server did not become ready:\n{terminal.screen()}")


def test_project_servers_are_trusted_once_and_their_tools_used(terminal: Terminal, project: Path, decode: str) -> None:
    marker = project.parent / "started.txt"
    entry = {"command": sys.executable, "args": [str(SERVERS / "marker_server.py"), str(marker)]}
    (project / ".mcp.json").write_text(json.dumps({"mcpServers": {"marker": entry}}))
    (project / ".decode").mkdir()
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["mcp__marker"]}}))
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([{"tool_calls": [{"name": "mcp__marker__ping", "args": {}}]}, {"text": "Pinged."}]))
    command = f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60"

    terminal.start(command, project, size=(140, 40))
    terminal.wait_for_text(".mcp.json asks to start 1 MCP server(s)")
    assert not marker.exists()  # nothing runs before the user says yes
    terminal.keys("y")  # a first letter alone answers nothing: the question stays open
    terminal.keys("BSpace")
    assert not marker.exists()
    terminal.submit("yes")
    terminal.wait_for_text("→ trust")
    assert "marker · ready · 1 tools · .mcp.json (project)" in mcp_until_ready(terminal)
    terminal.submit("ping it")
    screen = terminal.wait_for_text("Pinged.")
    assert "✓ mcp__marker__ping" in screen
    assert marker.exists()
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")

    # Remembered: the next start asks nothing and starts the server at once.
    marker.unlink()
    terminal.start(command, project, size=(140, 40))
    terminal.wait_for_text("❯")
    screen = mcp_until_ready(terminal)
    assert "asks to start" not in screen
    assert "  mcp__marker__ping  Answer pong." in screen
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")


def test_a_binary_resource_keeps_the_turn_for_the_next_request(terminal: Terminal, project: Path, decode: str) -> None:
    """The reference `everything` server's gzip resource: the model reads a note, the REPL keeps the turn."""
    from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn

    home = Path(os.environ["HOME"]) / ".decode"
    home.mkdir(parents=True, exist_ok=True)
    entry = {"command": sys.executable, "args": [str(SERVERS / "content_server.py")]}
    (home / "mcp.json").write_text(json.dumps({"mcpServers": {"content": entry}}))
    (project / ".decode").mkdir()
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"permissions": {"allow": ["mcp__content"]}}))
    server = OpenAIServer()
    try:
        server.plan(Turn(calls=(Call("mcp__content__blob", {}),)), Turn(text="Zipped."), Turn(text="Still here."))
        variables = f"OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY=sk-test-local"
        terminal.start(f"env {variables} {decode} --model openai-compatible:local-coder; sleep 60", project)
        terminal.wait_for_text("● ready")
        terminal.submit("zip it")
        terminal.wait_for_text("Zipped.")
        terminal.submit("and now?")
        terminal.wait_for_text("Still here.")
        sent = json.dumps(server.requests[-1].json())
        assert "zip it" in sent  # the first turn is in the next request…
        assert "application/gzip, 32 bytes, left out" in sent  # …with what the tool returned
    finally:
        server.close()
