"""`read` of an image through `decode run` against a loopback OpenAI chat server: the next request
carries the image as an `image_url` data-URL part; a model without images gets a line, no bytes."""

import base64
import json
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn
from tests.unit.tools.image_bytes import png

pytestmark = pytest.mark.integration


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def run(project: Path, decode_cmd: RunDecode, server: OpenAIServer, model: str) -> tuple[int, str]:
    server.plan(Turn(calls=(Call("read", {"path": "shot.png"}),)), Turn(text="a grey square"))
    env = {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "sk-test-local"}
    done = decode_cmd("run", "--model", model, "what is in shot.png?", cwd=project, env=env)
    return done.returncode, done.stderr


def _image_urls(body: object) -> list[str]:
    found: list[str] = []
    if isinstance(body, dict):
        if body.get("type") == "image_url":
            found.append(body["image_url"]["url"])
        for value in body.values():
            found += _image_urls(value)
    elif isinstance(body, list):
        for item in body:
            found += _image_urls(item)
    return found


def test_the_request_after_a_read_carries_the_image(project: Path, decode_cmd: RunDecode, server: OpenAIServer) -> None:
    (project / "shot.png").write_bytes(png(3, 2))
    code, err = run(project, decode_cmd, server, "openai-compatible:gpt-4o")

    assert code == 0, err
    body = server.requests[-1].json()
    assert _image_urls(body) == ["data:image/png;base64," + base64.b64encode(png(3, 2)).decode()]
    assert f"shot.png: PNG image, 3×2 pixels, {len(png(3, 2))} bytes." in json.dumps(body, ensure_ascii=False)
    assert _image_urls(server.requests[0].json()) == []  # the first request had no image


def test_a_model_without_images_gets_a_line_and_no_bytes(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    (project / "shot.png").write_bytes(png(3, 2))
    code, err = run(project, decode_cmd, server, "openai-compatible:local-coder")

    assert code == 0, err
    body = server.requests[-1].json()
    assert _image_urls(body) == []
    assert "does not take images, so it is not shown" in json.dumps(body)
