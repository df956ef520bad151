"""Claude Code's and Codex's spellings of decode's options: each means what its writer meant."""

import json
from pathlib import Path

import pytest
from click.testing import CliRunner, Result

from decode.cli import cli, print_mode
from decode.runtime.exits import EXIT_OK, EXIT_REQUEST_LIMIT, EXIT_USAGE
from tests.conftest import script

COMMANDS = {"run", "sessions"}


def decode(*args: str, stdin: str = "") -> Result:
    return CliRunner().invoke(cli, list(args), input=stdin)


def sent(project: Path) -> str:
    """The session log of the one run: what the model was sent."""
    [log] = (project / ".decode" / "sessions").glob("*.jsonl")
    return log.read_text(encoding="utf-8")


def touch(name: str) -> dict:
    return {"tool_calls": [{"name": "bash", "args": {"command": f"touch {name}"}}]}


@pytest.mark.parametrize(
    ("args", "expected"),
    [
        (["-p", "fix it"], ["run", "fix it"]),
        (["--model", "m", "--print", "fix it", "-q"], ["run", "--model", "m", "fix it", "-q"]),
        (["run", "-p"], ["run", "-p"]),  # after the subcommand: its own business
        (["sessions"], ["sessions"]),
        (["fix it", "--", "-p"], ["fix it", "--", "-p"]),  # after `--`: an argument
    ],
)  # fmt: skip
def test_print_mode_is_decode_run(args: list[str], expected: list[str]) -> None:
    assert print_mode(args, COMMANDS) == expected


def test_decode_p_runs_the_task_headless(project: Path) -> None:
    model = script(project / "s.json", [{"text": "42"}])
    result = decode("-p", "what is the answer?", "--model", model, "--output-format", "json")
    assert result.exit_code == EXIT_OK, result.output
    assert json.loads(result.stdout)["result"] == "42"


def test_a_task_where_a_command_goes_says_to_use_decode_run(project: Path) -> None:
    result = decode("fix the bug")
    assert result.exit_code == EXIT_USAGE
    assert "Error: 'fix the bug' is not a command; to run a task: decode run 'fix the bug'" in result.stderr


def test_claude_codes_rule_options_and_modes(project: Path) -> None:
    model = script(project / "s.json", [touch("allowed.txt"), {"text": "done"}])
    result = decode("-p", "go", "--allowedTools", "Read,Bash(touch:*)", "--model", model)
    assert (result.exit_code, (project / "allowed.txt").exists()) == (EXIT_OK, True), result.output

    model = script(project / "d.json", [touch("denied.txt"), {"text": "done"}])
    args = ["--permission-mode", "bypassPermissions", "--disallowedTools", "Bash(touch:*)", "--output-format", "json"]
    result = decode("-p", "go", *args, "--model", model)
    assert (result.exit_code, (project / "denied.txt").exists()) == (EXIT_OK, False), result.output
    [denial] = json.loads(result.stdout)["permission_denials"]
    assert (denial["tool_name"], denial["tool_input"]) == ("bash", {"command": "touch denied.txt"})


@pytest.mark.parametrize("spelling", [["--dangerously-skip-permissions"], ["--permission-mode", "bypassPermissions"]])
def test_skipping_permissions_is_bypass(project: Path, spelling: list[str]) -> None:
    model = script(project / "s.json", [touch("made.txt"), {"text": "done"}])
    result = decode("-p", "go", *spelling, "--model", model)
    assert (result.exit_code, (project / "made.txt").exists()) == (EXIT_OK, True), result.output


def test_accept_edits_lets_an_edit_run_but_not_a_command(project: Path) -> None:
    write = {"tool_calls": [{"name": "write", "args": {"path": "notes.md", "content": "hi\n"}}]}
    model = script(project / "s.json", [write, touch("made.txt"), {"text": "done"}])
    result = decode("-p", "go", "--permission-mode", "acceptEdits", "--model", model)
    assert result.exit_code == EXIT_OK, result.output
    assert ((project / "notes.md").read_text(), (project / "made.txt").exists()) == ("hi\n", False)


def test_opposite_spellings_together_are_a_usage_error(project: Path) -> None:
    result = decode("-p", "go", "--dangerously-skip-permissions", "--permission-mode", "plan", "--model", "test")
    assert result.exit_code == EXIT_USAGE
    assert "--dangerously-skip-permissions and --permission-mode disagree" in result.stderr


