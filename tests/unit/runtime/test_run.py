"""`decode run` in-process through click's runner, on the scripted model."""

import json
from pathlib import Path

from click.testing import CliRunner

from decode.runtime.run import EXIT_FAILED, EXIT_OK, EXIT_REQUEST_LIMIT, EXIT_USAGE, run


def script(path: Path, responses: list[dict]) -> str:
    path.write_text(json.dumps(responses))
    return f"script:{path}"


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
    assert "request ceiling (2)" in result.stderr
