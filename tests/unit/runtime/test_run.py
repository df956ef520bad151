"""`decode run` in-process through click's runner, on the scripted model."""

from pathlib import Path

from click.testing import CliRunner

from decode.runtime.exits import EXIT_FAILED, EXIT_OK, EXIT_REQUEST_LIMIT, EXIT_USAGE
from decode.runtime.run import run
from tests.conftest import script


def invoke(*args: str, stdin: str | None = None):
    return CliRunner().invoke(run, list(args), input=stdin)


def test_the_answer_alone_goes_to_stdout(project: Path) -> None:
    model = script(project / "s.json", [{"text": "Thinking aloud.", "tool_calls": [{"name": "nope"}]}, {"text": "42"}])
    result = invoke("--model", model, "what is the answer?")
    assert result.exit_code == EXIT_OK
    assert result.stdout == "42\n"
    assert "Thinking aloud." in result.stderr
    assert "→ nope()" in result.stderr


def test_the_task_can_come_from_stdin(project: Path) -> None:
    model = script(project / "s.json", [{"text": "read it"}])
    result = invoke("--model", model, "-", stdin="a long task\n")
    assert (result.exit_code, result.stdout) == (EXIT_OK, "read it\n")


def test_an_empty_task_is_a_usage_error(project: Path) -> None:
    result = invoke("--model", "test", "   ")
    assert result.exit_code == EXIT_USAGE
    assert "the task is empty" in result.stderr


def test_a_missing_key_fails_before_any_request(project: Path) -> None:
    result = invoke("--model", "google-gla:gemini-flash-latest", "hi")
    assert result.exit_code == EXIT_USAGE
    assert result.stdout == ""
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1
    assert "GEMINI_API_KEY" in lines[0]
    assert str(project / ".env") in lines[0]


def test_a_broken_script_file_is_a_usage_error(project: Path) -> None:
    (project / "bad.json").write_text("{not json")
    result = invoke("--model", f"script:{project / 'bad.json'}", "hi")
    assert result.exit_code == EXIT_USAGE
    assert "bad.json" in result.stderr


def test_an_exhausted_script_fails_the_run_naming_the_file(project: Path) -> None:
    model = script(project / "short.json", [{"tool_calls": [{"name": "nope"}]}])
    result = invoke("--model", model, "hi")
    assert result.exit_code == EXIT_FAILED
    assert "short.json has no response left" in result.stderr
    assert result.stdout == ""


def test_the_request_ceiling_has_its_own_exit_code(project: Path) -> None:
    calls = [{"tool_calls": [{"name": "nope"}]}] * 5
    result = invoke("--model", script(project / "s.json", calls), "--max-requests", "2", "loop")
    assert result.exit_code == EXIT_REQUEST_LIMIT
    assert "request ceiling (2 per turn)" in result.stderr


def sessions(project: Path) -> list[Path]:
    return sorted((project / ".decode/sessions").glob("*.jsonl"))


def test_a_failed_run_is_saved_with_its_partial_turn_and_says_how_to_resume(project: Path) -> None:
    result = invoke("--model", script(project / "short.json", [{"tool_calls": [{"name": "nope"}]}]), "hi")
    assert result.exit_code == EXIT_FAILED
    [log] = sessions(project)
    session_id = log.stem.split("_")[1]
    assert result.stderr.strip().splitlines()[-1] == (
        f"decode: session {session_id} saved (continue it with --resume {session_id})"
    )
    lines = log.read_text().splitlines()
    assert len(lines) == 2  # the header and the partial turn
    assert "the scripted model ran out of responses" in lines[1]

    again = invoke("--resume", session_id, "--model", script(project / "next.json", [{"text": "on it"}]), "go on")
    assert (again.exit_code, again.stdout) == (EXIT_OK, "on it\n")
    assert len(log.read_text().splitlines()) == 3


def test_a_run_at_the_request_ceiling_is_saved(project: Path) -> None:
    calls = [{"tool_calls": [{"name": "nope"}]}] * 5
    result = invoke("--model", script(project / "s.json", calls), "--max-requests", "2", "loop")
    assert result.exit_code == EXIT_REQUEST_LIMIT
    [log] = sessions(project)
    assert "--resume" in result.stderr
    assert "the request ceiling (2 per turn) was reached" in log.read_text()


def test_the_answer_is_printed_when_the_session_cannot_be_saved(project: Path) -> None:
    (project / ".decode").write_text("a file where the Harness Home should be\n")
    result = invoke("--model", script(project / "s.json", [{"text": "42"}]), "what is the answer?")
    assert (result.exit_code, result.stdout) == (EXIT_OK, "42\n")
    assert result.stderr.splitlines() == [
        f"decode: warning: could not save the session: {project / '.decode'} is in the way (it is not a folder)"
    ]


def test_a_task_on_stdin_that_is_not_utf8_is_decoded_with_replacement(project: Path) -> None:
    result = CliRunner().invoke(run, ["--model", script(project / "s.json", [{"text": "ok"}]), "-"], input=b"caf\xe9\n")
    assert (result.exit_code, result.stdout) == (EXIT_OK, "ok\n")
    [warning] = [line for line in result.stderr.splitlines() if "UTF-8" in line]
    assert warning == "decode: warning: the task is not valid UTF-8 (byte 3); undecodable bytes became U+FFFD"
    [log] = sessions(project)
    assert "caf\ufffd" in log.read_text(encoding="utf-8")


def test_refusals_are_answers_but_malformed_calls_still_count_as_retries(project: Path) -> None:
    (project / "notes.md").write_text("not read yet\n")
    refused = [{"tool_calls": [{"name": "write", "args": {"path": "notes.md", "content": "x"}}]}] * 5
    result = invoke(
        "--permission-mode", "bypass", "--model", script(project / "r.json", [*refused, {"text": "ok"}]), "w"
    )
    assert (result.exit_code, result.stdout) == (EXIT_OK, "ok\n")
    assert result.stderr.count("✗ write") == 5

    malformed = [{"tool_calls": [{"name": "read", "args": {"path": "a\u0000b"}}]}] * 5
    result = invoke(
        "--permission-mode", "bypass", "--model", script(project / "m.json", [*malformed, {"text": "ok"}]), "r"
    )
    assert result.exit_code == EXIT_FAILED
    assert "exceeded max retries" in result.stderr


def test_piped_input_goes_with_a_task_given_on_the_command_line(project: Path) -> None:
    result = invoke("--model", script(project / "s.json", [{"text": "looks fine"}]), "review this diff", stdin="+x\n")
    assert (result.exit_code, result.stdout) == (EXIT_OK, "looks fine\n")
    [log] = sessions(project)
    assert "review this diff\\n\\nstdin (3 bytes, 1 line):\\n```\\n+x\\n```" in log.read_text(encoding="utf-8")


def test_binary_stdin_is_a_usage_error_before_any_request(project: Path) -> None:
    result = CliRunner().invoke(run, ["--model", "test", "describe"], input=b"\x89PNG\0")
    assert (result.exit_code, result.stdout) == (EXIT_USAGE, "")
    assert result.stderr == "decode: error: stdin is binary (a NUL byte at offset 4); decode takes text only\n"
