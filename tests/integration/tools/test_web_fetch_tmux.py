"""web_fetch in `decode` running in a real terminal: a fetch of a local server asks; "yes" once is
still refused by the SSRF Guard (no rule names the host); "always" saves `WebFetch(domain:…)`, and
the same fetch then gets the page."""

import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.unit.tools.web.web_server import WebServer, running

pytestmark = pytest.mark.integration


@pytest.fixture
def web() -> Iterator[WebServer]:
    with running() as server:
        yield server


def test_always_on_a_fetch_opens_the_host(terminal: Terminal, project: Path, decode: str, web: WebServer) -> None:
    url = web.page("/notes", "<h1>Notes</h1><p>local docs</p>")
    call = {"tool_calls": [{"name": "web_fetch", "args": {"url": url}}]}
    turns = project.parent / "turns.json"
    turns.write_text(json.dumps([call, call, {"text": "Read it."}]))
    terminal.start(f"{decode} --model script:{turns}; echo decode-exited-$?; sleep 60", project, size=(160, 40))
    terminal.wait_for_text("❯")

    terminal.submit("read the local docs")
    terminal.wait_for_text(f"allow web_fetch({url})?")
    terminal.keys("y")  # once: the gate lets it run, the guard still refuses
    asked = f"allow web_fetch({url})?"
    terminal.wait_for(
        lambda screen: "✗ web_fetch(" in screen and screen.rfind(asked) > screen.find("✗ web_fetch("),
        "a second approval",
    )
    terminal.keys("a")
    screen = terminal.wait_for_text("Read it.")

    assert "Refused: 127.0.0.1 is a loopback address" in screen
    assert "✓ web_fetch(" in screen
    assert [path for path, _ in web.seen] == ["/notes"]  # once: the refused call never connected
    local = json.loads((project / ".decode" / "settings.local.json").read_text())
    assert local == {"permissions": {"allow": ["WebFetch(domain:127.0.0.1)"]}}
    terminal.submit("/quit")
    terminal.wait_for_text("decode-exited-0")
