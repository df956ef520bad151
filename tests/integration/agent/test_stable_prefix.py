"""A stable prefix: every request `decode run` sends, minus its newest turn, is where the next one begins.

A real session through the CLI against a loopback OpenAI-compatible server that records each
request: a turn that reads, edits a file (the git status changes) and writes the To-do List, then
a resumed turn that writes another file. Between any two consecutive requests the system message
and the tool definitions are byte-identical, and the earlier request's messages before its newest
turn (the trailing messages after the last assistant message) are a prefix of the later one's: the
changing facts travel in the newest turn only (ADR-0101).
"""

import subprocess
from collections.abc import Iterator
from itertools import pairwise
from pathlib import Path
from typing import Any

import pytest

from decode.agent.facts import HEADER
from tests.integration.conftest import RunDecode
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"
TODOS = [{"content": "fix add", "status": "completed"}, {"content": "run the tests", "status": "in_progress"}]


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def git(cwd: Path, *args: str) -> None:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True)


def before_newest_turn(messages: list[dict[str, Any]]) -> list[dict[str, Any]]:
    """The messages up to the last assistant message: what the next request must begin with."""
    last = max((i for i, m in enumerate(messages) if m["role"] == "assistant"), default=-1)
    return messages[: last + 1] if last >= 0 else [m for m in messages if m["role"] == "system"]


def facts(messages: list[dict[str, Any]]) -> list[str]:
    return [m["content"] for m in messages if m["role"] == "user" and str(m["content"]).startswith(HEADER)]


def test_each_request_minus_its_newest_turn_is_a_prefix_of_the_next(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    (project / "calc.py").write_text("def add(a, b):\n    return a - b\n")
    (project / "AGENTS.md").write_text("Run the tests with pytest.\n")
    git(project, "init", "-q", "-b", "main")
    git(project, "add", ".")
    git(project, "commit", "-q", "-m", "calc")
    server.plan(
        Turn(calls=(Call("read", {"path": "calc.py"}),)),
        Turn(calls=(Call("edit", {"path": "calc.py", "old_string": "a - b", "new_string": "a + b"}),)),
        Turn(calls=(Call("todo_write", {"todos": TODOS}),)),
        Turn(text="Fixed."),
        Turn(calls=(Call("write", {"path": "notes.txt", "content": "add adds\n"}),)),
        Turn(text="Noted."),
    )
    env = {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "sk-test-local"}
    bypass = ["--permission-mode", "bypass"]

    first = decode_cmd("run", "--model", MODEL, *bypass, "fix add in calc.py", cwd=project, env=env)
    assert first.returncode == 0, first.stderr
    resumed = decode_cmd("run", "--resume", *bypass, "note what add does", cwd=project, env=env)
    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "Noted.\n"

    bodies = [request.json() for request in server.requests]
    assert len(bodies) == 6
    for earlier, later in pairwise(bodies):
        assert later["tools"] == earlier["tools"]
        assert later["messages"][0] == earlier["messages"][0]  # the system message
        kept = before_newest_turn(earlier["messages"])
        assert later["messages"][: len(kept)] == kept
    # The facts did change, and each request carries them once, as its last message.
    said = [facts(body["messages"]) for body in bodies]
    assert all(len(one) == 1 for one in said)
    assert all(body["messages"][-1]["content"] == one[0] for body, one in zip(bodies, said, strict=True))
    assert "nothing to commit" in said[0][0]
    assert said[2][0].count("nothing to commit") == 1  # the git status is taken once per turn
    assert "M calc.py" in said[4][0]  # and again for the next one
    assert "Run the tests with pytest." in said[0][0]
    assert "run the tests" not in said[2][0]
    assert "◼ run the tests" in said[3][0]
    assert all(HEADER not in body["messages"][0]["content"] for body in bodies)
