"""Tracing through the real CLI: `decode run` sends its turn to a real HTTP collector on 127.0.0.1.

Each test runs `decode run` as a user does, with `OPIK_URL_OVERRIDE` pointing at the loopback
collector, and reads back what opik delivered: the trace, its spans, how they nest.
"""

import json
import os
import re
import subprocess
import sys
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import script
from tests.integration.conftest import DECODE, RunDecode

pytestmark = pytest.mark.integration

HEAVY = ("opik", "kitaru", "modal")


def session_id(stderr: str) -> str:
    found = re.search(r"session (\w+) saved", stderr)
    assert found, stderr
    return found.group(1)


def by_id(items: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    return {item["id"]: item for item in items}


def test_a_run_is_one_decode_run_trace_with_its_requests_and_tool_calls(
    project: Path, decode_cmd: RunDecode, collector: Any
) -> None:
    (project / "notes.txt").write_text("remember the milk\n")
    calls = [{"name": "read", "args": {"path": "notes.txt"}}, {"name": "bash", "args": {"command": "echo traced"}}]
    model = script(project.parent / "turns.json", [{"tool_calls": calls}, {"text": "The note says milk."}])

    done = decode_cmd(
        "run", "--permission-mode", "bypass", "--model", model, "what does the note say?",
        cwd=project, env={"OPIK_URL_OVERRIDE": collector.url},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert done.stdout == "The note says milk.\n"
    assert collector.wait_for(traces=1, spans=4), collector.paths()
    (trace,) = collector.traces()
    assert trace["name"] == "decode_run"
    assert trace["thread_id"] == session_id(done.stderr)
    assert trace["input"] == {"prompt": "what does the note say?"}
    assert trace["output"] == {"answer": "The note says milk."}
    assert trace["metadata"] == {
        "model": model,
        "agent": "build",
        "permission_mode": "bypass",
        "sandbox": "none",
        "session_id": trace["thread_id"],
    }
    spans = collector.spans()
    assert all(span["trace_id"] == trace["id"] and span.get("parent_span_id") is None for span in spans)
    llm = [span for span in spans if span["type"] == "llm"]
    assert len(llm) == 2
    assert all(span["model"] == model and span["provider"] == "script" for span in llm)
    assert all(span["usage"]["prompt_tokens"] > 0 and span["usage"]["completion_tokens"] > 0 for span in llm)
    tools = {span["name"]: span for span in spans if span["type"] == "tool"}
    assert set(tools) == {"read", "bash"}
    assert tools["read"]["input"] == {"path": "notes.txt"}
    assert tools["bash"]["input"] == {"command": "echo traced"}
    assert "traced" in tools["bash"]["output"]["content"]
    assert all(span["output"]["outcome"] == "ok" and span["metadata"]["duration_s"] >= 0 for span in tools.values())
    sent = {"POST /api/v1/private/traces/batch", "POST /api/v1/private/spans/batch"}
    assert sent <= set(collector.paths()) <= sent | {"GET /api/is-alive/ping"}  # opik's health check may come first


def test_a_refused_and_a_failed_tool_call_say_so(project: Path, decode_cmd: RunDecode, collector: Any) -> None:
    calls = [{"name": "bash", "args": {"command": "rm -rf notes"}}, {"name": "read", "args": {"path": "missing.txt"}}]
    model = script(project.parent / "turns.json", [{"tool_calls": calls}, {"text": "Could not."}])

    done = decode_cmd(
        "run", "--agent", "explore", "--model", model, "x", cwd=project, env={"OPIK_URL_OVERRIDE": collector.url}
    )

    assert done.returncode == 0, done.stderr
    assert collector.wait_for(traces=1, spans=4), collector.paths()
    outcomes = {span["name"]: span["output"]["outcome"] for span in collector.spans() if span["type"] == "tool"}
    assert outcomes == {"bash": "refused", "read": "error"}


def test_a_subagents_turn_is_a_child_span_of_the_agent_call(
    project: Path, decode_cmd: RunDecode, collector: Any
) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_app.py").write_text("def test_ok(): pass\n")
    ask = {"prompt": "Where are the tests?", "agent": "explore", "description": "tests"}
    parent = script(project.parent / "parent.json", [{"tool_calls": [{"name": "agent", "args": ask}]}, {"text": "Ok."}])
    child = script(
        project.parent / "child.json",
        [{"tool_calls": [{"name": "glob", "args": {"pattern": "tests/*.py"}}]}, {"text": "tests/test_app.py"}],
    )

    done = decode_cmd(
        "run", "--model", parent, "map it", cwd=project,
        env={"DECODE_SUBAGENT_MODEL": child, "OPIK_URL_OVERRIDE": collector.url},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    # parent: 2 llm + agent tool; child: its own span, 2 llm + glob tool
    assert collector.wait_for(traces=1, spans=7), collector.paths()
    (trace,) = collector.traces()  # one trace: the subagent is not a trace of its own
    spans = by_id(collector.spans())
    assert all(span["trace_id"] == trace["id"] for span in spans.values())
    (agent_call,) = [s for s in spans.values() if s["name"] == "agent"]
    (subagent,) = [s for s in spans.values() if s.get("parent_span_id") == agent_call["id"]]
    assert subagent["name"] == "subagent explore"
    assert subagent["input"] == {"prompt": "Where are the tests?"}
    assert subagent["output"] == {"answer": "tests/test_app.py"}
    under = [s for s in spans.values() if s.get("parent_span_id") == subagent["id"]]
    assert sorted(s["type"] for s in under) == ["llm", "llm", "tool"]
    assert [s["name"] for s in under if s["type"] == "tool"] == ["glob"]
    assert all(s["model"] == child for s in under if s["type"] == "llm")


def test_a_failed_turn_still_ends_its_trace_with_the_error(
    project: Path, decode_cmd: RunDecode, collector: Any
) -> None:
    model = script(project.parent / "turns.json", [{"tool_calls": [{"name": "glob", "args": {"pattern": "*"}}]}])

    done = decode_cmd("run", "--model", model, "go on", cwd=project, env={"OPIK_URL_OVERRIDE": collector.url})

    assert done.returncode != 0
    assert collector.wait_for(traces=1), collector.paths()
    (trace,) = collector.traces()
    assert trace["name"] == "decode_run"
    assert trace.get("output") is None
    assert trace["error_info"]["exception_type"] == "ScriptExhaustedError"


def test_an_unreachable_collector_costs_one_warning_and_the_run_exits_0(project: Path) -> None:
    from tests.integration.observability.conftest import collector_module

    model = script(project.parent / "turns.json", [{"text": "Done."}])
    env = {**os.environ, "OPIK_URL_OVERRIDE": collector_module().closed_url()}
    # A generous bound: without decode's own bounded flush, opik would wait far longer on a gone server.
    done = subprocess.run(
        [DECODE, "run", "--model", model, "x"], cwd=project, env=env, capture_output=True, text=True, timeout=60
    )

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Done.\n"
    warnings = [line for line in done.stderr.splitlines() if "tracing" in line]
    assert len(warnings) == 1, done.stderr
    assert "could not all be sent" in warnings[0]


def test_no_key_reaches_a_trace_or_the_output(project: Path, fresh_decode_cmd: RunDecode, collector: Any) -> None:
    decode_cmd = fresh_decode_cmd  # the command reads decode's environment block: a process started anew
    secrets = {"OPIK_API_KEY": "opik-key-0123456789", "OPENAI_API_KEY": "sk-provider-0123456789"}
    calls = [{"name": "bash", "args": {"command": "env; cat /proc/$PPID/environ | tr '\\0' '\\n'"}}]
    model = script(project.parent / "turns.json", [{"tool_calls": calls}, {"text": "Looked."}])

    done = decode_cmd(
        "run", "--permission-mode", "bypass", "--model", model, "x", cwd=project,
        env={**secrets, "OPIK_URL_OVERRIDE": collector.url},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert collector.wait_for(traces=1, spans=3), collector.paths()
    (bash,) = [span for span in collector.spans() if span["name"] == "bash"]
    assert "PATH=" in bash["output"]["content"]  # the command's environment did reach the trace
    sent = json.dumps([request.body for request in collector.requests], default=str)
    for value in secrets.values():
        assert value not in sent
        assert value not in done.stdout + done.stderr


WATCH_MODULES = """
import runpy, sys
sys.argv = ["decode", *sys.argv[1:]]
try:
    runpy.run_module("decode", run_name="__main__")
except SystemExit as done:
    code = done.code
else:
    code = 0
heavy = sorted({name.split(".")[0] for name in sys.modules} & {"opik", "kitaru", "modal"})
print("HEAVY:" + ",".join(heavy), file=sys.stderr)
tracing = sorted(name for name in sys.modules if name.startswith("decode.observability."))
print("TRACING:" + ",".join(tracing), file=sys.stderr)
sys.exit(code)
"""


def loaded(args: list[str], cwd: Path, env: dict[str, str]) -> tuple[subprocess.CompletedProcess[str], list[str]]:
    done = subprocess.run(
        [sys.executable, "-c", WATCH_MODULES, *args], cwd=cwd, env=env, capture_output=True, text=True, timeout=120
    )
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("HEAVY:")]
    return done, [name for name in line.removeprefix("HEAVY:").split(",") if name]


def test_unconfigured_decode_run_imports_no_opik_kitaru_or_modal(project: Path) -> None:
    model = script(
        project.parent / "turns.json", [{"tool_calls": [{"name": "glob", "args": {"pattern": "*"}}]}, {"text": "ok"}]
    )
    env = {name: value for name, value in os.environ.items() if not name.startswith(("OPIK_", "KITARU_", "MODAL_"))}

    done, heavy = loaded(["run", "--model", model, "x"], project, env)
    assert done.returncode == 0, done.stderr
    assert heavy == []
    done, heavy = loaded(["--version"], project, env)
    assert done.returncode == 0
    assert heavy == []


def test_tracing_off_imports_no_tracing_module_but_its_config(project: Path) -> None:
    """Tracing off costs the run nothing: the observer, the records and the sink stay unimported."""
    model = script(project.parent / "turns.json", [{"text": "ok"}])
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPIK_")}

    done, _ = loaded(["run", "--model", model, "x"], project, env)

    assert done.returncode == 0, done.stderr
    (line,) = [line for line in done.stderr.splitlines() if line.startswith("TRACING:")]
    assert line.removeprefix("TRACING:").split(",") == ["decode.observability.config"]


def test_a_projects_dotenv_cannot_turn_tracing_on(project: Path, collector: Any) -> None:
    (project / ".env").write_text(f"OPIK_URL_OVERRIDE={collector.url}\nOPIK_API_KEY=their-key\n")
    model = script(project.parent / "turns.json", [{"text": "ok"}])
    env = {name: value for name, value in os.environ.items() if not name.startswith("OPIK_")}

    done, heavy = loaded(["run", "--model", model, "x"], project, env)

    assert done.returncode == 0, done.stderr
    assert heavy == []
    assert collector.paths() == []
    assert "ignored OPIK_URL_OVERRIDE from the project's .env" in done.stderr


def test_a_run_on_an_alias_is_traced_with_the_model_it_names(
    project: Path, decode_cmd: RunDecode, collector: Any
) -> None:
    model = script(project.parent / "turns.json", [{"text": "Hi."}])
    aliases = json.dumps({"mine": model})

    done = decode_cmd(
        "run", "--model", "mine", "hi",
        cwd=project, env={"OPIK_URL_OVERRIDE": collector.url, "DECODE_MODEL_ALIASES": aliases},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    assert collector.wait_for(traces=1, spans=1), collector.paths()
    (trace,) = collector.traces()
    assert trace["metadata"]["model"] == model
    [llm] = [span for span in collector.spans() if span["type"] == "llm"]
    assert (llm["model"], llm["provider"]) == (model, "script")
