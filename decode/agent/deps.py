"""What the agent's tools receive on every call (`ctx.deps`)."""

from dataclasses import dataclass
from pathlib import Path

from decode.config.settings import Settings


@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    `workspace` is the directory the tools act on; `settings` the resolved configuration.
    Later lessons add the executor, permissions and more.
    """

    workspace: Path
    settings: Settings
