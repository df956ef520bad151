"""Images in a real terminal, against a loopback OpenAI chat server that records each request: the
model's `read` of a PNG is shown, and the next request carries the image; a prompt naming an image with
`@` attaches it (`[image: shot.png]` under the prompt) and the request holds it as an `image_url` part."""

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn
from tests.unit.tools.image_bytes import png

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:gpt-4o"
DATA_URL = "data:image/png;base64," + base64.b64encode(png(3, 2)).decode()


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    yield server
    server.close()


def test_a_read_image_is_shown_and_sent_and_a_mentioned_one_is_attached(
    terminal: Terminal, project: Path, decode: str, server: OpenAIServer
) -> None:
    (project / "shot.png").write_bytes(png(3, 2))
    server.plan(
        Turn(calls=(Call("read", {"path": "shot.png"}),)), Turn(text="A grey square."), Turn(text="Again grey.")
    )
    variables = f"OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY={SECRET}"
    terminal.start(f"env {variables} {decode} --model {MODEL}; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.type("what is in shot.png?")
    terminal.keys("Enter")
    screen = terminal.wait_for_text("A grey square.")
    assert "shot.png" in screen.split("A grey square.")[0].split("what is in shot.png?")[1]  # the read's line
    assert DATA_URL in json.dumps(server.requests[1].json())  # the request after the read carries the image
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over")

    terminal.type("and now @shot.png")
    terminal.keys("Enter")
    screen = terminal.wait_for_text("Again grey.")
    assert "[image: shot.png]" in screen
    messages = server.requests[2].json()["messages"]
    [prompt] = [m["content"] for m in messages if m["role"] == "user" and "and now @shot.png" in str(m)]
    assert prompt[0]["text"].startswith("and now @shot.png\n\n<mentions>")
    assert prompt[1] == {"type": "image_url", "image_url": {"url": DATA_URL}}
