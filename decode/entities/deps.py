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
from decode.entities.asking import AskUser, ReviewPlan  # [lesson 10]
from decode.entities.events import ToolOutputDelta  # [lesson 05]
from decode.entities.executor import CommandExecutor  # [lesson 04]
from decode.entities.ledger import ReadLedger  # [lesson 04]
from decode.entities.todos import Todo  # [lesson 10]


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
# [lesson 10]
class HostAllowance(Protocol):
    """Whether the user's rules name a host, letting `web_fetch` reach its private or loopback addresses."""

    def allows_private(self, host: str) -> bool:
        """Does an allow rule name `host` (`WebFetch(domain:localhost)`)?"""
        ...

    def denies_host(self, host: str) -> bool:
        """Does a deny rule name `host`? Asked of every redirect hop: the gate saw the first URL only."""
        ...


class PublicOnly:
    """The allowance that names no host: `web_fetch` reaches public addresses only."""

    def allows_private(self, host: str) -> bool:
        return False

    def denies_host(self, host: str) -> bool:
        return False


# [/lesson 10]
# [lesson 13]
class LanguageServers(Protocol):
    """The language servers of a conversation (`decode.lsp.manager.LspManager`)."""

    async def close(self) -> None:
        """Shut every server down."""
        ...


# [/lesson 13]
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
    # [lesson 10]
    todos: list[Todo] = field(default_factory=list)
    """The To-do List (`todo_write` replaces its items; the session keeps the same list)."""
    ask_user: AskUser | None = None
    """Asks the user a question (the REPL's Decision Channel); None: no one can answer (headless)."""
    review_plan: ReviewPlan | None = None
    """Shows a plan and asks whether to carry it out, leaving plan mode; None: no one can approve."""
    host_allowance: HostAllowance = field(default_factory=PublicOnly)
    """Which hosts `web_fetch` may reach at private addresses (the gate's `WebFetch(domain:…)` allows)."""
    web_cache: dict[str, tuple[float, str]] = field(default_factory=dict)
    """Pages `web_fetch` fetched in this conversation: URL → (monotonic time, text)."""
    # [/lesson 10]
    lsp: LanguageServers | None = None  # [lesson 13]
    """The language servers `lsp` and the post-edit diagnostics ask; None: no code intelligence."""  # [lesson 13]

    @property
    def workspace(self) -> Path:
        """The directory the agent works in: the one the tools act on."""
        # [lesson 04]
        return self.executor.workspace
        # [before lesson 04]
        # return self.harness_home  # no tools yet: the agent works where decode started
        # [/lesson 04]
