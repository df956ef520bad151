"""MCP content through `decode run` against a loopback OpenAI-compatible provider: a binary resource
(the reference `everything` server's gzip file) reaches the model as a note, not as a file it refuses,
and the turn goes on; an image goes as an image, a part for the user only is left out."""

import json
import sys
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"
SERVER = Path(__file__).parent / "servers" / "content_server.py"


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def run(project: Path, decode_cmd: RunDecode, server: OpenAIServer, *calls: Call) -> tuple[int, str, str]:
    (project / ".mcp.json").write_text(
        json.dumps({"mcpServers": {"content": {"command": sys.executable, "args": [str(SERVER)]}}})
    )
    server.plan(*(Turn(calls=(call,)) for call in calls), Turn(text="done"))
    env = {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "sk-test-local"}
    done = decode_cmd(
        "run", "--model", MODEL, "--trust-project-mcp", "--permission-mode", "bypass", "go", cwd=project, env=env
    )
    return done.returncode, done.stdout, done.stderr


def test_an_embedded_gzip_resource_is_a_note_and_the_run_goes_on(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    code, out, err = run(project, decode_cmd, server, Call("mcp__content__blob", {}))

    assert code == 0, err
    assert out == "done\n"
    [(name, content)] = server.tool_results(server.requests[-1])
    assert name == "mcp__content__blob"
    assert (
        content
        == "[resource demo://file.gz: application/gzip, 32 bytes, left out: binary content the model cannot read]"
    )
    sessions = "".join(p.read_text() for p in (project / ".decode" / "sessions").glob("*.jsonl"))
    assert "application/gzip, 32 bytes" in sessions  # the turn was saved, the note in it


def test_an_image_goes_to_the_model_and_a_part_for_the_user_only_does_not(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    code, _, err = run(
        project, decode_cmd, server, Call("mcp__content__annotated", {}), Call("mcp__content__image", {})
    )

    assert code == 0, err
    sent = json.dumps(server.requests[-1].json())
    assert "disk full" in sent
    assert "for your eyes only" not in sent
    assert "meant for the user only: not shown" in sent
    assert "data:image/png;base64," in sent  # the image, as the provider takes it
