"""`--session-id UUID` and `--fork-session` as Claude Code's scripts use them (ADR-0129): a session
named before it starts and resumed by that name, a used or malformed id refused, a fork that copies
the history and leaves the original's log as it was."""

import json
import subprocess
from collections.abc import Iterator
from pathlib import Path

import pytest

from decode.context.replay import load_session
from tests.conftest import script
from tests.integration.conftest import RunDecode
from tests.integration.headless.conftest import Snippet
from tests.integration.providers.fake_servers import OpenAIServer, Turn

pytestmark = pytest.mark.integration

UUID = "5d3c1b2a-7e6f-4a8b-9c0d-1e2f3a4b5c6d"

UUIDGEN = "#!/bin/sh\ntr a-f A-F < /proc/sys/kernel/random/uuid\n"
"""`uuidgen` as macOS has it (capitals); the test machine has none."""

STEPS = """
id=$(uuidgen)
claude -p --session-id "$id" "step 1: remember 42" --output-format json > one.json
claude -p --resume "$id" "step 2: what was it?" --output-format json > two.json
echo "$id"
jq -r .session_id one.json two.json
jq -r .result two.json
"""


@pytest.fixture
def openai_server() -> Iterator[OpenAIServer]:
    server = OpenAIServer()
    yield server
    server.close()


def _sent(request_json: dict) -> str:
    return json.dumps(request_json["messages"])


def _logs(project: Path) -> list[Path]:
    return sorted((project / ".decode" / "sessions").glob("*.jsonl"))


def test_a_script_names_its_session_with_uuidgen_and_resumes_it(
    tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer
) -> None:
    work = tmp_path / "work"
    work.mkdir()
    openai_server.plan(Turn(text="Noted: 42."), Turn(text="It was 42."))
    (tmp_path / "bin" / "uuidgen").write_text(UUIDGEN)
    (tmp_path / "bin" / "uuidgen").chmod(0o755)
    aim = f"export OPENAI_BASE_URL={openai_server.url}/v1 OPENAI_API_KEY=sk-test\n"

    done = snippet(aim + STEPS.replace("claude ", "decode "), cwd=work, model="openai-compatible:coder")

    assert done.returncode == 0, done.stderr
    given, first, second, answer = done.stdout.splitlines()
    assert given == given.upper()  # the capitals uuidgen printed; the session is named in lower case
    assert first == second == given.lower()
    assert answer == "It was 42."
    [log] = _logs(work)
    assert log.name.endswith(f"_{given.lower()}.jsonl")
    one, two = openai_server.requests
    assert "Noted: 42." not in _sent(one.json())
    assert "step 1: remember 42" in _sent(two.json())  # the first turn: its prompt and its answer
    assert "Noted: 42." in _sent(two.json())


def test_a_used_id_is_refused_before_any_request(project: Path, decode_cmd: RunDecode) -> None:
    model = script(project / "m.json", [{"text": "First."}])
    assert decode_cmd("run", "--model", model, "--session-id", UUID, "one", cwd=project).returncode == 0
    before = _logs(project)[0].read_bytes()

    done = decode_cmd("run", "--model", model, "--session-id", UUID.upper(), "two", cwd=project)

    assert done.returncode == 2, done.stderr
    assert done.stdout == ""
    assert done.stderr == f"decode: error: session id {UUID} is already used (`decode --resume {UUID}` continues it)\n"
    assert [log.read_bytes() for log in _logs(project)] == [before]


@pytest.mark.parametrize("value", ["3f2a9c1b", "not-a-uuid", UUID.replace("-", "")])
def test_a_malformed_id_is_a_usage_error(project: Path, decode_cmd: RunDecode, value: str) -> None:
    done = decode_cmd("run", "--model", "test", "--session-id", value, "hi", cwd=project)

    assert done.returncode == 2
    [error] = [line for line in done.stderr.splitlines() if line.startswith("Error:")]
    assert f"--session-id {value!r} is not a UUID" in error
    assert not (project / ".decode" / "sessions").exists()


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--session-id", UUID, "--resume", "abc"], "with --resume or --continue, add --fork-session"),
        (["--session-id", UUID, "--continue"], "with --resume or --continue, add --fork-session"),
        (["--fork-session"], "--fork-session needs --resume ID or --continue"),
    ],
)
def test_combinations_claude_code_refuses_are_usage_errors(
    project: Path, decode_cmd: RunDecode, args: list[str], problem: str
) -> None:
    done = decode_cmd("run", "--model", "test", *args, "hi", cwd=project)
    assert done.returncode == 2
    assert problem in done.stderr


def _first_session(project: Path, decode_cmd: RunDecode) -> tuple[str, Path, bytes]:
    model = script(project / "m.json", [{"text": "Noted: 42."}])
    done = decode_cmd("run", "--model", model, "remember 42", "--output-format", "json", cwd=project)
    assert done.returncode == 0, done.stderr
    session_id = json.loads(done.stdout)["session_id"]
    [log] = _logs(project)
    return session_id, log, log.read_bytes()


def _events(done: subprocess.CompletedProcess[str]) -> list[dict]:
    return [json.loads(line) for line in done.stdout.splitlines()]


def test_a_fork_goes_on_in_a_new_session_and_leaves_the_original_as_it_was(
    project: Path, decode_cmd: RunDecode
) -> None:
    original_id, original, before = _first_session(project, decode_cmd)

    done = decode_cmd(
        "run", "--resume", original_id, "--fork-session", "what was it?", "--output-format", "stream-json", cwd=project
    )

    assert done.returncode == 0, done.stderr
    events = _events(done)
    init, result = events[0], events[-1]
    assert (init["type"], result["type"]) == ("init", "result")
    forked = init["session_id"]
    assert forked == result["session_id"] != original_id
    assert original.read_bytes() == before
    [log] = [path for path in _logs(project) if path != original]
    assert log.name.endswith(f"_{forked}.jsonl")
    fork = load_session(log)
    assert (fork.turns, fork.header.forked_from) == (2, original_id)
    prompts = [line["prompt"] for line in map(json.loads, log.read_text().splitlines()) if line["type"] == "turn"]
    assert prompts == ["remember 42", "what was it?"]
    assert f"--resume {forked}" in done.stderr


def test_continue_fork_session_takes_the_given_id(project: Path, decode_cmd: RunDecode) -> None:
    original_id, original, before = _first_session(project, decode_cmd)

    done = decode_cmd(
        "run", "--continue", "--fork-session", "--session-id", UUID, "again", "--output-format", "json", cwd=project
    )

    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["session_id"] == UUID
    assert original.read_bytes() == before
    fork = load_session(next(path for path in _logs(project) if path.name.endswith(f"_{UUID}.jsonl")))
    assert (fork.turns, fork.header.forked_from) == (2, original_id)
    again = decode_cmd(
        "run", "--continue", "--fork-session", "--session-id", UUID, "once more", "--output-format", "json", cwd=project
    )
    assert again.returncode == 2  # the id is the fork's now
    assert "is already used" in again.stderr
