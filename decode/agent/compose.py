"""The composition root: the one function that builds an Agent Loop for a front end.

`decode run`, the REPL (and later the Modal app, subagents and the eval runner) each describe
what they want in a `LoopOptions`: the launch directory, settings, model, and their own
callbacks. `build_loop()` wires the rest the same way for all of them (the steps are drawn
above it).

Errors the user can fix come out as exceptions with a one-line message, such as `ModelConfigError`
(unknown provider, missing key). Front ends read the settings first with
`decode.config.loading.load_settings()` (`ConfigError`: a bad setting).
"""

import logging  # [lesson 12]
import os  # [lesson 05]
from collections.abc import (
    Callable,  # [lesson 05]
    Sequence,
)
from dataclasses import (
    dataclass,
    field,  # [lesson 04]
    replace,  # [lesson 14]
)
from pathlib import Path

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.agent.traced_loop import agent_loop  # [lesson 16]
from decode.agents.active import ActiveAgent, resumed_agent  # [lesson 12]
from decode.agents.catalog import DEFAULT_AGENT, discover_agents  # [lesson 12]
from decode.agents.definition import AGENT_TOOL, AgentDefinition  # [lesson 12]
from decode.agents.lineage import OnSubagent, Parent  # [lesson 12]
from decode.agents.subagents import Subagents  # [lesson 12]
from decode.config.redaction import redactor_for  # [lesson 06]
from decode.config.settings import Settings
from decode.context.planted import came_with_repository  # [lesson 15]
from decode.context.session import Session  # [lesson 08]
from decode.entities.asking import AskUser, ReviewPlan  # [lesson 10]
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta  # [lesson 05]
from decode.entities.executor import CommandExecutor  # [lesson 04]
from decode.entities.tools import ToolSpec
from decode.lsp.manager import LspManager  # [lesson 13]
from decode.mcp.loading import load_servers, mcp_capabilities  # [lesson 11]
from decode.mcp.servers import McpServers  # [lesson 11]
from decode.models.gateway import resolve_model
from decode.models.retry import OnRetry
from decode.permissions.gate import PermissionGate  # [lesson 06]
from decode.permissions.hook import ApproveCallback, PermissionHook  # [lesson 06]
from decode.permissions.redaction import SecretRedaction  # [lesson 06]
from decode.permissions.settings_files import SettingsProblem  # [lesson 08]
from decode.permissions.situation import PermissionSituation  # [lesson 06]
from decode.permissions.types import Mode  # [lesson 06]
from decode.recording.seam import recorded  # [lesson 17]
from decode.sandbox.executor import SandboxExecutor  # [lesson 14]
from decode.sandbox.types import SandboxError, SandboxMode  # [lesson 14]
from decode.sandbox.workspace import Workspace, discard_workspace, session_workspace  # [lesson 14]
from decode.tools.catalog import default_tools  # [lesson 04]
from decode.tools.environment import command_environment  # [lesson 05]
from decode.tools.escaped_names import EscapedNames  # [lesson 06]
from decode.tools.local import LocalExecutor  # [lesson 04]

logger = logging.getLogger(__name__)  # [lesson 12]


