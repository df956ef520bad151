"""CI snippets as users write them for `claude -p` and `codex exec`, run unchanged with `decode` in
their place (`claude` -> `decode`, `codex exec` -> `decode run`): the options, the pipes, the `jq`
over the result, the exit codes they test."""

import json
from pathlib import Path

import pytest

from tests.conftest import git, script, source_repository
from tests.integration.headless.conftest import Snippet

pytestmark = pytest.mark.integration


def as_decode(text: str) -> str:
    """The snippet with decode in the other tool's place, and nothing else changed."""
    return text.replace("codex exec", "decode run").replace("claude ", "decode ")


def sent(repo: Path) -> str:
    """Every session log of `repo`: what the model was sent."""
    return "".join(log.read_text("utf-8") for log in sorted((repo / ".decode" / "sessions").glob("*.jsonl")))


REVIEW = """
git diff main...HEAD | claude -p "Review this diff for bugs. Reply LGTM if there are none." \\
  --output-format json > review.json
if [ "$(jq -r '.is_error' review.json)" = "true" ]; then
  echo "review failed: $(jq -r '.subtype' review.json)" >&2
  exit 1
fi
jq -r '.result' review.json > review.md
echo "turns=$(jq -r '.num_turns' review.json) cost=$(jq -r '.total_cost_usd // 0' review.json)"
echo "ms=$(jq '.duration_ms' review.json)"
"""


def test_a_pull_request_review_sends_the_diff(tmp_path: Path, snippet: Snippet) -> None:
    repo = source_repository(tmp_path)
    git(repo, "checkout", "-qb", "feature")
    (repo / "a.txt").write_text("a\nnew line from the feature\n")
    git(repo, "commit", "-qam", "feature")
    model = script(tmp_path / "m.json", [{"text": "LGTM"}])
    done = snippet(as_decode(REVIEW), cwd=repo, model=model)
    assert done.returncode == 0, done.stderr
    assert (repo / "review.md").read_text() == "LGTM\n"
    assert done.stdout.startswith("turns=1 cost=0\nms=")
    assert "+new line from the feature" in sent(repo)  # the diff went with the task


FIX = """
claude -p "Make ./check.sh pass" \\
  --allowedTools "Bash(./check.sh),Read,Edit,Write" --permission-mode acceptEdits \\
  --max-turns 10 --output-format stream-json --verbose > events.jsonl
tail -n 1 events.jsonl | jq -e '.type == "result" and .subtype == "success"' > /dev/null
tail -n 1 events.jsonl | jq -r '.result'
"""


def test_a_fix_job_with_allowed_tools_and_accept_edits(tmp_path: Path, snippet: Snippet) -> None:
    repo = source_repository(tmp_path)
    (repo / "check.sh").write_text("#!/bin/sh\ngrep -q fixed a.txt\n")
    (repo / "check.sh").chmod(0o755)
    run_check = {"tool_calls": [{"name": "bash", "args": {"command": "./check.sh"}}]}
    read = {"tool_calls": [{"name": "read", "args": {"path": "a.txt"}}]}
    edit = {"tool_calls": [{"name": "write", "args": {"path": "a.txt", "content": "fixed\n"}}]}
    model = script(tmp_path / "m.json", [run_check, read, edit, run_check, {"text": "Fixed a.txt."}])
    done = snippet(as_decode(FIX), cwd=repo, model=model)
    assert (done.returncode, done.stdout) == (0, "Fixed a.txt.\n"), done.stderr
    events = [json.loads(line) for line in (repo / "events.jsonl").read_text().splitlines()]
    results = [event["is_error"] for event in events if event["type"] == "tool_result"]
    assert results == [True, False, False, False]  # ./check.sh failed (exit 1), the edit ran, then it passed
    assert (repo / "a.txt").read_text() == "fixed\n"


FOLLOW_UP = """
session=$(claude -p "List the files here" --output-format json | jq -r '.session_id')
if ! claude -p "Now refactor all of them" --resume "$session" --max-turns 1 --output-format json > out.json; then
  [ "$(jq -r '.subtype' out.json)" = "error_max_turns" ] && echo "stopped at the turn limit in $session"
fi
"""


def test_a_follow_up_resumes_the_session_and_reads_the_turn_limit(tmp_path: Path, snippet: Snippet) -> None:
    repo = source_repository(tmp_path)
    model = script(
        tmp_path / "m.json", [{"tool_calls": [{"name": "glob", "args": {"pattern": "*"}}]}, {"text": "a.txt"}]
    )
    done = snippet(as_decode(FOLLOW_UP), cwd=repo, model=model)
    assert done.returncode == 0, done.stderr
    [session] = done.stdout.split()[-1:]
    assert done.stdout == f"stopped at the turn limit in {session}\n"
    assert len(list((repo / ".decode" / "sessions").glob(f"*_{session}.jsonl"))) == 1  # one session, resumed


TRIAGE = """
codex exec --skip-git-repo-check --output-schema schema.json -o triage.json \\
  "Triage the bug report in ISSUE.md"
echo "labels: $(jq -r '.labels | join(",")' triage.json)"
jq -e '.severity == "high"' triage.json > /dev/null
"""
SCHEMA = {
    "type": "object",
    "properties": {
        "severity": {"enum": ["low", "medium", "high"]},
        "labels": {"type": "array", "items": {"type": "string"}},
    },
    "required": ["severity", "labels"],
    "additionalProperties": False,
}


def test_a_codex_triage_with_an_output_schema(tmp_path: Path, snippet: Snippet) -> None:
    work = tmp_path / "work"
    work.mkdir()
    (work / "schema.json").write_text(json.dumps(SCHEMA))
    (work / "ISSUE.md").write_text("The app crashes on start.\n")
    answer = {"tool_calls": [{"name": "final_result", "args": {"severity": "high", "labels": ["bug", "crash"]}}]}
    done = snippet(as_decode(TRIAGE), cwd=work, model=script(tmp_path / "m.json", [answer]))
    answer_line = '{"severity": "high", "labels": ["bug", "crash"]}\n'  # codex exec prints its answer too
    assert (done.returncode, done.stdout) == (0, answer_line + "labels: bug,crash\n"), done.stderr


SUMMARY = """
codex exec -C "$WORKDIR" -o "$RUNNER_TEMP/summary.md" "Summarise CHANGELOG.md in one line" < /dev/null
echo "::notice::$(cat "$RUNNER_TEMP/summary.md")"
"""


def test_a_codex_job_in_another_directory_writes_its_last_message(tmp_path: Path, snippet: Snippet) -> None:
    work, temp = tmp_path / "checkout", tmp_path / "runner-temp"
    work.mkdir()
    temp.mkdir()
    (work / "CHANGELOG.md").write_text("## 1.2\n- faster start\n")
    text = f"WORKDIR={work}\nRUNNER_TEMP={temp}\n" + as_decode(SUMMARY)
    done = snippet(text, cwd=tmp_path, model=script(tmp_path / "m.json", [{"text": "1.2 starts faster."}]))
    assert (done.returncode, done.stdout) == (0, "1.2 starts faster.\n::notice::1.2 starts faster.\n"), done.stderr
    assert list((work / ".decode" / "sessions").glob("*.jsonl"))  # it ran there
