"""Project Trust for settings (lesson 09): the user's yes to what a repository's settings grant.

`project_grants` holds a repository's grants aside (its allow rules, a mode that lets more run, its
agents' grants). They are not in force until the user trusts them, as a project's `.mcp.json`
servers are: the REPL asks once (showing each grant), `decode permissions trust` says yes from a
shell, and `decode run --trust-project-settings` for one run. The yes is kept in
`~/.decode/trusted-settings.json` for a hash of the grants as written: a changed grant asks
again. Deny and ask rules, and a `plan` or `default` mode, need no trust: a repository may always
restrict itself.
"""

from pathlib import Path

from decode.config import trust_store
from decode.config.harness_home import HARNESS_DIR

# Where these names were first defined: older imports (tests, lessons 13-14's notebooks) still work.
from decode.permissions.project_grants import GRANTING_MODES as GRANTING_MODES
from decode.permissions.project_grants import NOT_TRUSTED as NOT_TRUSTED
from decode.permissions.project_grants import OTHER_GRANTS as OTHER_GRANTS
from decode.permissions.project_grants import OtherGrant as OtherGrant
from decode.permissions.project_grants import ProjectGrants

TRUST_FILE = HARNESS_DIR / "trusted-settings.json"


def is_trusted(project: Path, grants: ProjectGrants, home: Path | None = None) -> bool:
    """Has the user trusted exactly these grants for this project? (No grants: nothing to trust.)"""
    if not grants:
        return True
    home = home if home is not None else Path.home()
    return trust_store.is_trusted(home / TRUST_FILE, project, trust_store.fingerprint(grants.content(project)))


def trust(project: Path, grants: ProjectGrants, home: Path | None = None) -> Path:
    """Remember that the user trusts these grants for this project; returns the file written."""
    home = home if home is not None else Path.home()
    return trust_store.remember(home / TRUST_FILE, project, trust_store.fingerprint(grants.content(project)))
