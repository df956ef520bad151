"""`decode run` with todo_write, ask_user and exit_plan_mode, against a loopback OpenAI-compatible server.

The server records every request, so the tests read what the model was sent: the To-do List
again after `--resume`, the answer that no user is there, the plan that no one can approve.
"""

from collections.abc import Iterator
from pathlib import Path

import pytest

from decode.tools.ask import NO_USER
from decode.tools.plan import HEADLESS_PLAN
from tests.integration.conftest import RunDecode
from tests.integration.providers.fake_servers import Call, OpenAIServer, Recorded, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"
STEPS = [
    {"content": "read calc.py", "status": "completed"},
    {"content": "fix parse_range", "status": "in_progress"},
    {"content": "run the tests", "status": "pending"},
]


@pytest.fixture
def server() -> Iterator[OpenAIServer]:
    served = OpenAIServer()
    yield served
    served.close()


def env_for(server: OpenAIServer) -> dict[str, str]:
    return {"OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "sk-test-local"}


def instructions(request: Recorded) -> str:
    return "\n".join(m["content"] for m in request.json()["messages"] if m["role"] == "system")


def test_the_to_do_list_is_shown_on_stderr_and_seen_again_after_resume(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    server.plan(Turn(calls=(Call("todo_write", {"todos": STEPS}),)), Turn(text="Started."), Turn(text="Carried on."))

    first = decode_cmd("run", "--model", MODEL, "fix the bug", cwd=project, env=env_for(server))

    assert first.returncode == 0, first.stderr
    assert first.stdout == "Started.\n"
    assert "  to-do list:\n    ☑ read calc.py\n    ◼ fix parse_range\n    ☐ run the tests\n" in first.stderr

    resumed = decode_cmd("run", "--resume", "carry on", cwd=project, env=env_for(server))

    assert resumed.returncode == 0, resumed.stderr
    assert resumed.stdout == "Carried on.\n"
    seen = server.requests[-1].json()["messages"][-1]["content"]  # the Turn Facts, after the history
    assert "Your to-do list (1/3 done · now: fix parse_range; update it with todo_write):" in seen
    assert "☑ read calc.py\n◼ fix parse_range\n☐ run the tests" in seen


def test_headless_ask_user_answers_that_no_user_is_there_and_the_model_carries_on(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    question = {"question": "Which database?", "options": ["sqlite", "postgres"]}
    server.plan(Turn(calls=(Call("ask_user", question),)), Turn(text="I assumed sqlite."))

    done = decode_cmd("run", "--model", MODEL, "set up the tests", cwd=project, env=env_for(server))

    assert done.returncode == 0, done.stderr
    assert done.stdout == "I assumed sqlite.\n"
    assert server.tool_results(server.requests[-1]) == [("ask_user", NO_USER)]
    assert "✓ ask_user(Which database?)" in done.stderr  # a result, not an error


def test_headless_plan_mode_ends_with_the_plan_as_the_answer(
    project: Path, decode_cmd: RunDecode, server: OpenAIServer
) -> None:
    server.plan(Turn(calls=(Call("exit_plan_mode", {"plan": "1. Fix calc.py"}),)), Turn(text="Plan: 1. Fix calc.py"))

    done = decode_cmd(
        "run", "--model", MODEL, "--permission-mode", "plan", "plan the fix", cwd=project, env=env_for(server)
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Plan: 1. Fix calc.py\n"
    first, second = server.requests
    assert "exit_plan_mode" in {tool["function"]["name"] for tool in first.json()["tools"]}
    assert server.tool_results(second) == [("exit_plan_mode", HEADLESS_PLAN)]
