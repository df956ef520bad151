"""`decode run` recorded through a real local Kitaru server, and read back through kitaru's API."""

import asyncio
import json
import os
import socket
import subprocess
import sys
import uuid
from pathlib import Path
from typing import Any

import pytest

from tests.integration.recording.conftest import KitaruServer, session_ids

pytestmark = pytest.mark.integration

DECODE = str(Path(sys.executable).with_name("decode"))
TURNS = [
    {"tool_calls": [{"name": "read", "args": {"path": "README.md"}}]},
    {"tool_calls": [{"name": "glob", "args": {"pattern": "*.md"}}]},
    {"text": "The README says hello."},
]


def environment(**kitaru: str) -> dict[str, str]:
    env = {name: value for name, value in os.environ.items() if not name.startswith("KITARU_")}
    return {**env, "KITARU_DISABLE_CLIENT_ANALYTICS": "1", **kitaru}


def configured(server: KitaruServer) -> dict[str, str]:
    """The `.env` lines `kitaru-local start` printed: the server, the agent, and the key it wants."""
    return {"KITARU_API_URL": server.url, "KITARU_AGENT_ID": server.agent_id, "KITARU_API_KEY": server.api_key}


def decode_run(
    project: Path, turns: list[dict[str, Any]], env: dict[str, str], *args: str
) -> subprocess.CompletedProcess[str]:
    script = project.parent / f"turns-{uuid.uuid4().hex[:6]}.json"
    script.write_text(json.dumps(turns))
    argv = [DECODE, "run", "--model", f"script:{script}", *args, "what does the README say?"]
    return subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=120, check=False)


def recorded_sessions(server: KitaruServer, name: str) -> list[Any]:
    """The Kitaru sessions named `name`, each with its nodes, oldest first."""
    from kitaru.client import KitaruAPIClient

    async def read() -> list[Any]:
        client = KitaruAPIClient(base_url=server.url, api_key=server.api_key)
        try:
            found = [s async for s in client.sessions.iter() if s.name == name]
            return [await client.sessions.get_with_nodes(s.id) for s in sorted(found, key=lambda s: s.started_at)]
        finally:
            await client.close()

    return asyncio.run(read())


def closed_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return sock.getsockname()[1]


def test_a_second_start_reuses_the_running_server_and_its_agent(kitaru_server: KitaruServer) -> None:
    script = Path(__file__).resolve().parents[3] / "scripts" / "kitaru-local"
    argv = [sys.executable, str(script), "start", "--dir", str(kitaru_server.home)]

    done = subprocess.run(argv, capture_output=True, text=True, timeout=60, check=False)

    assert done.returncode == 0, done.stderr
    assert "already running" in done.stderr
    assert done.stdout.splitlines() == [
        f"KITARU_API_URL={kitaru_server.url}",
        f"KITARU_AGENT_ID={kitaru_server.agent_id}",
        f"KITARU_API_KEY={kitaru_server.api_key}",
    ]
    assert oct((kitaru_server.home / "secrets.env").stat().st_mode & 0o777) == "0o600"


def test_a_run_is_recorded_with_its_model_requests_and_tool_calls(project: Path, kitaru_server: KitaruServer) -> None:
    (project / "README.md").write_text("hello\n")
    env = environment(**configured(kitaru_server))

    done = decode_run(project, TURNS, env)

    assert done.returncode == 0, done.stderr
    assert "recording off" not in done.stderr
    (session_id,) = session_ids(project)
    (recorded,) = recorded_sessions(kitaru_server, session_id)
    session = recorded.session
    assert str(session.agent_id) == kitaru_server.agent_id
    assert session.status.value == "completed"
    kinds = [(n.node_type.value, n.name) for n in recorded.nodes]
    assert kinds.count(("llm_call", "model_request")) == 3
    tools = [n for n in recorded.nodes if n.node_type.value == "tool_call"]
    assert [n.tool_name for n in tools] == ["read", "glob"]
    assert tools[0].inputs["path"] == "README.md"
    assert "hello" in json.dumps(tools[0].outputs)
    assert "The README says hello." in json.dumps(session.outputs)


def test_turns_of_one_decode_session_are_grouped_under_its_id(project: Path, kitaru_server: KitaruServer) -> None:
    (project / "README.md").write_text("hello\n")
    env = environment(**configured(kitaru_server))
    assert decode_run(project, [{"text": "one"}], env).returncode == 0
    (session_id,) = session_ids(project)

    done = decode_run(project, [{"text": "two"}], env, "--resume", session_id)

    assert done.returncode == 0, done.stderr
    turns = recorded_sessions(kitaru_server, session_id)
    assert [t.session.outputs for t in turns] == ["one", "two"]


