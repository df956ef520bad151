"""`decode sessions` through click's runner, on sessions saved in a real project directory."""

import json
from datetime import UTC, datetime, timedelta
from pathlib import Path

from click.testing import CliRunner
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, UserPromptPart

from decode.commands.sessions import sessions, when
from decode.context.session_log import SessionLog
from decode.entities.usage import Usage


def turn(prompt: str, answer: str) -> list[ModelMessage]:
    return [ModelRequest(parts=[UserPromptPart(prompt)]), ModelResponse(parts=[TextPart(answer)])]


def test_with_no_sessions_it_says_how_to_start_one(project: Path) -> None:
    result = CliRunner().invoke(sessions, [])
    assert result.exit_code == 0
    assert "No saved sessions in this directory yet" in result.stdout


def test_the_table_shows_id_turns_tokens_and_first_prompt(project: Path) -> None:
    log = SessionLog.new(project, model="script:s.json")
    log.append_turn(turn("fix the flaky test", "done"), Usage(input_tokens=1200, output_tokens=34), model="m")
    result = CliRunner().invoke(sessions, [])
    assert result.exit_code == 0
    row = next(line for line in result.stdout.splitlines() if line.startswith(log.session_id))
    assert row.split()[1:] == ["just", "now", "1", "1,234", "fix", "the", "flaky", "test"]
    assert "--resume ID" in result.stdout


def test_json_lines_for_scripts(project: Path) -> None:
    log = SessionLog.new(project, model="script:s.json")
    log.append_turn(turn("hello", "hi"), Usage(input_tokens=10, output_tokens=2), model="script:s.json")
    result = CliRunner().invoke(sessions, ["--json"])
    (record,) = [json.loads(line) for line in result.stdout.splitlines()]
    assert (record["id"], record["turns"], record["tokens"], record["first_prompt"]) == (log.session_id, 1, 12, "hello")


def test_when_reads_like_a_person_says_it() -> None:
    now = datetime(2026, 1, 2, 12, 0, tzinfo=UTC)
    assert when(now - timedelta(seconds=5), now) == "just now"
    assert when(now - timedelta(minutes=7), now) == "7 min ago"
    assert when(now - timedelta(hours=3), now) == "3 h ago"
    assert when(now - timedelta(days=3), now) == "2025-12-30 12:00 UTC"


def test_a_long_prompt_is_cut_to_the_terminal_never_the_id(project: Path) -> None:
    log = SessionLog.new(project, model="script:s.json")
    long_prompt = "please look at the failing build and " * 10
    log.append_turn(turn(long_prompt, "done"), Usage(input_tokens=1200, output_tokens=34), model="m")
    bang = SessionLog.new(project, model="script:s.json")
    bang.append_turn(
        turn("<bash-input>git status</bash-input>\n<bash-output>\n</bash-output>", "ok"), Usage(), model="m"
    )
    result = CliRunner().invoke(sessions, [], env={"COLUMNS": "60"})
    rows = result.stdout.splitlines()
    assert rows[0].split() == ["id", "when", "turns", "tokens", "first", "prompt"]
    row = next(line for line in rows if line.startswith(log.session_id))  # the id first, whole
    assert len(row.rstrip()) <= 60
    assert row.rstrip().endswith("…")
    assert row.split()[1:5] == ["just", "now", "1", "1,234"]  # then the date
    assert next(line for line in rows if line.startswith(bang.session_id)).rstrip().endswith("!git status")
