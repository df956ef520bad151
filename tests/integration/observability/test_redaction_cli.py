"""decode's own keys never reach what `decode run` stores or sends, even when a file the model read holds one.

A real `decode run` with `GEMINI_API_KEY` set reads a file holding that key (read, and bash printing
it thousands of times, so the output is saved to a file), is told it in the prompt, and writes it in
its answer. The Session Log, the saved tool output and every trace and span the loopback Opik
collector received hold `[REDACTED:GEMINI_API_KEY]`, never the key.
"""

import json
from pathlib import Path
from typing import Any

import pytest

from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

KEY = "AIzaSyD-decode-test-key-0123456789abcdef"
MARKER = "[REDACTED:GEMINI_API_KEY]"


def test_a_key_read_from_a_file_is_a_marker_in_the_log_saved_output_and_traces(
    project: Path, decode_cmd: RunDecode, collector: Any
) -> None:
    (project / "deploy.cfg").write_text(f"region = eu\napi_key = {KEY}\n")
    calls = [
        {"name": "read", "args": {"path": "deploy.cfg"}},
        {"name": "bash", "args": {"command": "for i in $(seq 1 400); do cat deploy.cfg; done"}},
    ]
    turns = [{"tool_calls": calls}, {"text": f"The key is {KEY}."}]
    model = project.parent / "turns.json"
    model.write_text(json.dumps(turns), encoding="utf-8")

    done = decode_cmd(
        "run", "--permission-mode", "bypass", "--model", f"script:{model}", f"is {KEY} in deploy.cfg?",
        cwd=project,
        env={"GEMINI_API_KEY": KEY, "OPIK_URL_OVERRIDE": collector.url, "DECODE_TOOL_OUTPUT_LIMIT": "1000"},
    )  # fmt: skip

    assert done.returncode == 0, done.stderr
    (log,) = (project / ".decode" / "sessions").glob("*.jsonl")
    logged = log.read_text()
    assert KEY not in logged
    assert logged.count(MARKER) >= 4  # the prompt, the read, the bash output's head and tail, the answer
    (saved,) = (project / ".decode" / "tool-output").glob("*bash-stdout*")
    assert KEY not in saved.read_text()
    assert saved.read_text().count(MARKER) == 400
    assert collector.wait_for(traces=1, spans=4), collector.paths()
    sent = json.dumps([collector.traces(), collector.spans()])
    assert KEY not in sent
    assert MARKER in sent
