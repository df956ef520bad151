"""Where the agent's commands run: the names `--sandbox` and `SANDBOX_MODE` take.

Apart from the sandbox seam (`types.py` imports asyncio) so that `decode --help` lists the
choices from this enum without loading any of it; `types.py` re-exports it.
"""

from enum import StrEnum


class SandboxMode(StrEnum):
    """Where the agent's commands run: `none` is this machine, unsandboxed (today's behaviour)."""

    NONE = "none"
    BWRAP = "bwrap"
    DOCKER = "docker"
    MODAL = "modal"
