"""What a front end asks the composition root for (`LoopOptions`) and what it gets back (`Conversation`).

Light on purpose: this module imports nothing heavy (its annotations are read only by the type
checker), so the REPL holds its `LoopOptions` while it draws the prompt, before the warm-up has
imported pydantic-ai or read the settings. `build_loop(options, settings)` (`compose.py`) does the rest.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from collections.abc import Callable, Sequence
    from typing import Any

    from decode.agent.loop import AgentLoop
    from decode.agents.active import ActiveAgent
    from decode.agents.definition import AgentDefinition
    from decode.agents.lineage import OnSubagent, OnSubagentEvent, Parent
    from decode.agents.subagents import Subagents
    from decode.config.settings import Settings
    from decode.context.session import Session
    from decode.entities.asking import AskUser, ReviewPlan
    from decode.entities.events import ToolOutputDelta
    from decode.entities.executor import CommandExecutor
    from decode.entities.tools import ToolSpec
    from decode.mcp.servers import McpServers
    from decode.models.retry import OnRetry
    from decode.permissions.command_line_settings import CommandLineSettings
    from decode.permissions.gate import PermissionGate
    from decode.permissions.hook import ApproveCallback
    from decode.permissions.types import Mode
    from decode.sandbox.workspace import Workspace


@dataclass
class LoopOptions:
    """What a front end asks for: where, which model, and its own callbacks (the settings come apart)."""

    home: Path
    """The launch directory (the Harness Home)."""
    model: str | None = None
    """None: the settings' model."""
    max_requests: int | None = None
    """The request ceiling of one turn; None: the settings'."""
    on_retry: OnRetry | None = None
    """Told of each retry of a failed model request, so the front end can show it."""
    tools: Sequence[ToolSpec] | None = None
    """The tools' declarations; None: decode's own (`decode.tools.catalog`). A front end may give its own."""
    executor: CommandExecutor | None = None  # [lesson 04]
    """None: a `LocalExecutor` in `home`."""
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None  # [lesson 05]
    # [lesson 06]
    permission_mode: Mode | None = None
    """None: the settings files' `defaultMode`, else `default`."""
    approve: ApproveCallback | None = None
    """The approval prompt; None means headless: a call that needs approval is refused."""
    trust_project_settings: bool = False
    """Put the project's own allow rules and mode in force untrusted (`decode run --trust-project-settings`)."""
    settings_layer: CommandLineSettings | None = None
    """`--settings FILE_OR_JSON`: the highest settings layer, for this conversation only."""
    # [/lesson 06]
    resume: str | None = None  # [lesson 11]
    """None: a new session; "" the newest; else an id or prefix (`SessionError`: no such session).
    A resumed session keeps its own model and mode unless `model` or `permission_mode` is given."""
    # [lesson 13]
    ask_user: AskUser | None = None
    """How the `ask_user` tool reaches the user; None means headless: the model is told no one can answer."""
    review_plan: ReviewPlan | None = None
    """How `exit_plan_mode` shows the plan and asks to leave plan mode; None: no one can approve."""
    # [/lesson 13]
    # [lesson 14]
    mcp: bool = True
    """Offer the tools of the MCP servers in the config files (a subagent may go without them)."""
    trust_project_mcp: bool = False
    """Start the project's `.mcp.json` servers without asking (`decode run --trust-project-mcp`)."""
    # [/lesson 14]
    # [lesson 15]
    agent: str | AgentDefinition | None = None
    """The agent to be: a name from the catalogue (`build`, `explore`…) or a definition; None: `build`.
    Its model and permission mode apply unless `model` or `permission_mode` is given."""
    on_subagent: OnSubagent | None = None
    """Told how each subagent is doing (`SubagentProgress`), so the front end can show it."""
    parent: Parent | None = None
    """Set for a subagent: what it takes from the conversation that spawns it."""
    # [/lesson 15]
    # [lesson 17]
    sandbox: str | None = None
    """Where the agent's commands run: `none`, `bwrap`, `docker` or `modal`; None: the settings'
    `sandbox_mode`. Not used when `executor` is given."""
    workspace: Path | None = None
    """The directory the agent works in when it is not `home` (a `--repo` clone); None: `home`."""
    # [/lesson 17]
    repo: str | None = None  # [lesson 19]
    """`--repo PATH|URL`: clone it into a Workspace under `.decode/workspaces/` and work there (its
    work comes back as branch `decode/<session-id>`); None: the settings' `sandbox_repo`, else none."""
    add_dirs: tuple[Path, ...] = ()  # [lesson 17]
    """`--add-dir DIR`: folders (real paths) the file tools may use besides the Workspace."""
    # [lesson 20]
    system_prompt: str | None = None
    """Instructions instead of decode's own (`decode run --system-prompt`); None: decode's."""
    output_schema: dict[str, Any] | None = None
    """A JSON Schema the final answer must validate against (`decode run --json-schema`); None: text."""
    mcp_config: tuple[Path, ...] = ()
    """More MCP configuration files (`decode run --mcp-config FILE`): the user's, so trusted."""
    strict_mcp_config: bool = False
    """Only the servers of `mcp_config` (`--strict-mcp-config`)."""
    session_persistence: bool = True
    """False: nothing of the session is written (`decode run --no-session-persistence`)."""
    session_id: str | None = None
    """The new session's id, a UUID (`--session-id`); None: one of decode's own. ADR-0129."""
    fork_session: bool = False
    """With `resume`: go on in a new session holding a copy of the resumed one's log (`--fork-session`)."""
    on_subagent_event: OnSubagentEvent | None = None
    """Told each event of each subagent's turn, with the parent's `agent` call id (stream-json's
    subagent messages, `parent_tool_use_id`); a subagent's subagents too."""
    # [/lesson 20]
    trace_name: str = "decode_turn"  # [lesson 22]
    """The name of each turn's trace when tracing is on: `chat_turn` (the REPL), `decode_run` (headless)."""


@dataclass
class Conversation:
    """What `build_loop` made: the loop (with its history), and what it was built from and with."""

    loop: AgentLoop
    options: LoopOptions
    """What it was built from, as the steps settled it (a resumed session's sandbox, the tools given)."""
    settings: Settings
    gate: PermissionGate  # the Permission Gate the loop's tool calls ask  # [lesson 06]
    # [lesson 11]
    session: Session
    resumed_mode: bool = False
    """The permission mode came from the resumed session (front ends may say so)."""
    # [/lesson 11]
    mcp: McpServers | None = None  # [lesson 14]
    """The MCP servers whose tools the agent has (None: no config file names one), not started:
    the front end starts them on its event loop, or the first request does."""
    # [lesson 15]
    agent: ActiveAgent | None = None
    """The agent the conversation is: `switch_agent()` changes it in place."""
    subagents: Subagents | None = None
    """Its `agent` tool's side (None when its agent may not spawn any)."""
    # [/lesson 15]
    workspace: Workspace | None = None  # [lesson 19]
    """The `--repo` clone the agent works in (None: the launch directory): the front end hands it back."""
