"""`decode run` as a user runs it: a real process, the scripted model, stdout/stderr/exit codes."""

import json
from pathlib import Path

import pytest

from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration


def write_script(path: Path, responses: list[dict]) -> Path:
    path.write_text(json.dumps(responses))
    return path


def test_scripted_run_prints_the_answer_and_exits_zero(project: Path, decode_cmd: RunDecode) -> None:
    turns = write_script(
        project / "turns.json",
        [{"text": "Looking first.", "tool_calls": [{"name": "missing_tool", "args": {"x": 1}}]}, {"text": "All done."}],
    )
    done = decode_cmd("run", "--model", f"script:{turns}", "do the thing", cwd=project)
    assert done.returncode == 0, done.stderr
    assert done.stdout == "All done.\n"
    assert "Looking first." in done.stderr
    assert "missing_tool" in done.stderr


def test_model_from_environment_and_dotenv(project: Path, decode_cmd: RunDecode) -> None:
    turns = write_script(project / "turns.json", [{"text": "from .env"}])
    (project / ".env").write_text(f"DECODE_MODEL=script:{turns}\n")
    done = decode_cmd("run", "hi", cwd=project)
    assert (done.returncode, done.stdout) == (0, "from .env\n")

    other = write_script(project / "other.json", [{"text": "from the environment"}])
    done = decode_cmd("run", "hi", cwd=project, env={"DECODE_MODEL": f"script:{other}"})
    assert (done.returncode, done.stdout) == (0, "from the environment\n")


def test_missing_key_is_one_line_and_exit_code_2(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("run", "hi", cwd=project)  # the default model is Gemini and no key is set
    assert done.returncode == 2
    assert done.stdout == ""
    assert done.stderr.count("\n") == 1
    assert "GEMINI_API_KEY" in done.stderr


def test_invalid_setting_is_exit_code_2(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("run", "hi", cwd=project, env={"DECODE_MAX_REQUESTS": "many"})
    assert done.returncode == 2
    assert "DECODE_MAX_REQUESTS" in done.stderr


def test_request_ceiling_is_exit_code_3(project: Path, decode_cmd: RunDecode) -> None:
    turns = write_script(project / "turns.json", [{"tool_calls": [{"name": "nope"}]}] * 4)
    done = decode_cmd("run", "--model", f"script:{turns}", "--max-requests", "2", "loop", cwd=project)
    assert done.returncode == 3
    assert done.stdout == ""


def test_exhausted_script_is_exit_code_1(project: Path, decode_cmd: RunDecode) -> None:
    turns = write_script(project / "turns.json", [{"tool_calls": [{"name": "nope"}]}])
    done = decode_cmd("run", "--model", f"script:{turns}", "go", cwd=project)
    assert done.returncode == 1
    assert "turns.json has no response left" in done.stderr


def test_unknown_option_is_exit_code_2(project: Path, decode_cmd: RunDecode) -> None:
    done = decode_cmd("run", "--frobnicate", "go", cwd=project)
    assert done.returncode == 2
    assert "No such option" in done.stderr


def test_escape_sequences_from_files_and_the_model_do_not_reach_the_terminal(
    project: Path, decode_cmd: RunDecode
) -> None:
    clipboard = "\x1b]52;c;cm0gLXJmIH4=\x07"  # OSC 52: would set the clipboard
    (project / "notes.txt").write_text(f"before{clipboard}after\n")
    turns = write_script(
        project / "turns.json",
        [
            {
                "text": "Reading \x1b]0;owned\x07",
                "tool_calls": [{"name": "bash", "args": {"command": "cat notes.txt"}}],
            },
            {"text": f"The file says {clipboard}"},
        ],
    )
    done = decode_cmd("run", "--permission-mode", "bypass", "--model", f"script:{turns}", "show", cwd=project)
    assert done.returncode == 0, done.stderr
    assert "\x1b" not in done.stderr
    assert "\x07" not in done.stderr
    assert "before␛]52;c;cm0gLXJmIH4=␇after" in done.stderr  # shown, not obeyed
    # Piped to a file, the answer has the sequence taken out (`--raw` keeps it: tests/integration/runtime).
    assert done.stdout == "The file says \n"
