"""Project Trust: a project's `.mcp.json` starts nothing until the user has trusted it.

A cloned repository can carry a `.mcp.json` whose "server" is any program. Starting it on
launch would run a stranger's code before the user typed anything, so project servers wait for
a yes: the REPL asks once, `decode run --trust-project-mcp` says it for a headless run. The yes is
remembered in the user's home (`~/.decode/trusted-mcp.json`, out of any repository's reach),
keyed by the project's path, for a hash of the project's server entries as written: a changed
`.mcp.json` (a new server, another command) asks again.
"""

import hashlib
import json
import logging
from collections.abc import Sequence
from pathlib import Path

from decode.config.harness_home import HARNESS_DIR, make_parent_dirs
from decode.files import write_atomic
from decode.mcp.config import ServerConfig

logger = logging.getLogger(__name__)

TRUST_FILE = HARNESS_DIR / "trusted-mcp.json"


def fingerprint(servers: Sequence[ServerConfig]) -> str:
    """A hash of the servers' entries as written (names and definitions, in name order)."""
    entries = {server.name: server.raw for server in sorted(servers, key=lambda s: s.name)}
    return hashlib.sha256(json.dumps(entries, sort_keys=True, default=str).encode()).hexdigest()


def _read(path: Path) -> dict[str, str]:
    try:
        data = json.loads(path.read_text(encoding="utf-8"))
    except FileNotFoundError:
        return {}
    except (OSError, ValueError) as exc:
        logger.warning("%s cannot be read (%s): project MCP servers will ask to be trusted again", path, exc)
        return {}
    return {key: value for key, value in data.items() if isinstance(value, str)} if isinstance(data, dict) else {}


def is_trusted(project: Path, servers: Sequence[ServerConfig], home: Path | None = None) -> bool:
    """Has the user trusted exactly these project servers for this project?"""
    if not servers:
        return True
    home = home if home is not None else Path.home()
    return _read(home / TRUST_FILE).get(str(project.resolve())) == fingerprint(servers)


def trust(project: Path, servers: Sequence[ServerConfig], home: Path | None = None) -> Path:
    """Remember that the user trusts these project servers; returns the file written."""
    home = home if home is not None else Path.home()
    path = home / TRUST_FILE
    trusted = _read(path)
    trusted[str(project.resolve())] = fingerprint(servers)
    make_parent_dirs(path)
    write_atomic(path, (json.dumps(trusted, indent=2, sort_keys=True) + "\n").encode())
    return path
