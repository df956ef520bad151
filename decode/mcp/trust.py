"""Project Trust: a project's `.mcp.json` starts nothing until the user has trusted it.

A cloned repository can carry a `.mcp.json` whose "server" is any program. Starting it on
launch would run a stranger's code before the user typed anything, so project servers wait for
a yes: the REPL asks once, `decode run --trust-project-mcp` says it for a headless run. The yes is
remembered in the user's home (`~/.decode/trusted-mcp.json`, out of any repository's reach),
keyed by the project's path, for a hash of the project's server entries as written: a changed
`.mcp.json` (a new server, another command) asks again. The memory itself is shared with the
project's settings files (`decode.config.trust_store`).
"""

from collections.abc import Sequence
from pathlib import Path

from decode.config import trust_store
from decode.config.harness_home import HARNESS_DIR
from decode.mcp.config import ServerConfig

TRUST_FILE = HARNESS_DIR / "trusted-mcp.json"


def fingerprint(servers: Sequence[ServerConfig]) -> str:
    """A hash of the servers' entries as written (names and definitions, in name order)."""
    return trust_store.fingerprint({server.name: server.raw for server in sorted(servers, key=lambda s: s.name)})


def is_trusted(project: Path, servers: Sequence[ServerConfig], home: Path | None = None) -> bool:
    """Has the user trusted exactly these project servers for this project?"""
    if not servers:
        return True
    home = home if home is not None else Path.home()
    return trust_store.is_trusted(home / TRUST_FILE, project, fingerprint(servers))


def trust(project: Path, servers: Sequence[ServerConfig], home: Path | None = None) -> Path:
    """Remember that the user trusts these project servers; returns the file written."""
    home = home if home is not None else Path.home()
    return trust_store.remember(home / TRUST_FILE, project, fingerprint(servers))