@dataclass
class LoopOptions:
    """What a front end asks for: where, with which settings and model, and its own callbacks."""

    home: Path
    """The launch directory (the Harness Home)."""
    settings: Settings
    model: str | None = None
    """None: the settings' model."""
    max_requests: int | None = None
    """The request ceiling of one turn; None: the settings'."""
    on_retry: OnRetry | None = None
    """Told of each retry of a failed model request, so the front end can show it."""
    # [lesson 04]
    tools: Sequence[ToolSpec] = field(default_factory=default_tools)
    # [before lesson 04]
    # tools: Sequence[ToolSpec] = ()
    # [/lesson 04]
    """The tools' declarations; a front end may give its own (an eval, a subagent)."""
    # [lesson 04]
    executor: CommandExecutor | None = None
    """None: a `LocalExecutor` in `home`."""
    # [/lesson 04]
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None  # [lesson 05]
    # [lesson 06]
    permission_mode: Mode | None = None
    """None: the settings files' `defaultMode`, else `default`."""
    approve: ApproveCallback | None = None
    """The approval prompt; None means headless: a call that needs approval is refused."""
    trust_project_settings: bool = False
    """Put the project's own allow rules and mode in force untrusted (`decode run --trust-project-settings`)."""
    # [/lesson 06]
    # [lesson 08]
    resume: str | None = None
    """None: a new session; "" the newest; else an id or prefix (`SessionError`: no such session).
    A resumed session keeps its own model and mode unless `model` or `permission_mode` is given."""
    # [/lesson 08]
    # [lesson 10]
    ask_user: AskUser | None = None
    """How the `ask_user` tool reaches the user; None means headless: the model is told no one can answer."""
    review_plan: ReviewPlan | None = None
    """How `exit_plan_mode` shows the plan and asks to leave plan mode; None: no one can approve."""
    # [/lesson 10]
    # [lesson 11]
    mcp: bool = True
    """Offer the tools of the MCP servers in the config files (a subagent may go without them)."""
    trust_project_mcp: bool = False
    """Start the project's `.mcp.json` servers without asking (`decode run --trust-project-mcp`)."""
    # [/lesson 11]
    # [lesson 12]
    agent: str | AgentDefinition | None = None
    """The agent to be: a name from the catalogue (`build`, `explore`…) or a definition; None: `build`.
    Its model and permission mode apply unless `model` or `permission_mode` is given."""
    on_subagent: OnSubagent | None = None
    """Told how each subagent is doing (`SubagentProgress`), so the front end can show it."""
    parent: Parent | None = None
    """Set for a subagent: what it takes from the conversation that spawns it."""
    # [/lesson 12]
    # [lesson 14]
    sandbox: str | None = None
    """Where the agent's commands run: `none`, `bwrap`, `docker` or `modal`; None: the settings'
    `sandbox_mode`. Not used when `executor` is given."""
    workspace: Path | None = None
    """The directory the agent works in when it is not `home` (a `--repo` clone); None: `home`."""
    repo: str | None = None
    """`--repo PATH|URL`: clone it into a Workspace under `.decode/workspaces/` and work there (its
    work comes back as branch `decode/<session-id>`); None: the settings' `sandbox_repo`, else none."""
    # [/lesson 14]
    # [lesson 16]
    trace_name: str = "decode_turn"
    """The name of each turn's trace when tracing is on: `chat_turn` (the REPL), `decode_run` (headless)."""
    # [/lesson 16]


@dataclass
class Conversation:
    """What `build_loop` made: the loop (with its history), and what it was built from and with."""

    loop: AgentLoop
    options: LoopOptions
    # [lesson 06]
    gate: PermissionGate
    """The Permission Gate the loop's tool calls ask."""
    # [/lesson 06]
    # [lesson 08]
    session: Session
    resumed_mode: bool = False
    """The permission mode came from the resumed session (front ends may say so)."""
    # [/lesson 08]
    # [lesson 11]
    mcp: McpServers | None = None
    """The MCP servers whose tools the agent has (None: no config file names one), not started:
    the front end starts them on its event loop, or the first request does."""
    # [/lesson 11]
    # [lesson 12]
    agent: ActiveAgent | None = None
    """The agent the conversation is: `switch_agent()` changes it in place."""
    subagents: Subagents | None = None
    """Its `agent` tool's side (None when its agent may not spawn any)."""
    # [/lesson 12]
    # [lesson 14]
    workspace: Workspace | None = None
    """The `--repo` clone the agent works in (None: the launch directory): the front end hands it back."""
    # [/lesson 14]


# [lesson 05]
def command_environment_for(settings: Settings) -> dict[str, str]:
    """The environment the agent's commands get under these settings: this process's, without
    credentials, passing through what `DECODE_PASS_ENV` names (`decode.tools.environment`)."""
    return command_environment(os.environ, Settings.secret_env_names(), settings.pass_env)


# [/lesson 05]
# [lesson 14]
def open_executor(options: LoopOptions) -> CommandExecutor:
    """The executor `options` ask for: local (`none`, exactly as before sandboxes), or a sandbox's,
    its preflight passed (a `SandboxError` if not: never a silent fall back to local)."""
    settings = options.settings
    mode = SandboxMode(options.sandbox or settings.sandbox_mode)
    workspace = options.workspace or options.home
    if mode is SandboxMode.NONE:
        return LocalExecutor(workspace, env=command_environment_for(settings))
    from decode.sandbox.backends import open_sandbox  # only a sandboxed session loads it

    return open_sandbox(mode, workspace, settings)


