"""The agent catalogue: built-ins, user and project files (`.decode/agents`, `.claude/agents`), precedence."""

import os
from pathlib import Path

import pytest

from decode.agents.catalog import (
    BUILTIN_INDEX,
    MAX_AGENT_FILES,
    AgentCatalog,
    UnknownAgentError,
    builtin_index_text,
    discover_agents,
)
from decode.agents.definition import AgentSource
from decode.permissions.types import Mode
from tests.conftest import returns_at_once


def agent_file(folder: Path, name: str, description: str = "d", extra: str = "", body: str = "Do it.") -> Path:
    folder.mkdir(parents=True, exist_ok=True)
    path = folder / f"{name}.md"
    path.write_text(f"---\nname: {name}\ndescription: {description}\n{extra}---\n{body}\n", encoding="utf-8")
    return path


def test_the_builtins_are_build_plan_explore_general_and_code_reviewer(tmp_path: Path) -> None:
    catalog = discover_agents(tmp_path, home=tmp_path / "home")

    assert catalog.names() == ["build", "code-reviewer", "explore", "general", "plan"]
    assert catalog.problems == []
    build, plan, explore = catalog.get("build"), catalog.get("plan"), catalog.get("explore")
    assert build.tools is None
    assert build.permission_mode is None
    assert plan.permission_mode is Mode.PLAN
    assert explore.read_only
    assert explore.tools == ("read", "glob", "grep", "bash")
    assert not any(explore.allows(tool) for tool in ("write", "edit", "agent", "web_fetch"))
    assert all(agent.source is AgentSource.BUILTIN for agent in catalog.agents.values())


def test_the_builtin_index_matches_the_files() -> None:
    assert BUILTIN_INDEX.read_text(encoding="utf-8") == builtin_index_text(), (
        "decode/agents/builtin/index.json is stale: run `python -m decode.agents.catalog`"
    )


def test_project_over_claude_over_user_over_builtin(tmp_path: Path) -> None:
    home, project = tmp_path / "home", tmp_path / "project"
    agent_file(home / ".decode" / "agents", "explore", "the user's explore")
    agent_file(home / ".decode" / "agents", "helper", "the user's helper")
    agent_file(project / ".claude" / "agents", "helper", "the project's Claude Code helper")
    agent_file(project / ".claude" / "agents", "tester", "Claude's tester")
    agent_file(project / ".decode" / "agents", "tester", "decode's tester")

    catalog = discover_agents(project, home=home)

    assert catalog.get("explore").description == "the user's explore"
    assert catalog.get("explore").source is AgentSource.USER
    assert catalog.get("helper").source is AgentSource.CLAUDE
    assert catalog.get("tester").description == "decode's tester"
    assert catalog.get("tester").path == project / ".decode" / "agents" / "tester.md"


def test_a_malformed_file_is_skipped_with_a_problem_naming_it(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "agents"
    agent_file(folder, "good")
    (folder / "broken.md").write_text("---\nname: broken\n---\nno description\n", encoding="utf-8")

    catalog = discover_agents(tmp_path, home=tmp_path / "home")

    assert "good" in catalog.agents
    assert "broken" not in catalog.agents
    assert catalog.problems == [f"{folder / 'broken.md'}: description: Field required"]


def test_two_files_of_one_folder_with_the_same_name_keep_the_first(tmp_path: Path) -> None:
    folder = tmp_path / ".decode" / "agents"
    agent_file(folder, "a", "first")
    (folder / "b.md").write_text("---\nname: a\ndescription: second\n---\n", encoding="utf-8")

    catalog = discover_agents(tmp_path, home=tmp_path / "home")

    assert catalog.get("a").description == "first"
    assert "already defined" in catalog.problems[0]


def test_an_unknown_name_lists_the_agents_there_are(tmp_path: Path) -> None:
    with pytest.raises(UnknownAgentError, match=r"no agent named 'nope' \(agents: build, code-reviewer"):
        discover_agents(tmp_path, home=tmp_path / "home").get("nope")


def test_a_fifo_agent_file_is_one_problemreturns_at_once(tmp_path: Path) -> None:
    folder = tmp_path / ".claude" / "agents"
    folder.mkdir(parents=True)
    os.mkfifo(folder / "x.md")
    found: list[AgentCatalog] = []
    returns_at_once(lambda: found.append(discover_agents(tmp_path, home=tmp_path / "home")), folder / "x.md")
    assert found[0].problems == [f"{folder / 'x.md'}: is not a regular file"]
    assert found[0].names() == ["build", "code-reviewer", "explore", "general", "plan"]


def test_agent_files_beyond_the_cap_are_left_out_and_named_once(tmp_path: Path) -> None:
    folder = tmp_path / ".decode" / "agents"
    for number in range(MAX_AGENT_FILES + 5):
        agent_file(folder, f"a{number:03}")
    catalog = discover_agents(tmp_path, home=tmp_path / "home")
    assert catalog.problems == [f"{folder}: 5 more agent files than the {MAX_AGENT_FILES} read; they are left out"]
    assert len(catalog.names()) == 5 + MAX_AGENT_FILES
