"""The composition root: the one function that builds an Agent Loop for a front end.

The REPL, `decode run` (and later the Modal app, subagents and the eval runner) each describe
what they want in a `LoopOptions`: the launch directory, settings, model, session to resume,
permission mode, and their own callbacks (the REPL's approval prompt, where tool output goes).
`build_loop()` wires the rest the same way for all of them:

    settings ─▶ session (new or resumed) ─▶ model (the Model Gateway)
    executor (local unless given) ─▶ Permission Gate (rules files, mode) ─▶ Permission Hook
    tools (their traits) + hook ─▶ Agent ─▶ AgentLoop (history, usage, session)

Errors the user can fix come out as exceptions with a one-line message: `ModelConfigError`
(unknown provider, missing key) and `SessionError` (no such session). Front ends read the
settings first with `decode.config.loading.load_settings()` (`ConfigError`: a bad setting).
"""

import os
from collections.abc import Callable, Sequence
from dataclasses import dataclass, field
from pathlib import Path

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.session import Session
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta
from decode.entities.executor import CommandExecutor
from decode.entities.tools import ToolSpec
from decode.models.gateway import resolve_model
from decode.models.retry import OnRetry
from decode.permissions.gate import PermissionGate
from decode.permissions.hook import ApproveCallback, PermissionHook
from decode.permissions.settings_files import SettingsProblem
from decode.permissions.types import Mode
from decode.tools.catalog import default_tools
from decode.tools.environment import command_environment
from decode.tools.local import LocalExecutor


@dataclass
class LoopOptions:
    """What a front end asks for. `home` is the launch directory (the Harness Home).

    `model` None: the session's model (a resumed one keeps its own), else the settings'.
    `resume` None: a new session; "" the newest; else an id or prefix. `permission_mode` None:
    a resumed session's mode, else the settings files' `defaultMode`, else `default`.
    `approve` None means headless: a call that needs approval is refused.
    """

    home: Path
    settings: Settings
    model: str | None = None
    resume: str | None = None
    permission_mode: Mode | None = None
    max_requests: int | None = None
    approve: ApproveCallback | None = None
    on_tool_output: Callable[[ToolOutputDelta], None] | None = None
    on_retry: OnRetry | None = None
    executor: CommandExecutor | None = None
    tools: Sequence[ToolSpec] = field(default_factory=default_tools)


@dataclass
class Conversation:
    """What `build_loop` made: the loop (with its session and history) and the gate it asks."""

    loop: AgentLoop
    gate: PermissionGate
    session: Session
    options: LoopOptions
    resumed_mode: bool = False
    """The permission mode came from the resumed session (front ends may say so)."""


def command_environment_for(settings: Settings) -> dict[str, str]:
    """The environment the agent's commands get under these settings: this process's, without
    credentials, passing through what `DECODE_PASS_ENV` names (`decode.tools.environment`)."""
    return command_environment(os.environ, Settings.secret_env_names(), settings.pass_env)


def build_loop(options: LoopOptions) -> Conversation:
    """Build the Agent Loop a front end drives (see the module docstring)."""
    settings = options.settings
    session, history = Session.open(options.home, resume=options.resume, model=options.model, settings=settings)
    mode, resumed_mode = options.permission_mode, False
    if mode is None and options.resume is not None and session.mode in {m.value for m in Mode}:
        mode, resumed_mode = Mode.parse(session.mode), True
    # A session log lives in the project, where a repository can plant one: it never chooses
    # bypass (only --permission-mode or ~/.decode/settings.json do, ADR-0042).
    dropped_bypass = resumed_mode and mode is Mode.BYPASS
    if dropped_bypass:
        mode, resumed_mode = None, False
    model = resolve_model(session.model, settings, on_retry=options.on_retry)
    executor = options.executor or LocalExecutor(options.home, env=command_environment_for(settings))
    gate = PermissionGate.from_settings(
        options.home, mode=mode, realpath=executor.realpath, secret_files=settings.secret_files
    )
    if dropped_bypass:
        message = "the resumed session ran in bypass mode; bypass is chosen only with --permission-mode bypass"
        gate.problems.append(SettingsProblem(session.log.path, None, message))
    session.switch_mode(gate.mode.value)
    deps = AgentDeps(
        executor=executor,
        settings=settings,
        harness_home=options.home,
        on_tool_output=options.on_tool_output,
        search_filter=gate,  # searches skip what the rules keep from reads
    )
    hook = PermissionHook(gate, harness_home=options.home, approve=options.approve)
    agent = build_agent(model, tools=options.tools, capabilities=[hook])
    loop = AgentLoop(agent, deps, model=model, max_requests=options.max_requests or settings.max_requests)
    loop.session, loop.history = session, history
    return Conversation(loop=loop, gate=gate, session=session, options=options, resumed_mode=resumed_mode)


def switch_model(conversation: Conversation, model: str) -> None:
    """Use `model` from the next request on, in the same loop: history, usage, the Read Ledger,
    the gate's mode and "always" rules all stay. Raises `ModelConfigError` and changes nothing."""
    resolved = resolve_model(model, conversation.options.settings, on_retry=conversation.options.on_retry)
    conversation.loop.model = resolved
    conversation.session.switch_model(model)
