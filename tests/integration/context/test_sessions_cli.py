"""`decode sessions` and `decode run --resume` as a user runs them: real processes, the scripted model."""

import json
import subprocess
from pathlib import Path

import pytest

pytestmark = pytest.mark.integration


def decode_in(project: Path, decode: str, *args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([decode, *args], cwd=project, capture_output=True, text=True, timeout=120)


def script(project: Path, name: str, *answers: str) -> str:
    path = project / name
    path.write_text(json.dumps([{"text": answer} for answer in answers]))
    return f"script:{path}"


def test_runs_are_listed_and_resumed_by_id_prefix(project: Path, decode: str) -> None:
    first = decode_in(project, decode, "run", "--model", script(project, "a.json", "A"), "first task")
    assert first.returncode == 0, first.stderr
    session_id = first.stderr.split("decode: session ")[1].split()[0]
    second = decode_in(project, decode, "run", "--model", script(project, "b.json", "B"), "second task")
    assert second.returncode == 0, second.stderr

    again = decode_in(
        project, decode, "run", "--resume", session_id[:5], "--model", script(project, "c.json", "C"), "more"
    )
    assert (again.returncode, again.stdout) == (0, "C\n")

    listed = [json.loads(line) for line in decode_in(project, decode, "sessions", "--json").stdout.splitlines()]
    assert [(s["id"] == session_id, s["turns"], s["first_prompt"]) for s in listed] == [
        (True, 2, "first task"),  # resumed last, so listed first
        (False, 1, "second task"),
    ]
    table = decode_in(project, decode, "sessions").stdout
    assert session_id in table
    assert "first task" in table


def test_resuming_a_session_that_does_not_exist_is_a_usage_error(project: Path, decode: str) -> None:
    done = decode_in(project, decode, "run", "--resume", "feedbeef", "hello")
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.strip().splitlines() == [
        f"decode: error: no saved sessions in {project / '.decode' / 'sessions'}"
    ]


def test_sessions_is_listed_in_the_help(project: Path, decode: str) -> None:
    done = decode_in(project, decode, "--help")
    assert "sessions" in done.stdout
    assert "--resume" in done.stdout


def test_resuming_keeps_the_permission_mode_unless_told_otherwise(project: Path, decode: str) -> None:
    first = decode_in(
        project, decode, "run", "--permission-mode", "plan", "--model", script(project, "a.json", "A"), "plan it"
    )
    assert first.returncode == 0, first.stderr
    session_id = first.stderr.split("decode: session ")[1].split()[0]

    kept = decode_in(project, decode, "run", "--resume", session_id, "--model", script(project, "b.json", "B"), "go on")
    assert "decode: resuming in permission mode plan" in kept.stderr
    changed = decode_in(
        project,
        decode,
        "run",
        "--resume",
        session_id,
        "--permission-mode",
        "default",
        "--model",
        script(project, "c.json", "C"),
        "now",
    )
    assert "resuming in permission mode" not in changed.stderr
    log = next((project / ".decode" / "sessions").glob(f"*_{session_id}.jsonl"))
    records = [json.loads(line) for line in log.read_text().splitlines()]
    assert records[0]["mode"] == "plan"
    assert [record["mode"] for record in records[1:]] == ["plan", "plan", "default"]
