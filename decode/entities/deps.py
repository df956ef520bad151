"""What the agent's tools receive on every call (`ctx.deps`)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path

from decode.config.settings import Settings
from decode.entities.asking import AskUser, ReviewPlan
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import CommandExecutor
from decode.entities.hosts import HostAllowance, PublicOnly
from decode.entities.language_servers import LanguageServers
from decode.entities.ledger import ReadLedger
from decode.entities.search_filter import SearchFilter, ShowAll
from decode.entities.todos import Todo


@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    The composition root (`decode.agent.compose`) builds it; tests build it directly.
    """

    executor: CommandExecutor  # the one door to the Workspace's files and commands (its root)  # [lesson 04]
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
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None
    """Receives the output of long-running tools as it comes."""
    # [lesson 13]
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
    # [/lesson 13]
    lsp: LanguageServers | None = None  # what `lsp` and the post-edit diagnostics ask (None: none)  # [lesson 16]

    @property
    def workspace(self) -> Path:
        """The directory the agent works in: the one the tools act on."""
        # [lesson 04]
        return self.executor.workspace
        # [before lesson 04]
        # return self.harness_home  # no tools yet: the agent works where decode started
        # [/lesson 04]
