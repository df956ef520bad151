"""`--output-format json|stream-json` as a script reads them: real runs, every line schema-checked."""

import json
import os
import signal
import subprocess
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import git, script, source_repository
from tests.integration.conftest import DECODE, bash
from tests.integration.runtime.conftest import RESULT_KEYS, Headless, events

pytestmark = pytest.mark.integration

EVERY_TYPE = {"init", "text", "tool_call", "tool_result", "usage", "notice", "todos", "subagent", "result"} | {
    "system", "assistant", "user"  # Claude Code's messages, beside decode's own events (ADR-0136)
}  # fmt: skip
STEPS = [{"content": "look around", "status": "in_progress"}, {"content": "report", "status": "pending"}]


def test_stream_json_emits_every_event_type_each_line_valid(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    explore = {"name": "agent", "args": {"prompt": "What is here?", "agent": "explore", "description": "look"}}
    parent = script(
        project.parent / "parent.json",
        [
            {"text": "Planning first.", "tool_calls": [{"name": "todo_write", "args": {"todos": STEPS}}]},
            {"tool_calls": [explore]},
            bash("echo from-bash"),
            {"text": "All looked at."},
        ],
    )
    child = script(project.parent / "child.json", [{"text": "Nothing much: an empty project."}])
    (project / ".decode").mkdir()
    (project / ".decode" / "sessions").write_text("not a folder\n")  # the session cannot be saved: a notice
    done = headless(
        "--output-format", "stream-json", "--permission-mode", "bypass", "--model", parent, "look",
        cwd=project, env={"DECODE_SUBAGENT_MODEL": child},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    lines = events(done.stdout, validator)
    assert {line["type"] for line in lines} == EVERY_TYPE
    assert (lines[0]["type"], lines[-1]["type"]) == ("init", "result")
    init, result = lines[0], lines[-1]
    assert (init["cwd"], init["permission_mode"], init["agent"]) == (str(project), "bypass", "build")
    assert "bash" in init["tools"]
    assert (result["result"], result["exit_code"], result["error"]) == ("All looked at.", 0, None)
    assert set(result) == RESULT_KEYS
    texts = [line["text"] for line in lines if line["type"] == "text"]
    assert texts == ["Planning first.", "All looked at."]  # coalesced: one event per stretch of text
    bash_result = next(line for line in lines if line["type"] == "tool_result" and line["name"] == "bash")
    call = next(line for line in lines if line["type"] == "tool_call" and line["id"] == bash_result["id"])
    assert call["args"] == {"command": "echo from-bash"}
    assert "from-bash" in bash_result["content"]
    assert [line["todos"] for line in lines if line["type"] == "todos"] == [STEPS]
    states = [line["state"] for line in lines if line["type"] == "subagent"]
    assert (states[0], states[-1]) == ("running", "finished")
    usage = [line for line in lines if line["type"] == "usage"]
    assert usage[-1]["total"]["requests"] == result["num_requests"] == 5  # four of its own, one of the subagent
    assert any("could not save the session" in line["message"] for line in lines if line["type"] == "notice")
    assert "→ bash(echo from-bash)" in done.stderr  # progress stays on stderr


def test_json_is_one_object_with_every_key(project: Path, headless: Headless, validator: Draft202012Validator) -> None:
    model = script(project.parent / "s.json", [bash("echo hi"), {"text": "The answer."}])
    done = headless("--output-format", "json", "--permission-mode", "bypass", "--model", model, "go", cwd=project)

    assert done.returncode == 0, done.stderr
    (result,) = events(json.dumps(json.loads(done.stdout)), validator)  # the whole stdout is one object
    assert set(result) == RESULT_KEYS
    assert (result["result"], result["is_error"], result["num_requests"]) == ("The answer.", False, 2)
    assert result["usage"]["total_tokens"] == result["usage"]["input_tokens"] + result["usage"]["output_tokens"] > 0
    assert (project / ".decode" / "sessions").glob(f"*_{result['session_id']}.jsonl")
    assert "→ bash(echo hi)" in done.stderr


@pytest.mark.parametrize("output_format", ["json", "stream-json"])
def test_a_failed_run_still_ends_with_its_result(
    output_format: str, project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    model = script(project.parent / "s.json", [bash("true")])  # then the script runs out
    done = headless(
        "--output-format", output_format, "--permission-mode", "bypass", "--model", model, "go", cwd=project
    )

    assert done.returncode == 1
    text = json.dumps(json.loads(done.stdout)) if output_format == "json" else done.stdout
    result = events(text, validator)[-1]
    assert (result["type"], result["is_error"], result["exit_code"], result["result"]) == ("result", True, 1, "")
    assert "script" in result["error"]
    assert result["session_id"]


def test_the_request_ceiling_is_exit_3_in_the_result(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    model = script(project.parent / "s.json", [bash("true")] * 4)
    done = headless(
        "--output-format", "json", "--permission-mode", "bypass", "--max-requests", "2", "--model", model, "go",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 3
    result = json.loads(done.stdout)
    assert (result["exit_code"], result["num_requests"]) == (3, 2)
    assert "request ceiling (2 per turn)" in result["error"]


def test_a_configuration_error_is_exit_2_with_a_result(project: Path, headless: Headless) -> None:
    done = headless("--output-format", "json", "--agent", "nope", "--model", "test", "go", cwd=project)
    assert done.returncode == 2
    result = json.loads(done.stdout)
    assert (result["exit_code"], result["session_id"]) == (2, "")
    assert "no agent named 'nope'" in result["error"]


def test_a_bad_option_is_exit_2_and_no_json(project: Path, headless: Headless) -> None:
    done = headless("--output-format", "xml", "go", cwd=project)
    assert (done.returncode, done.stdout) == (2, "")
    assert "'xml' is not one of 'text', 'json', 'stream-json'" in done.stderr


def test_sigterm_ends_the_stream_with_its_result(project: Path, validator: Draft202012Validator) -> None:
    model = script(project.parent / "s.json", [{"text": "thinking", "delay_s": 60}])
    process = subprocess.Popen(
        [DECODE, "run", "--output-format", "stream-json", "--model", model, "go"],
        cwd=project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    try:
        assert process.stdout is not None
        first = json.loads(process.stdout.readline())  # the run has started once `init` is out
        assert first["type"] == "init"
        process.send_signal(signal.SIGTERM)
        out, err = process.communicate(timeout=60)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    assert process.returncode == 128 + signal.SIGTERM, err
    result = events(out, validator)[-1]
    assert (result["type"], result["exit_code"], result["error"]) == ("result", 143, "stopped by SIGTERM")
    assert result["session_id"] == first["session_id"]


def test_stream_json_lines_arrive_as_they_happen(project: Path) -> None:
    """Each line is flushed: `init` can be read while the model is still thinking."""
    model = script(project.parent / "s.json", [{"text": "slow", "delay_s": 30}])
    process = subprocess.Popen(
        [DECODE, "run", "--output-format", "stream-json", "--model", model, "go"],
        cwd=project,
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        stderr=subprocess.DEVNULL,
        text=True,
    )
    try:
        assert process.stdout is not None
        assert json.loads(process.stdout.readline())["type"] == "init"
        assert process.poll() is None  # still running: the line was not held back until the end
    finally:
        os.kill(process.pid, signal.SIGTERM)
        process.communicate(timeout=60)


def test_a_reader_that_goes_away_does_not_crash_the_run(project: Path) -> None:
    """`decode run --output-format stream-json … | head -1`: the run goes on, saves its session, exits 0."""
    model = script(project.parent / "s.json", [bash("seq 1 3"), bash("seq 1 3"), {"text": "done"}])
    command = f"{DECODE} run --output-format stream-json --permission-mode bypass --model {model} go | head -1"
    done = subprocess.run(
        ["bash", "-o", "pipefail", "-c", command], cwd=project, capture_output=True, text=True, timeout=120
    )
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["type"] == "init"
    assert "Traceback" not in done.stderr
    assert "BrokenPipe" not in done.stderr
    assert "saved" in done.stderr


def test_a_repo_run_reports_its_hand_back(tmp_path: Path, project: Path, headless: Headless) -> None:
    source = source_repository(tmp_path)
    write = {"name": "write", "args": {"path": "new.txt", "content": "work\n"}}
    model = script(tmp_path / "s.json", [{"tool_calls": [write]}, {"text": "done"}])
    done = headless(
        "--output-format", "json", "--repo", str(source), "--permission-mode", "bypass", "--model", model, "go",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    result = json.loads(done.stdout)
    branch = f"decode/{result['session_id']}"
    assert result["handback"] == {"branch": branch, "outcome": "shipped", "commits": 1, "files": 1}
    assert git(source, "show", f"{branch}:new.txt") == "work"
