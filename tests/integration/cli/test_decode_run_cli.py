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