# [/lesson 14]
# What `build_loop()` wires, in order, for every front end:
#
#     settings
#       ─▶ session (new or resumed)  # [lesson 08]
#       ─▶ model (the Model Gateway)
#       ─▶ executor (local unless given)  # [lesson 04]
#       ─▶ Permission Gate (rules files, mode) ─▶ Permission Hook, Permission Situation  # [lesson 06]
#       ─▶ Agent (the tools, their traits)
#       ─▶ AgentLoop (history, usage)
def build_loop(options: LoopOptions) -> Conversation:
    """Build the Agent Loop a front end drives (the steps above)."""
    settings = options.settings
    # [lesson 12]
    catalog = discover_agents(options.home, trust_project=options.trust_project_settings)
    if options.parent is None:  # a subagent's catalogue is its parent's: said once
        for problem in catalog.problems:
            logger.warning("agent skipped: %s", problem)
    if isinstance(options.agent, AgentDefinition):
        definition = options.agent
    else:
        definition = catalog.get(options.agent or DEFAULT_AGENT)  # UnknownAgentError: a ConfigError
        if options.parent is None and definition.name in catalog.held:  # the project is not trusted
            logger.warning("%s", catalog.held[definition.name])
    # [/lesson 12]
    # [lesson 08]
    # [lesson 12]
    if options.parent is not None:  # a subagent: a fresh history, its transcript beside its parent's log
        session, history = options.parent.child_session(options.model or "", options.permission_mode, settings), []
    else:
        wanted = options.model or (None if definition.inherits_model else definition.model)
        session, history = Session.open(options.home, resume=options.resume, model=wanted, settings=settings)
    # A resumed session is the agent it was, in the mode it was in, unless `agent` says otherwise.
    restored = options.agent is None and options.resume is not None and session.agent is not None
    if restored:
        definition = resumed_agent(catalog, session.agent or DEFAULT_AGENT)
    session.switch_agent(definition.name)
    inherited = options.parent.model if options.parent is not None else None  # the parent's own model object
    model = inherited or resolve_model(session.model, settings, on_retry=options.on_retry)
    # [before lesson 12]
    # session, history = Session.open(options.home, resume=options.resume, model=options.model, settings=settings)
    # model = resolve_model(session.model, settings, on_retry=options.on_retry)
    # [/lesson 12]
    # [before lesson 08]
    # model = resolve_model(options.model or settings.model, settings, on_retry=options.on_retry)
    # [/lesson 08]
    # [lesson 04]
    # [lesson 05]
    # [lesson 14]
    # A resumed session stays in the sandbox it started in, unless `sandbox` says otherwise.
    header = session.log.header
    # [lesson 15]
    # A log the repository committed was written by whoever wrote the repository: it chooses neither
    # the sandbox nor the mode. And a resumed sandbox only ever adds one: `none` leaves the settings'.
    planted = options.resume is not None and came_with_repository(session.log.path)
    resumed_sandbox = header.sandbox if header.sandbox != "none" and not planted else None
    if options.resume is not None and options.sandbox is None and resumed_sandbox:
        options = replace(options, sandbox=resumed_sandbox)
    # [before lesson 15]
    # if options.resume is not None and options.sandbox is None and header.sandbox:
    #     options = replace(options, sandbox=header.sandbox)
    # [/lesson 15]
    elif options.parent is None and not session.log.path.exists():
        header.sandbox = options.sandbox or settings.sandbox_mode
    # A `--repo` clone named after the session (a resumed one goes on in its own); a subagent
    # works in its parent's. `WorkspaceError` (a `SandboxError`): the clone failed.
    repo = options.repo or settings.sandbox_repo
    workspace = session_workspace(options.home, repo, session.session_id) if options.parent is None else None
    if workspace is not None:
        options = replace(options, workspace=workspace.path)
    try:
        executor = options.executor or open_executor(options)  # SandboxError: this sandbox cannot run here
    except SandboxError:
        if workspace is not None:
            discard_workspace(workspace)  # a clone made for a session that does not start
        raise
    # [before lesson 14]
    # executor = options.executor or LocalExecutor(options.home, env=command_environment_for(settings))
    # [/lesson 14]
    # [before lesson 05]
    # executor = options.executor or LocalExecutor(options.home)
    # [/lesson 05]
    # [/lesson 04]
    # [lesson 06]
    # [lesson 12]
    mode = options.permission_mode or (None if restored else definition.permission_mode)
    # [before lesson 12]
    # mode = options.permission_mode
    # [/lesson 12]
    # [lesson 08]
    # [lesson 15]
    resumed = options.resume is not None and not planted
    resumed_mode = mode is None and resumed and session.mode in {m.value for m in Mode}
    # [before lesson 15]
    # resumed_mode = mode is None and options.resume is not None and session.mode in {m.value for m in Mode}
    # [/lesson 15]
    if resumed_mode:
        mode = Mode.parse(session.mode)
    # A session log lives in the project, where a repository can plant one: it never chooses
    # bypass (only --permission-mode or ~/.decode/settings.json do, ADR-0042).
    dropped_bypass = resumed_mode and mode is Mode.BYPASS
    if dropped_bypass:
        mode, resumed_mode = None, False
    # [/lesson 08]
    # [lesson 12]
    if options.parent is not None:  # a subagent: its parent's rules, and its parent's gate as its fence
        gate = options.parent.gate.fenced(mode or options.parent.gate.mode, read_only=definition.read_only)
    else:
        # [lesson 14]
        # The rules are the Harness Home's; the paths they judge, the Workspace's (a clone's own).
        scope = options.workspace
        gate = PermissionGate.from_settings(
            options.home,
            mode=mode,
            realpath=executor.realpath,
            secret_files=settings.secret_files,
            scope=scope,
            trust_project=options.trust_project_settings,
            other_grants=catalog.grants,  # the project's agents are trusted with its settings
        )
        # [before lesson 14]
        # gate = PermissionGate.from_settings(
        #     options.home,
        #     mode=mode,
        #     realpath=executor.realpath,
        #     secret_files=settings.secret_files,
        #     trust_project=options.trust_project_settings,
        #     other_grants=catalog.grants,  # the project's agents are trusted with its settings
        # )
        # [/lesson 14]
        gate.read_only = definition.read_only
    gate.confined = definition.confinement()  # `tools: Bash(git diff:*)`: bash for that alone
    # [before lesson 12]
    # gate = PermissionGate.from_settings(
    #     options.home,
    #     mode=mode,
    #     realpath=executor.realpath,
    #     secret_files=settings.secret_files,
    #     trust_project=options.trust_project_settings,
    # )
    # [/lesson 12]
    # [lesson 08]
    if dropped_bypass:
        message = "the resumed session ran in bypass mode; bypass is chosen only with --permission-mode bypass"
        gate.problems.append(SettingsProblem(session.log.path, None, message))
    # [lesson 15]
    if planted:
        message = (
            "this session log is tracked by git (it came with the repository): its sandbox and mode are not resumed"
        )
        gate.problems.append(SettingsProblem(session.log.path, None, message))
    # [/lesson 15]
    session.switch_mode(gate.mode.value)
    # [/lesson 08]
    # [lesson 14]
    # A sandbox without network: a command that asks for it needs the user, or a Network rule.
    gate.network_isolated = isinstance(executor, SandboxExecutor) and not executor.network
    # [/lesson 14]
    # [/lesson 06]
    # [lesson 13]
    # Language servers start when first asked. A subagent goes without: its servers would be its
    # own processes, started again for each one.
    lsp = LspManager(executor, settings.lsp_servers, timeout=settings.lsp_timeout) if settings.lsp else None
    # [/lesson 13]
    deps = AgentDeps(
        executor=executor,  # [lesson 04]
        settings=settings,
        harness_home=options.home,
        search_filter=gate,  # searches skip what the rules keep from reads  # [lesson 06]
        on_tool_output=options.on_tool_output,  # [lesson 05]
        # [lesson 10]
        todos=session.todos,  # one list: todo_write changes it, every turn line records it
        ask_user=options.ask_user,
        review_plan=options.review_plan,
        host_allowance=gate,  # web_fetch reaches a private host only when an allow rule names it
        # [/lesson 10]
        lsp=lsp if options.parent is None else None,  # [lesson 13]
    )
    # [lesson 11]
    # Built here, started by the front end on its event loop (or by the first request).
    mcp = None
    if options.mcp:
        trust, headless = options.trust_project_mcp, options.approve is None
        # [lesson 14]
        mcp = load_servers(options.home, settings, trust_project=trust, headless=headless, executor=executor)
        # [before lesson 14]
        # mcp = load_servers(options.home, settings, trust_project=trust, headless=headless)
        # [/lesson 14]
    if mcp is not None:  # a server may ask decode's model (gated) and the user (None: headless, declined)
        mcp.features.sampling_model, mcp.features.sampling = model, settings.mcp_sampling
        mcp.features.ask = options.ask_user
    # [/lesson 11]
    # [lesson 12]
    if options.parent is not None and definition.lists_mcp:  # a subagent uses its parent's servers
        mcp = options.parent.mcp
    # The primary agent can always spawn (`/agent` may switch to one that does); a subagent only if
    # its agent lists the `agent` tool.
    subagents = None
    if options.parent is None or AGENT_TOOL in (definition.tools or ()):
        parent = options.parent
        subagents = Subagents(catalog, options, parent.depth if parent else 0, parent.tree if parent else None)
    # The mode to return to when `/agent` leaves an agent that chose its own.
    base_mode = gate.mode if options.permission_mode or not definition.permission_mode else Mode.DEFAULT
    base_model = session.model if options.model or definition.inherits_model else settings.model
    active = ActiveAgent(definition, child=options.parent is not None, base_mode=base_mode, base_model=base_model)
    # [/lesson 12]
    agent = build_agent(
        model,
        # [lesson 12]
        tools=[*options.tools, *([subagents.tool()] if subagents is not None else [])],
        # [before lesson 12]
        # tools=options.tools,
        # [/lesson 12]
        # [lesson 06]
        capabilities=[
            EscapedNames(),  # a `caf\xe9.txt` path argument becomes the real name before the gate judges it
            PermissionHook(gate, harness_home=options.home, approve=options.approve),
            SecretRedaction(redactor_for(settings)),  # decode's keys never reach the model in a tool result
            # The model is told the mode (and that no one can approve, headless); plan mode offers only reads.
            PermissionSituation(gate, headless=options.approve is None),
            *mcp_capabilities(mcp),  # the MCP servers' tools, read again at every request  # [lesson 11]
            active,  # the agent's tools (by name, MCP tools too) and instructions  # [lesson 12]
        ],
        # [/lesson 06]
    )
    # [lesson 17]
    # Recorded to Kitaru only when recording is configured (`KITARU_…`), else kitaru is never imported.
    # A subagent's requests are not recorded on their own.
    if options.parent is None:
        agent = recorded(agent, settings, session.session_id)
    # [/lesson 17]
    # [lesson 16]
    # Traced only when tracing is configured (`OPIK_…`); otherwise the plain loop, and opik is never imported.
    limit = options.max_requests or settings.max_requests
    loop = agent_loop(agent, deps, model, limit, options, session, gate, active)
    # [before lesson 16]
    # loop = AgentLoop(agent, deps, model=model, max_requests=options.max_requests or settings.max_requests)
    # [/lesson 16]
    loop.session, loop.history = session, history  # [lesson 08]
    if subagents is not None:  # [lesson 12]
        subagents.attach(loop, gate, session, mcp)  # [lesson 12]
    return Conversation(
        loop=loop,
        options=options,
        gate=gate,  # [lesson 06]
        session=session,  # [lesson 08]
        resumed_mode=resumed_mode,  # [lesson 08]
        mcp=mcp,  # [lesson 11]
        agent=active,  # [lesson 12]
        subagents=subagents,  # [lesson 12]
        workspace=workspace,  # [lesson 14]
    )


