"""What pipelines written for `claude -p --output-format stream-json` and `codex exec --json` read
beyond the messages and items: the prompt cache's token counts, a retried request, a subagent's
messages. Run unchanged with `decode` in the tool's place, against a model on a loopback HTTP
server that reports cached tokens, fails and then answers, or runs a subagent."""

import shutil
from pathlib import Path

import pytest

from tests.conftest import source_repository
from tests.integration.headless.conftest import Snippet
from tests.integration.headless.test_other_tools_events import MODEL, served, valid
from tests.integration.providers.fake_servers import Call, Fail, OpenAIServer, Turn

pytestmark = pytest.mark.integration

CACHED = """
claude -p "Read a.txt" --output-format stream-json --verbose --permission-mode acceptEdits > claude.jsonl
jq -c 'select(.type=="assistant") | .message.usage | [.input_tokens, .cache_read_input_tokens]' claude.jsonl | sort -u
tail -n 1 claude.jsonl | jq -c '.usage | [.input_tokens, .cache_read_input_tokens, .cache_creation_input_tokens]'
codex exec --json "Read a.txt" > codex.jsonl
jq -c 'select(.type=="turn.completed") | .usage | [.input_tokens, .cached_input_tokens]' codex.jsonl
"""


def test_cached_tokens_as_each_tool_counts_them(tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer) -> None:
    repo = source_repository(tmp_path)
    turns = (
        Turn(text="Reading.", calls=(Call("read", {"path": "a.txt"}),), input_tokens=100, cached_tokens=0),
        Turn(text="It says a.", input_tokens=150, cached_tokens=96),
    )
    openai_server.plan(*turns, *turns)
    done = snippet(served(openai_server, CACHED), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "[100,0]",  # the first request: nothing cached yet
        "[150,96]",  # the second read 96 of its 150 input tokens from the provider's cache
        "[250,96,0]",  # the run's
        "[250,96]",  # Codex's turn.completed
    ]
    valid(repo / "claude.jsonl", "stream-json")
    valid(repo / "codex.jsonl", "codex-json")


RETRIED = """
claude -p "Say hi" --output-format stream-json --verbose > claude.jsonl
jq -r 'select(.type=="system" and .subtype=="api_retry")
  | "\\(.attempt)/\\(.max_retries) \\(.error_status) \\(.error) \\(.retry_delay_ms)"' claude.jsonl
jq -r 'select(.type=="retry") | "decode: \\(.attempt) \\(.error)"' claude.jsonl
tail -n 1 claude.jsonl | jq -r '"\\(.subtype) \\(.result)"'
codex exec --json "Say hi" > codex.jsonl
jq -r 'select(.type=="error") | .message' codex.jsonl
jq -r 'select(.type=="item.completed") | .item.text' codex.jsonl
jq -r 'select(.type=="turn.completed") | "completed"' codex.jsonl
"""


def test_a_retried_request_as_each_tool_shows_it(tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(Fail(429, message="slow down"), Fail(503), Turn(text="Hi!"))
    openai_server.plan(Fail(500, message="overloaded"), Turn(text="Hi again!"))
    done = snippet(served(openai_server, RETRIED), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert lines[:2] == ["1/3 429 rate_limit 0", "2/3 503 server_error 0"]  # DECODE_RETRY_BASE_DELAY=0
    assert lines[2].startswith("decode: 1 HTTP 429 from local-coder: slow down")  # decode's own retry event
    assert lines[3].startswith("decode: 2 HTTP 503")
    assert lines[4] == "success Hi!"
    assert lines[5] == "Reconnecting... 1/3 (HTTP 500 from local-coder: overloaded)"  # Codex's words for it
    assert lines[6:] == ["Hi again!", "completed"]  # and the turn went on
    valid(repo / "claude.jsonl", "stream-json")
    valid(repo / "codex.jsonl", "codex-json")


SUBAGENT = """
claude -p "Where is a defined?" --output-format stream-json --verbose > events.jsonl
jq -r 'select(.type=="assistant") | .message.content[]
  | "\\(.type) \\(.name // .text)"' events.jsonl
jq -r 'select(.type=="assistant" or .type=="user") | .parent_tool_use_id // "main"' events.jsonl | uniq -c \\
  | awk '{print $1, $2}'
"""


def test_a_subagents_messages_name_the_call_that_runs_it(
    tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer
) -> None:
    repo = source_repository(tmp_path)
    openai_server.plan(
        Turn(calls=(Call("agent", {"prompt": "Find where a is defined", "agent": "explore"}),)),
        Turn(calls=(Call("read", {"path": "a.txt"}),)),  # the subagent's requests
        Turn(text="a.txt:1 holds a."),
        Turn(text="In a.txt."),  # the parent's again
    )
    done = snippet(served(openai_server, SUBAGENT), cwd=repo, model=MODEL)
    assert done.returncode == 0, done.stderr
    blocks, parents = done.stdout.split("tool_use agent\n")[1].split("\n"), None
    assert done.stdout.startswith("tool_use agent\n")
    assert blocks[:3] == ["tool_use read", "text a.txt:1 holds a.", "text In a.txt."]
    parents = blocks[3:-1]
    assert parents == ["1 main", "3 call_0", "2 main"]  # the agent call; the subagent's read, result, text; …
    valid(repo / "events.jsonl", "stream-json")


CODEX_SANDBOXES = """
codex exec -s read-only --json "Note it" > ro.jsonl
jq -r 'select(.type=="item.completed" and .item.type=="file_change") | "read-only: \\(.item.status)"' ro.jsonl
codex exec --sandbox workspace-write --output-format stream-json "Note it" > ww.jsonl
jq -r 'select(.type=="init") | "workspace-write: \\(.permission_mode) \\(.sandbox)"' ww.jsonl
codex exec --sandbox danger-full-access --output-format stream-json "Say hi" > full.jsonl
jq -r 'select(.type=="init") | "danger-full-access: \\(.permission_mode) \\(.sandbox)"' full.jsonl
codex exec -s read-only --permission-mode bypass "Say hi" 2> err.txt || echo "exit $?: $(cat err.txt)"
"""


def test_codexs_sandbox_values_choose_a_mode_and_a_sandbox(
    tmp_path: Path, snippet: Snippet, openai_server: OpenAIServer
) -> None:
    repo = source_repository(tmp_path)
    note = Call("write", {"path": "NOTES.md", "content": "noted\n"})
    openai_server.plan(Turn(calls=(note,)), Turn(text="Could not."), Turn(calls=(note,)), Turn(text="Noted."))
    openai_server.plan(Turn(text="Hi."))
    done = snippet(served(openai_server, CODEX_SANDBOXES), cwd=repo, model=MODEL)
    sandbox = "bwrap" if shutil.which("bwrap") else "none"
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines() == [
        "read-only: failed",  # plan mode: nothing is written
        f"workspace-write: accept-edits {sandbox}",  # its commands in bubblewrap, where it is installed
        "danger-full-access: bypass none",
        "exit 2: Error: --sandbox read-only and --permission-mode bypass disagree",
    ]
    assert (repo / "NOTES.md").read_text() == "noted\n"  # written under workspace-write
