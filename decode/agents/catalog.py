"""The agent catalogue: every usable agent by name, and what was wrong with the other files.

Agents come from four places; for the same name the more specific one wins:

    built-in         decode/agents/builtin/<name>.md     (shipped with decode)
    user             ~/.decode/agents/<name>.md
    project, Claude  .claude/agents/<name>.md            (Claude Code's folder: its files just work)
    project          .decode/agents/<name>.md

A malformed file is skipped, and the problem, naming the file, is kept in `AgentCatalog.problems`
for the front end to show. The built-ins are read from a pre-parsed index, so a project without
agents of its own parses no YAML. What the project's agents grant (a built-in replaced, a mode
that lets more run) is in force only once the user trusts the project (`decode.agents.trust`);
until then `AgentCatalog.held` says, by name, why an agent is not used as written.
"""

import json
from dataclasses import dataclass, field
from functools import cache
from pathlib import Path

from decode.agents.definition import AgentDefinition, AgentError, AgentSource, parse_agent, read_agent
from decode.agents.trust import grants_of, held_back
from decode.config.harness_home import HARNESS_DIR
from decode.config.loading import ConfigError
from decode.config.safe_read import beyond_cap
from decode.permissions.project_grants import OtherGrant
from decode.permissions.types import Mode

DEFAULT_AGENT = "build"
BUILTIN_AGENTS = Path(__file__).parent / "builtin"
BUILTIN_INDEX = BUILTIN_AGENTS / "index.json"
"""The built-in agents, pre-parsed (a test keeps it equal to the `.md` files)."""
AGENTS_DIR = Path("agents")
MAX_AGENT_FILES = 200
"""Agent files read from one folder; a repository's 30,000 would slow every start."""


class UnknownAgentError(ConfigError):
    """No agent has this name; the message lists those that do."""


@dataclass
class AgentCatalog:
    """The usable agents by name, and one message per skipped file.

    `grants`: what the project's agent files grant (for Project Trust); `held`: by name, why an
    agent is not used as its project file says (the project is not trusted)."""

    agents: dict[str, AgentDefinition] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    grants: list[OtherGrant] = field(default_factory=list)
    held: dict[str, str] = field(default_factory=dict)

    def get(self, name: str) -> AgentDefinition:
        """The agent called `name`; `UnknownAgentError` (listing the others) when there is none."""
        found = self.agents.get(name.strip())
        if found is None:
            raise UnknownAgentError(f"no agent named {name.strip()!r} (agents: {', '.join(self.names())})")
        return found

    def names(self) -> list[str]:
        return sorted(self.agents)


def agent_roots(workspace: Path, *, home: Path | None = None) -> list[tuple[AgentSource, Path]]:
    """The folders agents are read from, least specific first (a later one overrides an earlier one)."""
    home = home or Path.home()
    return [
        (AgentSource.USER, home / HARNESS_DIR / AGENTS_DIR),
        (AgentSource.CLAUDE, workspace / ".claude" / AGENTS_DIR),
        (AgentSource.PROJECT, workspace / HARNESS_DIR / AGENTS_DIR),
    ]


def discover_agents(workspace: Path, *, home: Path | None = None, trust_project: bool = False) -> AgentCatalog:
    """Every agent: the built-ins, then each folder's `*.md` files (project over user over built-in).

    The project's grants are in force when `trust_project` (`--trust-project-settings`) or once
    the user trusted the project's settings and agents as they are now."""
    catalog = AgentCatalog(agents={agent.name: agent for agent in builtin_agents()})
    found = _read_roots(workspace, home, catalog)
    builtins = catalog.names()
    catalog.grants = [grant for agent in found for grant in grants_of(agent, builtins)]
    trusted = trust_project or not catalog.grants or _trusted(workspace, home, catalog.grants)
    for agent in found:
        used, reason = (agent, "") if trusted else held_back(agent, builtins)
        catalog.held.pop(agent.name, None)  # a more specific file of the same name speaks for itself
        if reason:
            catalog.held[agent.name] = reason
        if used is not None:
            catalog.agents[agent.name] = used
    return catalog


def _trusted(workspace: Path, home: Path | None, grants: list[OtherGrant]) -> bool:
    """Has the user trusted the project's settings, these agent grants with them?"""
    from decode.permissions.settings_files import load_permission_settings

    return load_permission_settings(workspace, home, other_grants=grants).trusted


def _read_roots(workspace: Path, home: Path | None, catalog: AgentCatalog) -> list[AgentDefinition]:
    """The agents of each folder, least specific first; a file that cannot be used goes to `problems`."""
    found: list[AgentDefinition] = []
    for source, root in agent_roots(workspace, home=home):
        if not root.is_dir():
            continue
        seen: dict[str, Path] = {}
        paths, excess = beyond_cap(sorted(root.glob("*.md")), MAX_AGENT_FILES, root, "agent files")
        if excess is not None:
            catalog.problems.append(excess)
        for path in paths:
            try:
                agent = read_agent(path, source)
            except AgentError as exc:
                catalog.problems.append(str(exc))
                continue
            if agent.name in seen:
                catalog.problems.append(f"{path}: agent {agent.name!r} is already defined by {seen[agent.name]}")
                continue
            seen[agent.name] = path
            found.append(agent)
    return found


@cache
def builtin_agents() -> tuple[AgentDefinition, ...]:
    """The agents shipped with decode, from `BUILTIN_INDEX` (read once: they ship with the package)."""
    entries = json.loads(BUILTIN_INDEX.read_text(encoding="utf-8"))
    return tuple(
        AgentDefinition(
            name=entry["name"],
            description=entry["description"],
            path=BUILTIN_AGENTS / f"{entry['name']}.md",
            source=AgentSource.BUILTIN,
            tools=tuple(entry["tools"]) if entry["tools"] is not None else None,
            disallowed_tools=tuple(entry["disallowed_tools"]),
            model=entry["model"],
            permission_mode=Mode(entry["permission_mode"]) if entry["permission_mode"] else None,
            read_only=entry["read_only"],
            confined=tuple(entry["confined"]),
            instructions=entry["instructions"],
        )
        for entry in entries
    )


def builtin_index_text() -> str:
    """What `BUILTIN_INDEX` must hold: every built-in agent file, parsed (`python -m decode.agents.catalog`)."""
    agents = [
        parse_agent(path.read_text(encoding="utf-8"), path, AgentSource.BUILTIN)
        for path in sorted(BUILTIN_AGENTS.glob("*.md"))
    ]
    entries = [
        {
            "name": agent.name,
            "description": agent.description,
            "tools": list(agent.tools) if agent.tools is not None else None,
            "disallowed_tools": list(agent.disallowed_tools),
            "model": agent.model,
            "permission_mode": agent.permission_mode.value if agent.permission_mode else None,
            "read_only": agent.read_only,
            "confined": list(agent.confined),
            "instructions": agent.instructions,
        }
        for agent in agents
    ]
    return json.dumps(entries, indent=2, ensure_ascii=False) + "\n"


if __name__ == "__main__":
    BUILTIN_INDEX.write_text(builtin_index_text(), encoding="utf-8")
