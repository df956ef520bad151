"""What the model is told about its situation, read off the wire of a loopback OpenAI-compatible server.

The Agent Loop is built by the composition root (`build_loop`), as `decode run` and the REPL build
it; the model's requests go over real HTTP to the fake server, which records them. Checked: one
system message per request, the permission mode (plan, headless or not, switched mid-session) and
the tools offered with it, the git state of a real repository, and the context window the server says.
"""

import asyncio
import subprocess
from pathlib import Path
from typing import Any

import pytest

from decode.agent.compose import Conversation, LoopOptions, build_loop
from decode.agent.facts import HEADER
from decode.config.settings import Settings
from decode.context import windows
from decode.permissions.hook import Answer, Approval
from decode.permissions.types import Mode, Verdict
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import OpenAIServer, Recorded, Turn

pytestmark = pytest.mark.integration

MODEL = "openai-compatible:local-coder"


def settings_for(server: OpenAIServer, **values: Any) -> Settings:
    return Settings(_env_file=None, openai_base_url=f"{server.url}/v1", openai_api_key=SECRET, **values)  # type: ignore[call-arg]


async def approve_all(tool: str, args: dict[str, Any], verdict: Verdict) -> Approval:
    return Approval(Answer.YES)


def conversation(home: Path, server: OpenAIServer, *, interactive: bool = False, **options: Any) -> Conversation:
    approve = approve_all if interactive else None
    return build_loop(LoopOptions(home=home, model=MODEL, approve=approve, **options), settings_for(server))


def turn(conv: Conversation, prompt: str) -> None:
    async def run() -> None:
        async for _ in conv.loop.run_turn(prompt):
            pass

    asyncio.run(run())


def system_messages(request: Recorded) -> list[str]:
    return [m["content"] for m in request.json()["messages"] if m["role"] in {"system", "developer"}]


def instructions(request: Recorded) -> str:
    [text] = system_messages(request)
    return text


def turn_facts(request: Recorded) -> str:
    """The Turn Facts: the last message of a request, after the history (`decode.agent.facts`)."""
    last = request.json()["messages"][-1]
    assert last["role"] == "user"
    assert last["content"].startswith(HEADER)
    return last["content"]


def offered(request: Recorded) -> set[str]:
    return {tool["function"]["name"] for tool in request.json().get("tools", [])}


def git(cwd: Path, *args: str) -> None:
    identity = ["-c", "user.name=Test", "-c", "user.email=test@example.com", "-c", "commit.gpgsign=false"]
    subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True)


def test_every_request_carries_exactly_one_system_message_first(project: Path, openai_server: OpenAIServer) -> None:
    (project / "AGENTS.md").write_text("Always answer in French.\n")  # memory: one more dynamic instruction
    openai_server.plan(Turn(text="un"), Turn(text="deux"))
    conv = conversation(project, openai_server)

    turn(conv, "one")
    turn(conv, "two")

    for request in openai_server.requests:
        roles = [m["role"] for m in request.json()["messages"]]
        assert roles[0] == "system"
        assert roles.count("system") == 1, roles
        text = instructions(request)
        assert text.startswith("You are decode")  # the fixed instructions first, then the dynamic ones
        assert "Working directory:" in text
        assert "Always answer in French." in turn_facts(request)  # memory can change: it travels last
        assert "Permission mode: default" in text


def test_plan_mode_is_said_and_only_tools_that_change_nothing_are_offered(
    project: Path, openai_server: OpenAIServer
) -> None:
    openai_server.plan(Turn(text="Here is the plan."))
    conv = conversation(project, openai_server, interactive=True, permission_mode=Mode.PLAN)

    turn(conv, "Refactor calc.py")

    [request] = openai_server.requests
    text = instructions(request)
    assert "Permission mode: plan" in text
    assert "call exit_plan_mode with the plan" in text
    assert "The user is at the terminal" in text
    assert "headless" not in text
    tools = offered(request)
    assert {"read", "glob", "grep", "skill", "todo_write", "ask_user", "exit_plan_mode"} <= tools
    assert tools.isdisjoint({"edit", "write", "bash", "web_fetch"})  # nothing that changes anything


def test_a_mode_switched_between_turns_is_what_the_next_request_says_and_offers(
    project: Path, openai_server: OpenAIServer
) -> None:
    openai_server.plan(Turn(text="A plan."), Turn(text="Done."))
    conv = conversation(project, openai_server, interactive=True, permission_mode=Mode.PLAN)

    turn(conv, "Plan it")
    conv.gate.mode = Mode.ACCEPT_EDITS  # what Shift+Tab does in the REPL
    turn(conv, "Now do it")

    planned, done = openai_server.requests
    assert "Permission mode: plan" in instructions(planned)
    assert {"edit", "write", "bash"}.isdisjoint(offered(planned))
    assert "Permission mode: accept-edits" in instructions(done)
    assert "Permission mode: plan" not in instructions(done)
    assert {"read", "edit", "write", "bash"} <= offered(done)
    assert "exit_plan_mode" in offered(planned)
    assert "exit_plan_mode" not in offered(done)  # offered only in plan mode