def test_max_turns_is_the_request_ceiling(project: Path) -> None:
    model = script(project / "s.json", [touch("a"), touch("b"), {"text": "done"}])
    result = decode("-p", "go", "--max-turns", "1", "--output-format", "json", "--model", model)
    assert result.exit_code == EXIT_REQUEST_LIMIT
    assert json.loads(result.stdout)["subtype"] == "error_max_turns"


def test_system_prompt_replaces_the_agents_instructions(project: Path) -> None:
    model = script(project / "s.json", [{"text": "Arr."}])
    result = decode(
        "-p", "go", "--system-prompt", "You are a pirate.", "--append-system-prompt", "Be brief.", "--model", model
    )
    assert result.exit_code == EXIT_OK, result.output
    log = sent(project)
    assert ("You are a pirate." in log, "Be brief." in log) == (True, True)
    assert "You are decode" not in log  # decode's own instructions are gone


def test_continue_resume_and_cd_have_their_short_names(project: Path, tmp_path: Path) -> None:
    first = decode("-p", "one", "--output-format", "json", "--model", script(project / "1.json", [{"text": "1"}]))
    session = json.loads(first.stdout)["session_id"]
    again = decode("-p", "two", "-c", "--output-format", "json", "--model", script(project / "2.json", [{"text": "2"}]))
    assert json.loads(again.stdout)["session_id"] == session
    short = decode(
        "-p",
        "three",
        "-r",
        session[:4],
        "--output-format",
        "json",
        "--model",
        script(project / "3.json", [{"text": "3"}]),
    )
    assert json.loads(short.stdout)["session_id"] == session
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    moved = decode("-p", "four", "-C", str(elsewhere), "--model", script(project / "4.json", [{"text": "4"}]))
    assert moved.exit_code == EXIT_OK, moved.output
    assert list((elsewhere / ".decode" / "sessions").glob("*.jsonl"))


def test_output_last_message_and_the_accepted_flags(project: Path) -> None:
    model = script(project / "s.json", [{"text": "The answer."}])
    result = decode("-p", "go", "-o", "out/last.md", "--verbose", "--skip-git-repo-check", "--model", model)
    assert (result.exit_code, result.stdout) == (EXIT_OK, "The answer.\n")
    assert (project / "out" / "last.md").read_text() == "The answer.\n"


def test_no_session_persistence_writes_nothing(project: Path) -> None:
    model = script(project / "s.json", [{"text": "done"}])
    result = decode("-p", "go", "--no-session-persistence", "--output-format", "json", "--model", model)
    assert result.exit_code == EXIT_OK, result.output
    assert json.loads(result.stdout)["session_id"]  # still a session, with an id
    assert not (project / ".decode" / "sessions").exists()
    assert "saved" not in result.stderr

    kept = decode("-p", "go", "--output-format", "json", "--model", model)
    session = json.loads(kept.stdout)["session_id"]
    log = next((project / ".decode" / "sessions").glob(f"*_{session}.jsonl"))
    before = log.read_text()
    again = decode("-p", "more", "-r", session, "--no-session-persistence", "--model", model)
    assert again.exit_code == EXIT_OK, again.output
    assert log.read_text() == before  # resumed, nothing appended


def test_full_auto_is_accept_edits_and_json_codexs_events(project: Path) -> None:
    write = {"tool_calls": [{"name": "write", "args": {"path": "notes.md", "content": "hi\n"}}]}
    model = script(project / "s.json", [write, touch("made.txt"), {"text": "ok"}])
    result = decode("run", "--full-auto", "--json", "--model", model, "go")
    assert result.exit_code == EXIT_OK, result.output
    assert ((project / "notes.md").read_text(), (project / "made.txt").exists()) == ("hi\n", False)
    lines = [json.loads(line) for line in result.stdout.splitlines()]
    assert (lines[0]["type"], lines[-1]["type"]) == ("thread.started", "turn.completed")
    assert all(not line["type"].startswith(("init", "result")) for line in lines)  # Codex's events alone


@pytest.mark.parametrize(
    ("args", "problem"),
    [
        (["--full-auto", "--permission-mode", "plan"], "--full-auto and --permission-mode disagree"),
        (["--json", "--output-format", "stream-json"], "--json (Codex's events) and --output-format"),
    ],
)
def test_codexs_spellings_beside_a_contradicting_option_are_a_usage_error(args: list[str], problem: str) -> None:
    result = decode("run", *args, "--model", "test", "go")
    assert result.exit_code == EXIT_USAGE
    assert problem in result.stderr
