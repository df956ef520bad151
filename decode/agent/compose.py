"""The composition root: the one function that builds an Agent Loop for a front end.

`decode run`, the REPL (and later the Modal app, subagents and the eval runner) each describe
what they want in a `LoopOptions`: the launch directory, settings, model, and their own
callbacks. `build_loop()` wires the rest the same way for all of them (the steps are drawn
above it).

Errors the user can fix come out as exceptions with a one-line message, such as `ModelConfigError`
(unknown provider, missing key). Front ends read the settings first with
`decode.config.loading.load_settings()` (`ConfigError`: a bad setting).
"""

import os  # [lesson 05]
from collections.abc import (
    Callable,  # [lesson 05]
    Sequence,
)
from dataclasses import (
    dataclass,
    field,  # [lesson 04]
)
from pathlib import Path

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.session import Session  # [lesson 08]
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolOutputDelta  # [lesson 05]
from decode.entities.executor import CommandExecutor  # [lesson 04]
from decode.entities.tools import ToolSpec
from decode.models.gateway import resolve_model
from decode.models.retry import OnRetry
from decode.permissions.gate import PermissionGate  # [lesson 06]
from decode.permissions.hook import ApproveCallback, PermissionHook  # [lesson 06]
from decode.permissions.settings_files import SettingsProblem  # [lesson 08]
from decode.permissions.situation import PermissionSituation  # [lesson 06]
from decode.permissions.types import Mode  # [lesson 06]
from decode.tools.catalog import default_tools  # [lesson 04]
from decode.tools.environment import command_environment  # [lesson 05]
from decode.tools.local import LocalExecutor  # [lesson 04]


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
    # [/lesson 06]
    # [lesson 08]
    resume: str | None = None
    """None: a new session; "" the newest; else an id or prefix (`SessionError`: no such session).
    A resumed session keeps its own model and mode unless `model` or `permission_mode` is given."""
    # [/lesson 08]


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


# [lesson 05]
def command_environment_for(settings: Settings) -> dict[str, str]:
    """The environment the agent's commands get under these settings: this process's, without
    credentials, passing through what `DECODE_PASS_ENV` names (`decode.tools.environment`)."""
    return command_environment(os.environ, Settings.secret_env_names(), settings.pass_env)


# [/lesson 05]
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
    # [lesson 08]
    session, history = Session.open(options.home, resume=options.resume, model=options.model, settings=settings)
    model = resolve_model(session.model, settings, on_retry=options.on_retry)
    # [before lesson 08]
    # model = resolve_model(options.model or settings.model, settings, on_retry=options.on_retry)
    # [/lesson 08]
    # [lesson 04]
    # [lesson 05]
    executor = options.executor or LocalExecutor(options.home, env=command_environment_for(settings))
    # [before lesson 05]
    # executor = options.executor or LocalExecutor(options.home)
    # [/lesson 05]
    # [/lesson 04]
    # [lesson 06]
    mode = options.permission_mode
    # [lesson 08]
    resumed_mode = mode is None and options.resume is not None and session.mode in {m.value for m in Mode}
    if resumed_mode:
        mode = Mode.parse(session.mode)
    # A session log lives in the project, where a repository can plant one: it never chooses
    # bypass (only --permission-mode or ~/.decode/settings.json do, ADR-0042).
    dropped_bypass = resumed_mode and mode is Mode.BYPASS
    if dropped_bypass:
        mode, resumed_mode = None, False
    # [/lesson 08]
    gate = PermissionGate.from_settings(
        options.home, mode=mode, realpath=executor.realpath, secret_files=settings.secret_files
    )
    # [lesson 08]
    if dropped_bypass:
        message = "the resumed session ran in bypass mode; bypass is chosen only with --permission-mode bypass"
        gate.problems.append(SettingsProblem(session.log.path, None, message))
    session.switch_mode(gate.mode.value)
    # [/lesson 08]
    # [/lesson 06]
    deps = AgentDeps(
        executor=executor,  # [lesson 04]
        settings=settings,
        harness_home=options.home,
        search_filter=gate,  # searches skip what the rules keep from reads  # [lesson 06]
        on_tool_output=options.on_tool_output,  # [lesson 05]
    )
    agent = build_agent(
        model,
        tools=options.tools,
        # [lesson 06]
        capabilities=[
            PermissionHook(gate, harness_home=options.home, approve=options.approve),
            # The model is told the mode (and that no one can approve, headless); plan mode offers only reads.
            PermissionSituation(gate, headless=options.approve is None),
        ],
        # [/lesson 06]
    )
    loop = AgentLoop(agent, deps, model=model, max_requests=options.max_requests or settings.max_requests)
    loop.session, loop.history = session, history  # [lesson 08]
    return Conversation(
        loop=loop,
        options=options,
        gate=gate,  # [lesson 06]
        session=session,  # [lesson 08]
        resumed_mode=resumed_mode,  # [lesson 08]
    )


def switch_model(conversation: Conversation, model: str) -> None:
    """Use `model` from the next request on, in the same loop: only the model changes, all the
    conversation has built up stays. Raises `ModelConfigError` and changes nothing."""
    resolved = resolve_model(model, conversation.options.settings, on_retry=conversation.options.on_retry)
    conversation.loop.model = resolved
    conversation.session.switch_model(model)  # [lesson 08]
