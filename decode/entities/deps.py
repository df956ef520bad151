"""What the agent's tools receive on every call (`ctx.deps`)."""

# [lesson 04]
from collections.abc import (
    Callable,  # [lesson 05]
    Sequence,
)

# [/lesson 04]
from dataclasses import (
    dataclass,
    field,  # [lesson 04]
)
from pathlib import Path
from typing import Protocol  # [lesson 04]

from decode.config.settings import Settings
from decode.entities.events import ToolOutputDelta  # [lesson 05]
from decode.entities.executor import CommandExecutor  # [lesson 04]
from decode.entities.ledger import ReadLedger  # [lesson 04]


# [lesson 04]
class SearchFilter(Protocol):
    """Which of the files a search found it may show (a filter can hide files the user keeps from the agent)."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        """The paths among `paths` whose content or name a search must not show."""
        ...


class ShowAll:
    """The filter that hides nothing: what a conversation gets unless it is given another."""

    async def hidden(self, paths: Sequence[Path]) -> set[Path]:
        return set()


# [/lesson 04]
@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    The composition root (`decode.agent.compose`) builds it; tests build it directly.
    """

    # [lesson 04]
    executor: CommandExecutor
    """The one door to the Workspace's files and commands; `workspace` is its root."""
    # [/lesson 04]
    settings: Settings
    """The resolved configuration."""
    harness_home: Path
    """Where decode keeps its own files (`.decode/`): the launch directory, which is the Workspace
    too unless a sandbox moves the tools elsewhere."""
    # [lesson 04]
    read_ledger: ReadLedger = field(default_factory=ReadLedger)
    """Which files the agent has read, so `edit` can refuse stale ones."""
    search_filter: SearchFilter = field(default_factory=ShowAll)
    """Which files found by `grep` and `glob` they may show."""
    # [/lesson 04]
    # [lesson 05]
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None
    """Receives the output of long-running tools as it comes."""
    # [/lesson 05]

    @property
    def workspace(self) -> Path:
        """The directory the agent works in: the one the tools act on."""
        # [lesson 04]
        return self.executor.workspace
        # [before lesson 04]
        # return self.harness_home  # no tools yet: the agent works where decode started
        # [/lesson 04]
