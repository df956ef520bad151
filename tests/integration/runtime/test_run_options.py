"""The options scripts and CI give `decode run`: session rules, --cwd, --continue, --summary-json, -q, stdin."""

import json
from pathlib import Path

import pytest
from jsonschema import Draft202012Validator

from tests.conftest import script
from tests.integration.conftest import bash
from tests.integration.runtime.conftest import RESULT_KEYS, Headless, events

pytestmark = pytest.mark.integration


def tool_results(stdout: str, validator: Draft202012Validator) -> list[dict]:
    return [line for line in events(stdout, validator) if line["type"] == "tool_result"]


def test_an_allow_rule_lets_a_command_run_that_headless_would_refuse(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    model = script(project.parent / "s.json", [bash("touch made.txt"), {"text": "done"}])
    refused = headless("--output-format", "stream-json", "--model", model, "go", cwd=project)
    assert refused.returncode == 0, refused.stderr
    (result,) = tool_results(refused.stdout, validator)
    assert result["is_error"]
    assert not (project / "made.txt").exists()

    allowed = headless(
        "--output-format", "stream-json", "--allowed-tools", "Read, Bash(touch:*)", "--model", model, "go", cwd=project
    )  # fmt: skip
    assert allowed.returncode == 0, allowed.stderr
    (result,) = tool_results(allowed.stdout, validator)
    assert not result["is_error"], result
    assert (project / "made.txt").exists()


def test_a_deny_rule_wins_even_in_bypass_and_the_model_is_told(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    model = script(project.parent / "s.json", [bash("touch made.txt"), {"text": "could not"}])
    done = headless(
        "--output-format", "stream-json", "--permission-mode", "bypass",
        "--allowed-tools", "Bash", "--disallowed-tools", "Bash(touch:*)", "--model", model, "go",
        cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    (result,) = tool_results(done.stdout, validator)
    assert result["is_error"]
    assert "Permission denied" in result["content"]
    assert "Bash(touch:*)" in result["content"]
    assert not (project / "made.txt").exists()
    log = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "Permission denied" in log  # what the model was sent back


def test_a_deny_rule_is_not_dodged_by_rewriting_the_command(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    dodges = ["true && touch made.txt", "sh -c 'touch made.txt'", "$(echo touch) made.txt",
              "/usr/bin/touch made.txt", "TOUCH=1 touch made.txt", "command touch made.txt"]  # fmt: skip
    calls = [{"name": "bash", "args": {"command": command}} for command in dodges]
    model = script(project.parent / "s.json", [{"tool_calls": calls}, {"text": "could not"}])
    done = headless(
        "--output-format", "stream-json", "--permission-mode", "bypass", "--disallowed-tools", "Bash(touch:*)",
        "--model", model, "go", cwd=project,
    )  # fmt: skip
    assert done.returncode == 0, done.stderr
    results = tool_results(done.stdout, validator)
    assert len(results) == len(dodges)
    assert all(result["is_error"] for result in results), [r["content"] for r in results if not r["is_error"]]
    assert not (project / "made.txt").exists()


@pytest.mark.parametrize("rule", ["Bash(git diff:*", "Bаsh", "WebFetch(domain:)"])
def test_a_malformed_rule_is_a_usage_error_before_anything_runs(project: Path, headless: Headless, rule: str) -> None:
    model = script(project.parent / "s.json", [{"text": "never"}])
    done = headless("--allowed-tools", rule, "--model", model, "go", cwd=project)
    assert (done.returncode, done.stdout) == (2, "")
    assert "rule" in done.stderr
    assert not (project / ".decode" / "sessions").exists()  # no session was started


def test_cwd_runs_as_if_launched_there(tmp_path: Path, project: Path, headless: Headless) -> None:
    elsewhere = tmp_path / "elsewhere"
    elsewhere.mkdir()
    (project / "notes.txt").write_text("in the project\n")
    model = script(
        tmp_path / "s.json", [{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}, {"text": "ok"}]
    )
    done = headless("--cwd", str(project), "--output-format", "stream-json", "--model", model, "go", cwd=elsewhere)
    assert done.returncode == 0, done.stderr
    lines = [json.loads(line) for line in done.stdout.splitlines()]
    assert lines[0]["cwd"] == str(project)
    assert "in the project" in next(line for line in lines if line["type"] == "tool_result")["content"]
    assert list((project / ".decode" / "sessions").glob("*.jsonl"))
    assert not (elsewhere / ".decode").exists()

    missing = headless("--cwd", str(tmp_path / "nope"), "go", cwd=elsewhere)
    assert missing.returncode == 2
    assert "does not exist" in missing.stderr


def test_continue_picks_the_newest_session(project: Path, headless: Headless) -> None:
    ids = []
    for answer in ("first", "second"):
        model = script(project.parent / f"{answer}.json", [{"text": answer}])
        done = headless("--output-format", "json", "--model", model, answer, cwd=project)
        ids.append(json.loads(done.stdout)["session_id"])
    model = script(project.parent / "third.json", [{"text": "third"}])
    done = headless("--continue", "--output-format", "json", "--model", model, "and now?", cwd=project)
    assert done.returncode == 0, done.stderr
    assert json.loads(done.stdout)["session_id"] == ids[1]

    both = headless("--continue", "--resume", ids[0], "--model", model, "x", cwd=project)
    assert both.returncode == 2
    assert "--continue and --resume" in both.stderr


def test_continue_with_no_session_is_a_usage_error(project: Path, headless: Headless) -> None:
    done = headless("--continue", "--output-format", "json", "--model", "test", "x", cwd=project)
    assert done.returncode == 2
    assert json.loads(done.stdout)["is_error"]


def test_summary_json_is_written_whatever_the_format(
    project: Path, headless: Headless, validator: Draft202012Validator
) -> None:
    model = script(project.parent / "s.json", [{"text": "The answer."}])
    summary = project / "out" / "summary.json"
    done = headless("--summary-json", str(summary), "--model", model, "go", cwd=project)
    assert (done.returncode, done.stdout) == (0, "The answer.\n")  # text stays text
    (written,) = events(json.dumps(json.loads(summary.read_text())), validator)
    assert set(written) == RESULT_KEYS
    assert (written["result"], written["exit_code"]) == ("The answer.", 0)


def test_an_unwritable_summary_path_warns_and_keeps_the_exit_code(project: Path, headless: Headless) -> None:
    (project / "afile").write_text("a file, not a folder\n")
    model = script(project.parent / "s.json", [{"text": "The answer."}])
    done = headless("--summary-json", str(project / "afile" / "summary.json"), "--model", model, "go", cwd=project)
    assert (done.returncode, done.stdout) == (0, "The answer.\n")
    assert "decode: warning: could not write the summary" in done.stderr

    failed = headless(
        "--summary-json", str(project / "afile" / "s.json"), "--model", "test", "--agent", "x", "go", cwd=project
    )
    assert failed.returncode == 2


def test_quiet_leaves_stderr_empty_but_for_errors(project: Path, headless: Headless) -> None:
    model = script(project.parent / "s.json", [bash("echo hi"), {"text": "done"}])
    done = headless("-q", "--permission-mode", "bypass", "--model", model, "go", cwd=project)
    assert (done.returncode, done.stdout, done.stderr) == (0, "done\n", "")

    exhausted = script(project.parent / "e.json", [bash("echo hi")])
    failed = headless("-q", "--permission-mode", "bypass", "--model", exhausted, "go", cwd=project)
    assert failed.returncode == 1
    assert failed.stderr.startswith("decode: error: ")
    assert "→" not in failed.stderr


def test_the_task_comes_from_stdin_without_an_argument(project: Path, headless: Headless) -> None:
    model = script(project.parent / "s.json", [{"text": "read it"}])
    done = headless("--output-format", "json", "--model", model, cwd=project, stdin="the task, piped\n")
    assert done.returncode == 0, done.stderr
    log = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "the task, piped" in log

    empty = headless("--output-format", "json", "--model", model, cwd=project, stdin="")
    assert empty.returncode == 2
    assert json.loads(empty.stdout)["error"] == "the task is empty"


def test_a_task_that_is_not_utf8_is_replaced_and_the_user_told(project: Path, headless: Headless) -> None:
    model = script(project.parent / "s.json", [{"text": "ok"}])
    done = headless("--model", model, "-", cwd=project, stdin="caf\xe9 au lait".encode("latin-1"))
    assert (done.returncode, done.stdout) == (0, "ok\n")
    assert "not valid UTF-8 (byte 3)" in done.stderr
    assert "caf\ufffd au lait" in next((project / ".decode" / "sessions").glob("*.jsonl")).read_text("utf-8")


def test_append_system_prompt_reaches_the_instructions(project: Path, headless: Headless) -> None:
    model = script(project.parent / "s.json", [{"text": "ok"}])
    done = headless("--append-system-prompt", "Answer like a pirate.", "--model", model, "go", cwd=project)
    assert done.returncode == 0, done.stderr
    log = next((project / ".decode" / "sessions").glob("*.jsonl")).read_text()
    assert "Answer like a pirate." in log  # in the request's instructions, as the model was sent them
