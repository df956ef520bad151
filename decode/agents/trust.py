"""Project Trust for agent files: what a repository's agents grant waits for the user's yes.

An agent file in a repository's `.claude/agents/` or `.decode/agents/` is written by whoever wrote
the repository. Two things in it grant more than the user chose: a `permissionMode` that lets more
run than `default` (`acceptEdits`; bypass is refused outright), and a name that replaces one of
decode's built-in agents (a `build.md` would be every session's default agent). Both wait for the
same trust as the repository's settings files (`decode.permissions.project_trust`): one question,
`decode permissions trust`, or `decode run --trust-project-settings`, for one hash of it all.

Untrusted, an agent that replaces a built-in is not used (the one it would replace stays) and an
agent that chooses a mode is used without its mode; each says why in `AgentCatalog.held`. A `plan`
or `default` mode only restricts, and needs no trust. The user's own agents (`~/.decode/agents/`)
need none either.
"""

from collections.abc import Iterable
from dataclasses import replace
from pathlib import Path

from decode.agents.definition import AgentDefinition, AgentSource
from decode.config.safe_read import UnreadableFile, read_text
from decode.permissions.project_grants import GRANTING_MODES, OtherGrant

REPOSITORY = (AgentSource.CLAUDE, AgentSource.PROJECT)
"""The sources a repository brings (its own folders)."""
HOW = "until you trust this project's settings: decode permissions trust (or --trust-project-settings)"


def grants_of(agent: AgentDefinition, builtins: Iterable[str]) -> list[OtherGrant]:
    """What one agent file grants: replacing a built-in, choosing a mode that lets more run. None
    for the user's own agents."""
    if agent.source not in REPOSITORY or agent.path is None:
        return []
    found = []
    if agent.name in builtins:
        found.append(OtherGrant(agent.path, _line_of(agent.path, "name"), f"agent {agent.name}: replaces the built-in"))
    if agent.permission_mode in GRANTING_MODES:
        text = f"agent {agent.name}: permissionMode {agent.permission_mode}"
        found.append(OtherGrant(agent.path, _line_of(agent.path, "permissionMode"), text))
    return found


def held_back(agent: AgentDefinition, builtins: Iterable[str]) -> tuple[AgentDefinition | None, str]:
    """An untrusted repository agent as it may be used: None when it replaces a built-in (which
    stays), else without the mode it chooses; and the one-line reason ('' when nothing is held)."""
    if not grants_of(agent, builtins):
        return agent, ""
    path = agent.path
    where = f"{path.parent.parent.name}/{path.parent.name}/{path.name}" if path is not None else agent.name
    if agent.name in builtins:
        return None, f"agent {agent.name}: the project's {where} is not used (the built-in stays) {HOW}"
    reason = f"agent {agent.name}: its permissionMode {agent.permission_mode} is not in force {HOW}"
    return replace(agent, permission_mode=None), reason


def _line_of(path: Path, key: str) -> int | None:
    """The line of the front matter where `key:` is written (None if it cannot be found)."""
    try:
        lines = (read_text(path) or "").splitlines()
    except UnreadableFile:
        return None
    return next((number for number, line in enumerate(lines, 1) if line.lstrip().startswith(f"{key}:")), None)
