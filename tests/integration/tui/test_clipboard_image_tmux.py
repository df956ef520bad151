"""Ctrl+V with an image on the clipboard, in a real terminal: a fake `xclip` on PATH (the boundary)
prints a real PNG; the image is kept in `.decode/clipboard/`, mentioned in the input line, and sent
to a loopback OpenAI chat server as an `image_url` part. With no reader installed, one line says so."""

import base64
import json
import os
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import OpenAIServer, Turn
from tests.unit.tools.image_bytes import png

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:gpt-4o"


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    yield server
    server.close()


def _bin(tmp_path: Path, xclip: str | None) -> Path:
    """A PATH folder with only what the test needs: the shell's tools, and `xclip` when given."""
    folder = tmp_path / "bin"
    folder.mkdir()
    for name in ("sh", "env", "cat", "sleep", "git"):
        found = next((Path(d) / name for d in os.environ["PATH"].split(":") if (Path(d) / name).is_file()), None)
        if found is not None:
            (folder / name).symlink_to(found)
    if xclip is not None:
        (folder / "xclip").write_text(xclip)
        (folder / "xclip").chmod(0o755)
    return folder


def test_ctrl_v_attaches_the_clipboards_image(
    terminal: Terminal, project: Path, tmp_path: Path, decode: str, server: OpenAIServer
) -> None:
    (tmp_path / "copied.png").write_bytes(png(4, 3))
    folder = _bin(tmp_path, f"#!/bin/sh\ncat {tmp_path / 'copied.png'}\n")
    server.plan(Turn(text="A small grey picture."))
    variables = f"PATH={folder} OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY={SECRET}"
    terminal.start(f"env {variables} {decode} --model {MODEL}; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.type("what is this?")
    terminal.keys("C-v")
    terminal.wait_for(lambda _: "@.decode/clipboard/" in terminal.pane(), "the mention in the input line")
    terminal.keys("Enter")
    screen = terminal.wait_for_text("A small grey picture.")
    (kept,) = (project / ".decode" / "clipboard").glob("*.png")
    assert kept.read_bytes() == png(4, 3)
    assert f"[image: {kept.name}]" in screen or f"[image: .decode/clipboard/{kept.name}]" in screen
    url = "data:image/png;base64," + base64.b64encode(png(4, 3)).decode()
    assert url in json.dumps(server.requests[0].json())


def test_without_a_clipboard_reader_ctrl_v_says_so(
    terminal: Terminal, project: Path, tmp_path: Path, decode: str
) -> None:
    folder = _bin(tmp_path, None)
    (project / "turns.json").write_text(json.dumps([{"text": "ok"}]))
    terminal.start(f"env PATH={folder} {decode} --model script:turns.json; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")
    terminal.keys("C-v")
    said = "no clipboard reader: install wl-clipboard (wl-paste) or xclip to paste images with Ctrl+V"
    terminal.wait_for(lambda screen: said in " ".join(screen.split()), "the line saying so")
    assert "@.decode/clipboard/" not in terminal.pane()  # the input line is left as it was