def test_a_headless_run_is_told_no_one_can_approve_and_its_mode(project: Path, openai_server: OpenAIServer) -> None:
    openai_server.plan(Turn(text="ok"))
    conv = conversation(project, openai_server, permission_mode=Mode.ACCEPT_EDITS)

    turn(conv, "Fix the bug")

    text = instructions(openai_server.requests[0])
    assert "Permission mode: accept-edits" in text
    assert "This run is headless" in text
    assert "no one can answer a question or approve a call" in text
    assert "The user is at the terminal" not in text


def test_decode_run_tells_the_model_it_is_headless(run_decode: Any, openai_server: OpenAIServer, project: Path) -> None:
    openai_server.plan(Turn(text="ok"))
    env = {"OPENAI_BASE_URL": f"{openai_server.url}/v1", "OPENAI_API_KEY": SECRET}

    result = run_decode("run", "--model", MODEL, "--permission-mode", "plan", "Look around", env=env)

    assert result.returncode == 0, result.stderr
    text = instructions(openai_server.requests[0])
    assert "Permission mode: plan" in text
    assert "This run is headless" in text


def test_the_git_branch_and_a_short_status_are_in_the_turn_facts(project: Path, openai_server: OpenAIServer) -> None:
    git(project, "init", "-q", "-b", "feature/calc")
    (project / "calc.py").write_text("x = 1\n")
    git(project, "add", "calc.py")
    git(project, "commit", "-q", "-m", "first")
    (project / "calc.py").write_text("x = 2\n")
    (project / "notes.txt").write_text("todo\n")
    openai_server.plan(Turn(text="ok"), Turn(text="ok"))
    conv = conversation(project, openai_server)

    turn(conv, "What changed?")
    git(project, "checkout", "-q", "-b", "other")
    turn(conv, "And now?")

    first, second = (turn_facts(request) for request in openai_server.requests)
    assert "Git: branch feature/calc, 2 changed files" in first
    assert " M calc.py" in first
    assert "?? notes.txt" in first
    assert "Git: branch other," in second  # read again for every turn


def test_a_folder_outside_any_repository_is_said_to_be_one(project: Path, openai_server: OpenAIServer) -> None:
    openai_server.plan(Turn(text="ok"))
    conv = conversation(project, openai_server)

    turn(conv, "hi")

    assert "Git: the working directory is not in a git repository." in turn_facts(openai_server.requests[0])


@pytest.fixture
def fresh_windows(monkeypatch: pytest.MonkeyPatch) -> None:
    """Forget what servers said in earlier tests (`context_window` asks each server once a process)."""
    monkeypatch.setattr(windows, "_asked", {})


@pytest.mark.usefixtures("fresh_windows")
def test_the_context_window_is_read_from_the_servers_model_list(openai_server: OpenAIServer) -> None:
    openai_server.pages["/v1/models"] = {
        "object": "list",
        "data": [
            {"id": "other", "object": "model", "max_model_len": 8192},
            {"id": "local-coder", "object": "model", "owned_by": "vllm", "max_model_len": 24576},
        ],
    }

    window = windows.context_window(MODEL, settings_for(openai_server))

    assert window == windows.ContextWindow(24576)
    assert openai_server.gets == ["/v1/models"]
    assert openai_server.requests == []  # no model request for it


@pytest.mark.usefixtures("fresh_windows")
def test_llama_cpp_says_its_window_in_props(openai_server: OpenAIServer) -> None:
    openai_server.pages["/v1/models"] = {
        "data": [{"id": "model.gguf", "owned_by": "llamacpp", "meta": {"n_ctx_train": 131072}}]
    }
    openai_server.pages["/props"] = {"default_generation_settings": {"n_ctx": 16384}}

    assert windows.context_window(MODEL, settings_for(openai_server)).tokens == 16384


@pytest.mark.usefixtures("fresh_windows")
def test_a_window_set_for_the_model_wins_over_the_server(openai_server: OpenAIServer) -> None:
    openai_server.pages["/v1/models"] = {"data": [{"id": "local-coder", "max_model_len": 24576}]}
    settings = settings_for(openai_server, context_windows={"openai-compatible:local-*": 12000, "other:x": 5})

    assert windows.context_window(MODEL, settings) == windows.ContextWindow(12000)
    assert openai_server.gets == []


@pytest.mark.usefixtures("fresh_windows")
def test_a_server_that_says_nothing_leaves_the_default_and_its_warning(
    openai_server: OpenAIServer, caplog: pytest.LogCaptureFixture
) -> None:
    window = windows.context_window("openai-compatible:mystery-model", settings_for(openai_server))

    assert window == windows.ContextWindow(windows.DEFAULT_WINDOW, known=False)
    assert openai_server.gets == ["/v1/models"]  # 404
    assert "DECODE_CONTEXT_WINDOWS" in caplog.text
