"""Project Trust for agent files: a repository's agent that chooses a mode that lets more run, or
replaces a built-in agent, is in force only once the user trusts the project (with its settings)."""

from collections.abc import Callable
from pathlib import Path

import pytest

from decode.agents.catalog import discover_agents
from decode.agents.definition import AgentSource
from decode.agents.trust import grants_of, held_back
from decode.permissions.project_trust import trust
from decode.permissions.settings_files import load_permission_settings
from decode.permissions.types import Mode

HOW = "until you trust this project's settings: decode permissions trust"


def agent_file(project: Path, folder: str, name: str, extra: str = "") -> Path:
    path = project / folder / "agents" / f"{name}.md"
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(f"---\nname: {name}\ndescription: A {name}.\n{extra}---\nDo it.\n", encoding="utf-8")
    return path


@pytest.mark.parametrize("mode", ["acceptEdits", "accept-edits"])
def test_an_untrusted_project_agent_that_chooses_accept_edits_is_used_without_its_mode(
    project: Path, mode: str
) -> None:
    path = agent_file(project, ".claude", "fixer", f"tools: Bash, Write\npermissionMode: {mode}\n")

    catalog = discover_agents(project)

    fixer = catalog.get("fixer")
    assert fixer.permission_mode is None  # the conversation's mode, not the file's
    assert fixer.tools == ("bash", "write")  # the rest of the file stands: it only restricts
    assert catalog.held["fixer"].startswith("agent fixer: its permissionMode accept-edits is not in force " + HOW)
    assert [(grant.path, grant.line) for grant in catalog.grants] == [(path, 5)]


@pytest.mark.parametrize("name", ["build", "explore", "plan"])
@pytest.mark.parametrize("folder", [".claude", ".decode"])
def test_an_untrusted_project_agent_named_like_a_builtin_is_not_used(project: Path, name: str, folder: str) -> None:
    agent_file(project, folder, name, "tools: Bash\n")

    catalog = discover_agents(project)

    assert catalog.get(name).source is AgentSource.BUILTIN  # the built-in stays
    assert catalog.held[name] == (
        f"agent {name}: the project's {folder}/agents/{name}.md is not used (the built-in stays) "
        f"{HOW} (or --trust-project-settings)"
    )


def test_trusted_the_project_agents_are_in_force(project: Path, trust_settings: Callable[[Path], Path]) -> None:
    agent_file(project, ".claude", "build", "permissionMode: acceptEdits\n")
    agent_file(project, ".decode", "fixer", "permissionMode: acceptEdits\n")
    trust_settings(project)

    catalog = discover_agents(project)

    assert catalog.held == {}
    assert catalog.get("build").source is AgentSource.CLAUDE
    assert catalog.get("build").permission_mode is Mode.ACCEPT_EDITS
    assert catalog.get("fixer").permission_mode is Mode.ACCEPT_EDITS


def test_trust_for_one_run_puts_them_in_force_without_remembering(project: Path) -> None:
    agent_file(project, ".claude", "explore", "permissionMode: acceptEdits\n")

    assert discover_agents(project, trust_project=True).get("explore").source is AgentSource.CLAUDE
    assert discover_agents(project).get("explore").source is AgentSource.BUILTIN


def test_a_changed_agent_file_asks_again(project: Path, trust_settings: Callable[[Path], Path]) -> None:
    path = agent_file(project, ".claude", "fixer", "permissionMode: plan\n")
    agent_file(project, ".claude", "build", "tools: Read\n")
    trust_settings(project)
    assert discover_agents(project).held == {}

    path.write_text(path.read_text().replace("permissionMode: plan", "permissionMode: acceptEdits"))

    catalog = discover_agents(project)
    assert set(catalog.held) == {"build", "fixer"}  # one trust for the project: all of it waits again
    assert catalog.get("build").source is AgentSource.BUILTIN


def test_settings_and_agents_are_trusted_as_one(project: Path, write: Callable[[Path, str], Path]) -> None:
    write(project / ".claude" / "settings.json", '{"permissions": {"allow": ["Bash(make:*)"]}}')
    agent_file(project, ".claude", "fixer", "permissionMode: acceptEdits\n")
    trust(project, load_permission_settings(project).grants)  # the settings alone, as before agents counted

    loaded = load_permission_settings(project, other_grants=discover_agents(project).grants)

    assert not loaded.trusted  # the agent's grant was not shown, so it was not trusted
    assert "agent fixer: permissionMode accept-edits" in "\n".join(loaded.grants.describe())
    assert "fixer" in discover_agents(project).held


def test_what_needs_no_trust(project: Path, tmp_path: Path) -> None:
    agent_file(project, ".claude", "planner", "permissionMode: plan\n")  # restricts
    agent_file(project, ".decode", "careful", "permissionMode: default\n")
    agent_file(Path.home(), ".decode", "build", "permissionMode: acceptEdits\n")  # the user's own

    catalog = discover_agents(project)

    assert catalog.held == {}
    assert catalog.grants == []
    assert catalog.get("planner").permission_mode is Mode.PLAN
    assert catalog.get("build").source is AgentSource.USER
    assert catalog.get("build").permission_mode is Mode.ACCEPT_EDITS


def test_an_untrusted_project_build_falls_back_to_the_users_own(project: Path) -> None:
    agent_file(Path.home(), ".decode", "build", "tools: Read\n")
    agent_file(project, ".claude", "build", "tools: Bash\n")

    catalog = discover_agents(project)

    assert catalog.get("build").source is AgentSource.USER
    assert "build" in catalog.held


def test_grants_and_held_back_of_one_agent(project: Path) -> None:
    catalog = discover_agents(project)
    agent_file(project, ".claude", "build", "permissionMode: acceptEdits\n")
    agent = discover_agents(project, trust_project=True).get("build")

    texts = [grant.text for grant in grants_of(agent, catalog.names())]
    assert texts == ["agent build: replaces the built-in", "agent build: permissionMode accept-edits"]
    used, reason = held_back(agent, catalog.names())
    assert used is None  # replacing wins: the file is not used at all
    assert "the built-in stays" in reason


def test_bypass_stays_refused_trusted_or_not(project: Path) -> None:
    agent_file(project, ".claude", "yolo", "permissionMode: bypassPermissions\n")

    for trusted in (False, True):
        catalog = discover_agents(project, trust_project=trusted)
        assert "yolo" not in catalog.agents
        assert any("an agent file cannot choose bypass" in problem for problem in catalog.problems)
