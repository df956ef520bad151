"""Agents through the real CLI: `decode agents`, `decode run --agent`, and a run that spawns subagents."""

import json
from pathlib import Path

import pytest

from tests.conftest import own_settings, script
from tests.integration.conftest import RunDecode

pytestmark = pytest.mark.integration

REVIEWER = """---
name: reviewer
description: Reviews the diff for bugs.
tools: Read, Grep, Glob, Bash
model: sonnet
---
Review the change.
"""


def test_decode_agents_lists_every_agent_with_its_file(project: Path, decode_cmd: RunDecode) -> None:
    (project / ".claude" / "agents").mkdir(parents=True)
    (project / ".claude" / "agents" / "reviewer.md").write_text(REVIEWER)
    (project / ".claude" / "agents" / "broken.md").write_text("---\nname: broken\n---\n")

    done = decode_cmd("agents", cwd=project)

    assert done.returncode == 0, done.stderr
    names = [line.split()[0] for line in done.stdout.splitlines() if not line.startswith(" ")]
    assert names == ["build", "code-reviewer", "explore", "general", "plan", "reviewer"]
    assert "reviewer       project (.claude)  .claude/agents/reviewer.md · read, grep, glob, bash\n" in done.stdout
    assert "explore        built-in           read, glob, grep, bash (read-only)" in done.stdout
    assert "plan mode" in done.stdout
    assert done.stderr.strip() == (
        f"decode: warning: agent skipped: {project / '.claude/agents/broken.md'}: description: Field required"
    )


def test_run_as_explore_denies_a_command_that_is_not_read_only(project: Path, decode_cmd: RunDecode) -> None:
    (project / "notes.txt").write_text("keep me\n")
    calls = [{"name": "bash", "args": {"command": "rm notes.txt"}}, {"name": "bash", "args": {"command": "ls"}}]
    model = script(project.parent / "turns.json", [{"tool_calls": calls}, {"text": "Listed; could not delete."}])

    # Even in bypass mode: explore is read-only, and its refusal is a deny, not a question.
    done = decode_cmd("run", "--agent", "explore", "--permission-mode", "bypass", "--model", model, "x", cwd=project)

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Listed; could not delete.\n"
    assert (project / "notes.txt").exists()
    assert "✗ bash(rm notes.txt)" in done.stderr
    assert "this agent is read-only" in done.stderr
    assert "✓ bash(ls)" in done.stderr


def test_an_unknown_agent_is_a_usage_error(project: Path, decode_cmd: RunDecode) -> None:
    model = script(project.parent / "turns.json", [{"text": "hi"}])
    done = decode_cmd("run", "--agent", "nope", "--model", model, "x", cwd=project)
    assert done.returncode == 2
    assert done.stderr.strip().startswith("decode: error: no agent named 'nope' (agents: build, code-reviewer")


def test_a_run_fans_out_to_two_explore_subagents_and_gets_their_reports(project: Path, decode_cmd: RunDecode) -> None:
    (project / "tests").mkdir()
    (project / "tests" / "test_app.py").write_text("def test_ok(): pass\n")
    calls = [
        {"name": "agent", "args": {"prompt": "Where are the tests?", "agent": "explore", "description": "tests"}},
        {"name": "agent", "args": {"prompt": "Where are the docs?", "agent": "explore", "description": "docs"}},
    ]
    parent = script(project.parent / "parent.json", [{"tool_calls": calls}, {"text": "Both reported."}])
    child = script(
        project.parent / "child.json",
        [{"tool_calls": [{"name": "glob", "args": {"pattern": "tests/*.py"}}]}, {"text": "tests/test_app.py:1"}],
    )

    done = decode_cmd("run", "--model", parent, "map the project", cwd=project, env={"DECODE_SUBAGENT_MODEL": child})

    assert done.returncode == 0, done.stderr
    assert done.stdout == "Both reported.\n"
    progress = [line for line in done.stderr.splitlines() if line.startswith("  ⋮ explore-")]
    assert any(line.endswith("· tests · glob(tests/*.py) · 1 request") for line in progress), done.stderr
    assert sum(line.endswith("· 2 requests · finished") for line in progress) == 2
    assert done.stderr.count("✓ agent(") == 2
    sessions = project / ".decode" / "sessions"
    (log,) = sessions.glob("*.jsonl")
    children = sorted((sessions / f"{log.stem}.agents").glob("explore-*.jsonl"))
    assert len(children) == 2  # each child's transcript, under its own id
    last = json.loads(log.read_text().splitlines()[-1])
    assert last["usage"]["requests"] == 6  # the parent's 2 and each child's 2
    results = [
        part["content"]
        for message in last["messages"]
        for part in message["parts"]
        if part.get("part_kind") == "tool-return"
    ]
    assert all(content.endswith("\ntests/test_app.py:1") for content in results)
    assert len(results) == 2


def test_run_resume_continues_as_the_agent_the_session_was(project: Path, decode_cmd: RunDecode) -> None:
    (project / "notes.txt").write_text("keep me\n")
    first = script(project.parent / "first.json", [{"text": "Looked around."}])
    done = decode_cmd("run", "--agent", "explore", "--model", first, "look", cwd=project)
    assert done.returncode == 0, done.stderr

    rm = [{"name": "bash", "args": {"command": "rm notes.txt"}}]
    second = script(project.parent / "second.json", [{"tool_calls": rm}, {"text": "Could not delete."}])
    done = decode_cmd("run", "--resume", "--permission-mode", "bypass", "--model", second, "delete notes", cwd=project)

    assert done.returncode == 0, done.stderr
    assert "decode: resuming as agent explore" in done.stderr
    assert "this agent is read-only" in done.stderr  # still explore: read-only even in bypass
    assert (project / "notes.txt").exists()


def test_a_subagent_stop_hook_hears_each_subagent(project: Path, decode_cmd: RunDecode) -> None:
    hooks = {"SubagentStop": [{"hooks": [{"type": "command", "command": "cat >> stops.jsonl; echo >> stops.jsonl"}]}]}
    (project / ".decode").mkdir()
    own_settings(project / ".decode" / "settings.local.json", json.dumps({"hooks": hooks}))  # the user's own
    call = {"name": "agent", "args": {"prompt": "Where are the tests?", "agent": "explore", "description": "tests"}}
    parent = script(project.parent / "parent.json", [{"tool_calls": [call]}, {"text": "It reported."}])
    child = script(project.parent / "child.json", [{"text": "No tests yet."}])

    done = decode_cmd("run", "--model", parent, "map the project", cwd=project, env={"DECODE_SUBAGENT_MODEL": child})

    assert done.returncode == 0, done.stderr
    (stop,) = [json.loads(line) for line in (project / "stops.jsonl").read_text().splitlines() if line]
    assert stop["hook_event_name"] == "SubagentStop"
    assert stop["stop_hook_active"] is False
    assert stop["transcript_path"].endswith(".jsonl")
    assert ".agents/explore-" in stop["transcript_path"]  # the subagent's own transcript