def test_an_unreachable_server_leaves_a_user_run_unrecorded_with_one_warning(project: Path) -> None:
    (project / "README.md").write_text("hello\n")
    env = environment(KITARU_API_URL=f"http://127.0.0.1:{closed_port()}", KITARU_AGENT_ID=str(uuid.uuid4()))

    done = decode_run(project, TURNS, env)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "The README says hello.\n"
    warnings = [line for line in done.stderr.splitlines() if "WARNING" in line or "Kitaru" in line]
    assert len(warnings) == 1, done.stderr
    assert "recording off: the Kitaru server at http://127.0.0.1:" in warnings[0]


def test_an_unreachable_server_fails_a_worker_run(project: Path) -> None:
    (project / "README.md").write_text("hello\n")
    url = f"http://127.0.0.1:{closed_port()}"
    env = environment(KITARU_API_URL=url, KITARU_AGENT_ID=str(uuid.uuid4()), KITARU_TASK_ID=str(uuid.uuid4()))

    done = decode_run(project, TURNS, env)

    assert done.returncode == 1
    assert f"the Kitaru server at {url} cannot be reached" in done.stderr
    assert "a Worker's run must be recorded" in done.stderr


WATCH_MODULES = """
import runpy, sys
sys.argv = ["decode", *sys.argv[1:]]
try:
    runpy.run_module("decode", run_name="__main__")
except SystemExit as done:
    code = done.code
else:
    code = 0
loaded = sorted(n for n in sys.modules if n.split(".")[0] in {"kitaru", "kitaru_pydantic_ai"})
print("KITARU:" + ",".join(loaded), file=sys.stderr)
sys.exit(code)
"""


@pytest.mark.parametrize("dotenv", [False, True])
def test_unconfigured_decode_run_never_imports_kitaru(project: Path, dotenv: bool) -> None:
    (project / "README.md").write_text("hello\n")
    if dotenv:  # a repository's .env cannot turn recording on: it may not name the server
        (project / ".env").write_text(
            f"KITARU_API_URL=http://127.0.0.1:{closed_port()}\nKITARU_AGENT_ID={uuid.uuid4()}\n"
        )
    script = project.parent / "turns.json"
    script.write_text(json.dumps(TURNS))
    argv = [sys.executable, "-c", WATCH_MODULES, "run", "--model", f"script:{script}", "x"]

    done = subprocess.run(
        argv, cwd=project, env=environment(), capture_output=True, text=True, timeout=120, check=False
    )

    assert done.returncode == 0, done.stderr
    assert "KITARU:\n" in done.stderr, done.stderr
    assert ("ignored KITARU_API_URL from the project's .env" in done.stderr) is dotenv


def replay(project: Path, env: dict[str, str], *args: str) -> dict[str, Any]:
    argv = [DECODE, "replay", *args, "--timeout", "120"]
    done = subprocess.run(argv, cwd=project, env=env, capture_output=True, text=True, timeout=180, check=False)
    assert done.returncode == 0, done.stderr
    return json.loads(done.stdout)


def test_a_baseline_replay_and_a_what_if_replay_run_through_the_local_worker(
    project: Path, kitaru_server: KitaruServer
) -> None:
    (project / "README.md").write_text("hello\n")
    env = environment(**configured(kitaru_server))
    assert decode_run(project, TURNS, env).returncode == 0
    (session_id,) = session_ids(project)
    (project / "README.md").write_text("changed since\n")  # a Baseline Replay answers with what was recorded

    baseline = replay(project, env, session_id)

    assert baseline["status"] == "completed"
    assert baseline["output"] == "The README says hello."
    (result,) = [s for s in recorded_sessions(kitaru_server, session_ids(project)[-1])]
    assert result.session.origin.value == "replay"
    assert result.session.inputs == "what does the README say?"  # the baseline's prompt, not the placeholder
    read = next(n for n in result.nodes if n.tool_name == "read")
    assert read.attributes.get("mocked") is True
    assert "hello" in json.dumps(read.outputs)

    other = project.parent / "other.json"
    other.write_text(json.dumps([{"text": "A different answer."}]))
    what_if = replay(project, env, session_id, "--model", f"script:{other}", "--prompt", "summarise it")

    assert what_if["status"] == "completed"
    assert what_if["output"] == "A different answer."
    (changed,) = recorded_sessions(kitaru_server, session_ids(project)[-1])
    assert changed.session.inputs == "what does the README say?"
    first_request = next(n for n in changed.nodes if n.node_type.value == "llm_call")
    assert "summarise it" in json.dumps(first_request.inputs)
