"""What the agent's tools receive on every call (`ctx.deps`)."""

from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from decode.config.settings import Settings
from decode.entities.events import ToolOutputDelta
from decode.tools.executor import CommandExecutor
from decode.tools.ledger import ReadLedger

if TYPE_CHECKING:
    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import ApproveCallback


@dataclass
class AgentDeps:
    """The per-conversation context handed to tools.

    `workspace` is the directory the tools act on; `settings` the resolved configuration.
    `harness_home` is where decode keeps its own files (`.decode/`): the launch directory, which
    is the workspace too unless a sandbox moves the tools elsewhere. `executor` is the one door
    to the workspace's files and commands (the local machine unless given another).
    `read_ledger` remembers which files the agent has read, so `edit` can refuse stale ones.
    `on_tool_output` receives the output of long-running tools as it comes, for the front end.
    """

    workspace: Path
    settings: Settings
    harness_home: Path = field(default=None)  # type: ignore[assignment]  # the workspace unless given
    executor: CommandExecutor = field(default=None)  # type: ignore[assignment]  # set in __post_init__
    read_ledger: ReadLedger = field(default_factory=ReadLedger)
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None
    permissions: "PermissionGate | None" = None  # consulted before every tool call (lesson 06); None: no gate
    approve: "ApproveCallback | None" = None  # asks the user when the gate says ask; None: headless, ask = no

    def __post_init__(self) -> None:
        if self.harness_home is None:
            self.harness_home = self.workspace
        if self.executor is None:
            from decode.tools.local import LocalExecutor

            self.executor = LocalExecutor(self.workspace)
