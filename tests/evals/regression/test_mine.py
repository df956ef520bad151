"""Mining refuses a malformed session log with a `LogError`, never a traceback."""

import json
import tomllib
from pathlib import Path
from typing import Any

import pytest

from evals.regression.metrics import LogError
from evals.regression.mine import mine_case

HEADER = {"type": "header", "session_id": "s1", "model": "test"}
PROMPT = {"kind": "request", "parts": [{"part_kind": "user-prompt", "content": "say hi"}]}
ANSWER = {"kind": "response", "parts": [{"part_kind": "text", "content": "hi"}]}


def write_log(path: Path, *turns: Any) -> Path:
    lines = [HEADER, *({"type": "turn", "messages": messages} for messages in turns)]
    path.write_text("\n".join(json.dumps(line) for line in lines) + "\n", encoding="utf-8")
    return path


def call(**fields: Any) -> dict[str, Any]:
    return {"kind": "response", "parts": [{"part_kind": "tool-call", "tool_call_id": "c1", **fields}]}


MALFORMED = {
    "messages-string": "oops",
    "messages-number": 3,
    "message-string": ["oops"],
    "parts-string": [{"kind": "request", "parts": "oops"}],
    "part-list": [{"kind": "request", "parts": [["user-prompt"]]}],
    "tool-name-missing": [call(args={})],
    "args-list": [call(tool_name="read", args=[1, 2])],
    "args-json-list": [call(tool_name="read", args="[1, 2]")],
    "call-id-list": [call(tool_name="read", args={}, tool_call_id=["c1"])],
    "text-content-list": [{"kind": "response", "parts": [{"part_kind": "text", "content": ["hi"]}]}],
}


@pytest.mark.parametrize("shape", list(MALFORMED))
def test_a_malformed_log_is_refused_while_a_good_one_beside_it_is_mined(tmp_path: Path, shape: str) -> None:
    bad = write_log(tmp_path / "bad.jsonl", [PROMPT], MALFORMED[shape])
    good = write_log(tmp_path / "good.jsonl", [PROMPT, ANSWER])
    with pytest.raises(LogError, match=str(bad)):
        mine_case(bad)
    assert tomllib.loads(mine_case(good))["prompt"] == "say hi"


def test_unreadable_tool_arguments_count_as_none(tmp_path: Path) -> None:
    log = write_log(tmp_path / "log.jsonl", [PROMPT, call(tool_name="read", args="{not json"), ANSWER])
    assert tomllib.loads(mine_case(log))["prompt"] == "say hi"
