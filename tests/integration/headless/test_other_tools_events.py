"""Pipelines written for `claude -p --output-format stream-json` and `codex exec --json`, run
unchanged with `decode` in their place against a model on a loopback HTTP server: each prints what
the other tool would, for the model's words, its tool calls, a failing command, a refused call and
a model that fails. Every line is checked against decode's schema for the format."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import source_repository
from tests.integration.headless.conftest import Snippet
from tests.integration.headless.test_ci_snippets import as_decode
from tests.integration.providers.conftest import SECRET
from tests.integration.providers.fake_servers import Call, Fail, OpenAIServer, Turn

pytestmark = pytest.mark.integration

SCHEMAS = Path(__file__).parents[3] / "docs" / "schemas"
MODEL = "openai-compatible:local-coder"


def served(server: OpenAIServer, snippet: str) -> str:
    """The snippet with the loopback server as the model's endpoint, and decode in the tool's place."""
    env = f"export OPENAI_BASE_URL={server.url}/v1 OPENAI_API_KEY={SECRET} DECODE_RETRY_BASE_DELAY=0\n"
    return env + as_decode(snippet)


def valid(path: Path, schema: str) -> list[dict]:
    """The lines of a JSONL file, each valid against `docs/schemas/<schema>.schema.json`."""
    validator = Draft202012Validator(json.loads((SCHEMAS / f"{schema}.schema.json").read_text()))
    lines = [json.loads(line) for line in path.read_text().splitlines()]
    for line in lines:
        validator.validate(line)
    return lines


WORK = (
    Turn(text="Running the tests.", calls=(Call("bash", {"command": "echo ran; exit 1"}),)),
    Turn(calls=(Call("bash", {"command": "rm -rf build"}),)),
    Turn(text="The tests fail; I did not delete build."),
)

CLAUDE_TEXT = """
claude -p "Run the tests" --output-format stream-json --verbose --disallowedTools "Bash(rm:*)" \\
  --permission-mode bypassPermissions > events.jsonl
jq -r 'select(.type=="assistant") | .message.content[] | select(.type=="text") | .text' events.jsonl
jq -r 'select(.type=="assistant") | .message.content[] | select(.type=="tool_use") | "\\(.name): \\(.input.command)"' \\
  events.jsonl
jq -c 'select(.type=="user") | .message.content[] | select(.type=="tool_result") | .is_error' events.jsonl
jq -r 'select(.type=="system" and .subtype=="init") | .permissionMode' events.jsonl
tail -n 1 events.jsonl | jq -r '"\\(.subtype) \\(.num_turns) \\(.permission_denials[0].tool_input.command)"'
"""


def test_a_claude_stream_json_pipeline(tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(*WORK)
    done = snippet(served(openai_server, CLAUDE_TEXT), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Running the tests.",
        "The tests fail; I did not delete build.",
        "bash: echo ran; exit 1",
        "bash: rm -rf build",
        "true",  # the command exited 1
        "true",  # the deny rule refused it
        "bypassPermissions",
        "success 3 rm -rf build",
    ]
    lines = valid(repo / "events.jsonl", "stream-json")
    ids = {line["session_id"] for line in lines if line["type"] in ("system", "assistant", "user", "result")}
    assert len(ids) == 1  # one session, named on every message
    assert "tool_call" in {line["type"] for line in lines}  # decode's own events are still there


CODEX_ITEMS = """
codex exec --json --full-auto "Run the tests and note it in NOTES.md" > events.jsonl
jq -r 'select(.type=="item.completed" and .item.type=="agent_message") | .item.text' events.jsonl
jq -r 'select(.type=="item.completed" and .item.type=="command_execution")
  | "\\(.item.status) \\(.item.exit_code) \\(.item.command)"' events.jsonl
jq -r 'select(.type=="item.completed" and .item.type=="file_change") | .item.changes[] | "\\(.kind) \\(.path)"' \\
  events.jsonl
jq -c 'select(.type=="turn.completed") | .usage | keys' events.jsonl
echo "thread $(head -n 1 events.jsonl | jq -r 'select(.type=="thread.started") | .thread_id' | wc -c)"
"""


def test_a_codex_json_pipeline(tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(
        Turn(text="Running the tests.", calls=(Call("bash", {"command": "pytest -q"}),)),
        Turn(calls=(Call("write", {"path": "NOTES.md", "content": "tests: not run\n"}),)),
        Turn(text="Noted in NOTES.md."),
    )
    done = snippet(served(openai_server, CODEX_ITEMS), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "Running the tests.",
        "Noted in NOTES.md.",
        "declined null pytest -q",  # --full-auto is accept-edits: a command needs an allow rule
        "add NOTES.md",
        '["cached_input_tokens","input_tokens","output_tokens"]',
        "thread 9",  # eight hex digits and a newline
    ]
    assert (repo / "NOTES.md").read_text() == "tests: not run\n"
    lines = valid(repo / "events.jsonl", "codex-json")
    assert [line["type"] for line in lines][:2] == ["thread.started", "turn.started"]


CODEX_FAILED_COMMAND = """
codex exec --json --dangerously-skip-permissions --disallowedTools "Bash(rm:*)" "Run the tests" > events.jsonl
jq -r 'select(.type=="item.completed" and .item.type=="command_execution")
  | "\\(.item.status) \\(.item.exit_code) \\(.item.aggregated_output | split("\\n")[0])"' events.jsonl
"""


def test_a_failing_command_in_codex_events(tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(*WORK)
    done = snippet(served(openai_server, CODEX_FAILED_COMMAND), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    failed, declined = done.stdout.splitlines()
    assert failed == "failed 1 ran"  # the command ran and exited 1
    assert declined.startswith("declined null Permission denied: rm -rf build")  # the deny rule refused it


MODEL_FAILS = """
if ! codex exec --json "Say hi" > codex.jsonl; then
  jq -r 'select(.type=="turn.failed") | "codex: \\(.error.message)"' codex.jsonl
fi
if ! claude -p "Say hi" --output-format stream-json --verbose > claude.jsonl; then
  jq -r 'select(.type=="assistant") | .message.content[] | select(.type=="text") | "claude: \\(.text)"' claude.jsonl
  tail -n 1 claude.jsonl | jq -r '"\\(.is_error) \\(.subtype)"'
fi
"""


def test_a_model_that_fails_as_each_tool_shows_it(
    tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer
) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(*[Fail(401, message="invalid api key")] * 2)
    done = snippet(served(openai_server, MODEL_FAILS), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    codex, claude, result = done.stdout.splitlines()
    assert codex.startswith("codex: ")
    assert "401" in codex
    assert claude.startswith("claude: ")
    assert "401" in claude
    assert result == "true error_during_execution"
    assert SECRET not in done.stdout
    valid(repo / "codex.jsonl", "codex-json")
    valid(repo / "claude.jsonl", "stream-json")