# [lesson 13]
async def close_conversation(conversation: Conversation) -> None:
    """End what a conversation keeps running between turns: its language servers."""
    if (lsp := conversation.loop.deps.lsp) is not None:
        await lsp.close()


# [/lesson 13]
def switch_model(conversation: Conversation, model: str) -> None:
    """Use `model` from the next request on, in the same loop: only the model changes, all the
    conversation has built up stays. Raises `ModelConfigError` and changes nothing."""
    resolved = resolve_model(model, conversation.options.settings, on_retry=conversation.options.on_retry)
    conversation.loop.model = resolved
    conversation.session.switch_model(model)  # [lesson 08]


# [lesson 12]
def switch_agent(conversation: Conversation, name: str) -> AgentDefinition:
    """Be agent `name` from the next request on, in the same conversation: its tools, instructions,
    mode and model; the history stays. Raises `UnknownAgentError` (or `ModelConfigError` for the
    model it names) and changes nothing."""
    options = conversation.options
    definition = discover_agents(options.home, trust_project=options.trust_project_settings).get(name)
    active = conversation.agent
    if active is None:
        raise ValueError("this conversation was built without an agent")
    before = conversation.session.model
    if not definition.inherits_model:
        switch_model(conversation, definition.model)
        if active.definition.inherits_model:
            active.base_model = before  # the model to return to when an agent without one comes next
    elif not active.definition.inherits_model and active.base_model:  # leaving an agent that chose its model
        switch_model(conversation, active.base_model)
    gate = conversation.gate
    if definition.permission_mode is not None:
        gate.mode = definition.permission_mode
    elif active.definition.permission_mode is not None:  # leaving an agent that chose its mode
        gate.mode = active.base_mode or Mode.DEFAULT
    gate.read_only, gate.confined = definition.read_only, definition.confinement()
    active.definition = definition
    conversation.session.switch_mode(gate.mode.value)
    conversation.session.switch_agent(definition.name)
    return definition


# [/lesson 12]
