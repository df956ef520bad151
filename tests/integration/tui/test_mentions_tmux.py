"""`@path` in a real terminal, against a loopback OpenAI-compatible server that records each request:
`@` and part of a name, Tab takes the completion, Enter sends; the request holds the file as `read`
shows it, a secret file is refused in one line, and the model's edit of the file needs no read first."""

import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from tests.integration.conftest import Terminal
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Call, OpenAIServer, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"
CODE = "def add(a, b):\n    return a - b\n"


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    yield server
    server.close()


def test_a_completed_mention_sends_the_file_and_its_edit_needs_no_read(
    terminal: Terminal, project: Path, decode: str, server: OpenAIServer
) -> None:
    subprocess.run(["git", "init", "-q"], cwd=project, check=True)
    (project / "calc.py").write_text(CODE)
    (project / "calc.log").write_text("ignored by git\n")
    (project / ".gitignore").write_text("*.log\n")
    (project / ".env").write_text("TOKEN=never-sent-to-the-model\n")
    edit = Call("edit", {"path": "calc.py", "old_string": "return a - b", "new_string": "return a + b"})
    server.plan(Turn(calls=(edit,)), Turn(text="Fixed add."))
    variables = f"OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY={SECRET}"
    terminal.start(f"env {variables} {decode} --model {MODEL} --permission-mode accept-edits; sleep 60", project)
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the ready footer")

    terminal.type("fix add in @cal")
    terminal.wait_for(lambda _: "calc.py" in terminal.pane(), "the completion menu")
    assert "calc.log" not in terminal.pane()  # git ignores it
    terminal.keys("Tab")
    terminal.wait_for(lambda _: "fix add in @calc.py" in terminal.pane(), "the completed mention (and its space)")
    terminal.type("but not @.env")
    terminal.keys("Enter")
    screen = terminal.wait_for_text("Fixed add.")

    assert "❯ fix add in @calc.py but not @.env" in screen  # the transcript: the prompt as typed
    assert "⎿ attached calc.py (2 lines)" in screen
    assert "@.env not attached: read .env: a file that holds secrets" in screen
    first, second = server.requests
    (prompt,) = [m["content"] for m in first.json()["messages"] if m["role"] == "user" and "@calc.py" in str(m)]
    assert isinstance(prompt, str), prompt
    assert prompt.startswith("fix add in @calc.py but not @.env\n\n<mentions>\n")
    assert '<file path="calc.py">\n     1\tdef add(a, b):\n     2\t    return a - b\n</file>' in prompt
    assert "never-sent-to-the-model" not in first.body.decode()
    ((tool, result),) = server.tool_results(second)
    assert tool == "edit"
    assert str(result).startswith("Edited calc.py"), result  # no "read it first"
    assert (project / "calc.py").read_text() == CODE.replace("a - b", "a + b")
    terminal.wait_for(lambda _: "● ready" in terminal.footer(), "the turn over: saved, then ready")
    (log,) = (project / ".decode" / "sessions").glob("*.jsonl")
    assert "     2\\t    return a - b" in log.read_text()  # the session keeps what was sent
