"""Compaction through the real CLI: a small context window, a scripted summariser on a loopback server.

Each `decode run --resume` is a real process. The model server answers the summarising request
(recognised by its instructions) with a fixed summary, or with an HTTP 500 to play a failing one,
and records what decode sent, so the tests can check the request after a compaction: the summary,
the tail verbatim, every tool call still next to its result.
"""

import json
import subprocess
from pathlib import Path
from typing import Any

import pytest

from decode.context.catalog import find_session
from decode.context.replay import load_session
from decode.context.windows import SUMMARY_MARK
from tests.integration.context.conftest import without_facts
from tests.integration.forkserver import as_text, run_forked

pytestmark = pytest.mark.integration

SUMMARY = "## Goal\nShip the notes.\n## Constraints\nnone\n## Progress\nRead notes.txt.\n## Decisions\nnone\n## Next steps\nShip.\n## Files touched\nnotes.txt"  # noqa: E501
WINDOW = "3000"  # tokens: the first turns below fill it past 80 %


def answer_to(prompt: str) -> str:
    return f"answer to <{prompt[:40]}>"


def is_summary_request(request: dict[str, Any]) -> bool:
    return any("You compact the transcript" in str(message["content"]) for message in request["messages"])


@pytest.fixture
def session_env(project: Path, model_server, user_text):
    """A server that reads notes.txt on "with a tool" turns and summarises on request; `fail_summary` breaks it."""
    (project / "notes.txt").write_text("the notes say: ship it\n" * 200)
    state = {"fail_summary": False}

    def respond(request: dict[str, Any]) -> dict[str, Any]:
        if is_summary_request(request):
            return {"status": 500} if state["fail_summary"] else {"text": SUMMARY}
        prompt = user_text(request)
        if "with a tool" in prompt and without_facts(request["messages"])[-1]["role"] == "user":
            return {"tool": ("read", {"path": "notes.txt"})}
        return {"text": answer_to(prompt)}

    server, env = model_server(respond)
    env["DECODE_CONTEXT_WINDOW"] = WINDOW
    return server, env, state


def run(decode: str, project: Path, env: dict[str, str], *args: str) -> subprocess.CompletedProcess[str]:
    # A process of its own, forked from one that imported the CLI already (tests/integration/forkserver.py).
    return as_text(run_forked([decode, "run", *args], cwd=project, env=env))


def test_past_80_percent_the_next_run_compacts_and_a_resume_continues_from_the_summary(
    project: Path, session_env, decode: str, conversation
) -> None:
    server, env, _ = session_env
    first = run(decode, project, env, "read the notes, with a tool")  # ~1,300 tokens of tool output
    assert first.returncode == 0, first.stderr
    session_id = load_session(find_session(project)).session_id
    long_prompt = "now summarise them " + "please " * 600
    second = run(decode, project, env, "--resume", session_id, long_prompt)
    assert second.returncode == 0, second.stderr
    assert "compacted" not in second.stderr  # below 80 % before this turn: nothing to do yet

    third = run(decode, project, env, "--resume", session_id, "what is next?")
    assert third.returncode == 0, third.stderr
    assert "decode: info: compacted" in third.stderr
    summarising = [request for request in server.requests if is_summary_request(request)]
    assert len(summarising) == 1
    transcript = summarising[0]["messages"][-1]["content"]
    assert "User: read the notes, with a tool" in transcript
    assert "Assistant called read" in transcript

    # The turn after the compaction sent: the summary, the tail verbatim, the new prompt.
    request = server.requests[-1]
    prompts, answers = conversation(request)
    assert prompts[0].startswith("[The earlier conversation")
    assert SUMMARY in prompts[0]
    assert prompts[-1] == "what is next?"
    assert "read the notes, with a tool" not in prompts  # the summarised turn is gone from the request
    assert answers[-1] == answer_to(long_prompt)  # the tail: the last answer, verbatim

    # The log holds the compaction, and a resume continues from it.
    saved = load_session(find_session(project))
    assert SUMMARY_MARK in saved.history[0].metadata
    fourth = run(decode, project, env, "--resume", session_id, "and then?")
    assert fourth.returncode == 0, fourth.stderr
    prompts, _ = conversation(server.requests[-1])
    assert prompts[0].startswith("[The earlier conversation")
    assert prompts[-2:] == ["what is next?", "and then?"]
    records = [json.loads(line)["type"] for line in find_session(project).read_text().splitlines()]
    assert records == ["header", "turn", "turn", "compaction", "turn", "turn"]


def test_a_failing_summariser_leaves_the_history_and_the_turn_still_runs(
    project: Path, session_env, decode: str, conversation
) -> None:
    server, env, state = session_env
    state["fail_summary"] = True
    assert run(decode, project, env, "read the notes, with a tool").returncode == 0
    session_id = load_session(find_session(project)).session_id
    assert run(decode, project, env, "--resume", session_id, "more " * 700).returncode == 0

    done = run(decode, project, env, "--resume", session_id, "still there?")
    assert done.returncode == 0, done.stderr
    assert "decode: warning: compaction failed: the summarising request failed" in done.stderr
    assert "the history is unchanged" in done.stderr
    prompts, _ = conversation(server.requests[-1])
    assert prompts == ["read the notes, with a tool", "more " * 700, "still there?"]
    records = [json.loads(line)["type"] for line in find_session(project).read_text().splitlines()]
    assert "compaction" not in records


def test_an_automatic_compaction_runs_the_precompact_hooks_and_a_block_does_not_stop_it(
    project: Path, session_env, decode: str
) -> None:
    _, env, _ = session_env
    settings = Path.home() / ".claude" / "settings.json"
    settings.parent.mkdir(parents=True)
    hook = 'cat > "$CLAUDE_PROJECT_DIR/precompact.json"; echo "not now" >&2; exit 2'
    entry = {"matcher": "auto", "hooks": [{"type": "command", "command": hook}]}
    settings.write_text(json.dumps({"hooks": {"PreCompact": [entry]}}))
    assert run(decode, project, env, "read the notes, with a tool").returncode == 0
    session_id = load_session(find_session(project)).session_id
    assert run(decode, project, env, "--resume", session_id, "more " * 700).returncode == 0
    assert not (project / "precompact.json").exists()  # no compaction yet, no hook

    done = run(decode, project, env, "--resume", session_id, "still there?")
    assert done.returncode == 0, done.stderr
    heard = json.loads((project / "precompact.json").read_text())
    assert (heard["hook_event_name"], heard["trigger"], heard["custom_instructions"]) == ("PreCompact", "auto", "")
    assert heard["session_id"] == session_id
    assert "a PreCompact hook cannot stop an automatic compaction: not now" in done.stderr
    assert "decode: info: compacted" in done.stderr
