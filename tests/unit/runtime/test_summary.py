"""The Run Summary: every key always there, the hand-back in four numbers, a path that cannot be written."""

import json
from pathlib import Path

from decode.entities.usage import Usage
from decode.runtime.summary import RunSummary, write_summary
from decode.sandbox.handback import HandBack, Outcome
from decode.sandbox.workspace import Workspace

KEYS = {"type", "result", "session_id", "usage", "cost_usd", "num_requests", "duration_s", "is_error", "exit_code",
        "error", "handback"}  # fmt: skip
# What scripts written for `claude -p` read:
CLAUDE_KEYS = {"type", "subtype", "is_error", "result", "session_id", "num_turns", "duration_ms", "duration_api_ms",
               "total_cost_usd", "usage", "permission_denials", "structured_output"}  # fmt: skip


def test_a_run_that_never_started_has_every_key() -> None:
    summary = RunSummary(error="no agent named 'x'").to_json(2)
    assert set(summary) == KEYS | CLAUDE_KEYS
    assert summary["usage"] == {"requests": 0, "input_tokens": 0, "output_tokens": 0, "total_tokens": 0,
                                "cache_creation_input_tokens": 0, "cache_read_input_tokens": 0}  # fmt: skip
    assert (summary["is_error"], summary["error"], summary["cost_usd"], summary["handback"]) == (
        True, "no agent named 'x'", None, None,
    )  # fmt: skip


def test_a_successful_run_has_no_error_even_after_a_warning_like_error_line() -> None:
    usage = Usage(requests=2, input_tokens=10, output_tokens=5, cost_usd=0.25)
    summary = RunSummary(result="42", session_id="abc", usage=usage, error="retried").to_json(0)
    assert (summary["error"], summary["num_requests"], summary["cost_usd"]) == (None, 2, 0.25)
    assert summary["usage"]["total_tokens"] == 15


def test_the_hand_back_is_its_branch_outcome_and_counts(tmp_path: Path) -> None:
    workspace = Workspace(path=tmp_path, source=str(tmp_path), session_id="abc123", base="")
    handback = HandBack(workspace, Outcome.SHIPPED, commits=("a1 one", "b2 two"), commit_count=2, files=("M x",))
    summary = RunSummary(handback=handback).to_json(0)
    assert summary["handback"] == {"branch": "decode/abc123", "outcome": "shipped", "commits": 2, "files": 1}


def test_write_summary_makes_the_folder_and_says_why_not(tmp_path: Path) -> None:
    target = tmp_path / "deep" / "summary.json"
    assert write_summary(target, {"a": "é"}) is None
    assert json.loads(target.read_text("utf-8")) == {"a": "é"}
    (tmp_path / "file").write_text("")
    problem = write_summary(tmp_path / "file" / "summary.json", {})
    assert problem is not None
    assert "file" in problem


def test_a_failure_no_error_line_named_still_has_an_error(tmp_path: Path) -> None:
    workspace = Workspace(path=tmp_path, source=str(tmp_path), session_id="abc123", base="")
    kept = HandBack(workspace, Outcome.KEPT, commit_count=1, error="the push was refused")
    assert RunSummary(handback=kept).to_json(1)["error"] == "hand-back: the push was refused"
    assert RunSummary().to_json(1)["error"] == "exit code 1"


def test_claude_codes_keys_say_how_the_run_ended_in_its_words() -> None:
    usage = Usage(requests=3, input_tokens=10, output_tokens=5, cost_usd=0.5, cache_read_tokens=7, cache_write_tokens=2)
    done = RunSummary(result="ok", usage=usage, api_s=1.2345).to_json(0)
    assert (done["subtype"], done["num_turns"], done["total_cost_usd"], done["duration_api_ms"]) == (
        "success",
        3,
        0.5,
        1234,
    )
    assert (done["usage"]["cache_read_input_tokens"], done["usage"]["cache_creation_input_tokens"]) == (7, 2)
    assert abs(done["duration_ms"] - done["duration_s"] * 1000) <= 1
    assert done["permission_denials"] == []
    assert RunSummary().to_json(3)["subtype"] == "error_max_turns"
    assert {RunSummary().to_json(code)["subtype"] for code in (1, 2, 130, 143)} == {"error_during_execution"}
