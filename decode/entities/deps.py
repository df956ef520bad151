"""What the agent's tools receive on every call (`ctx.deps`)."""

from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import Protocol

from decode.config.settings import Settings
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import CommandExecutor
from decode.entities.ledger import ReadLedger


class SearchFilter(Protocol):
    """Which of the files a search found it may show: the Permission Gate hides what rules deny."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        """The paths among `paths` whose content or name a search must not show."""
        ...


class ShowAll:
    """The filter of a conversation without a Permission Gate: nothing is hidden."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        return set()


@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    `executor` is the one door to the Workspace's files and commands; `workspace` is its root.
    `harness_home` is where decode keeps its own files (`.decode/`): the launch directory, which
    is the Workspace too unless a sandbox moves the tools elsewhere. `settings` is the resolved
    configuration. `read_ledger` remembers which files the agent has read, so `edit` can refuse
    stale ones. `on_tool_output` receives the output of long-running tools as it comes.
    `search_filter` says which files found by `grep` and `glob` they may show (the gate's denies).

    The composition root (`decode.agent.compose`) builds it; tests build it directly.
    """

    executor: CommandExecutor
    settings: Settings
    harness_home: Path
    read_ledger: ReadLedger = field(default_factory=ReadLedger)
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None
    search_filter: SearchFilter = field(default_factory=ShowAll)

    @property
    def workspace(self) -> Path:
        """The directory the tools act on, as the executor sees it."""
        return self.executor.workspace
