"""What the agent's tools receive on every call (`ctx.deps`)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from decode.config.settings import Settings
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import CommandExecutor
from decode.entities.ledger import ReadLedger


@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    `executor` is the one door to the Workspace's files and commands; `workspace` is its root.
    `harness_home` is where decode keeps its own files (`.decode/`): the launch directory, which
    is the Workspace too unless a sandbox moves the tools elsewhere. `settings` is the resolved
    configuration. `read_ledger` remembers which files the agent has read, so `edit` can refuse
    stale ones. `on_tool_output` receives the output of long-running tools as it comes.

    The composition root (`decode.agent.compose`) builds it; tests build it directly.
    """

    executor: CommandExecutor
    settings: Settings
    harness_home: Path
    read_ledger: ReadLedger = field(default_factory=ReadLedger)
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None

    @property
    def workspace(self) -> Path:
        """The directory the tools act on, as the executor sees it."""
        return self.executor.workspace
