"""The composition root: the one function that builds an Agent Loop for a front end.

`decode run`, the REPL (and later the Modal app, subagents and the eval runner) each say what
they want in a `LoopOptions` (`options.py`): the launch directory, the model, and their own
callbacks. `build_loop(options, settings)` wires the rest the same way for all of them, as a list
of steps (`STEPS`), each a small function over one `Build` (`build.py`) that adds its part. A
lesson that adds to the agent adds a step here, in a module of its own (`steps/`).

Errors the user can fix come out as exceptions with a one-line message, such as `ModelConfigError`
(unknown provider, missing key). Front ends read the settings first with
`decode.config.loading.load_settings()` (`ConfigError`: a bad setting).
"""

from collections.abc import Sequence

from decode.agent.build import Build, Step
from decode.agent.options import Conversation, LoopOptions
from decode.agent.steps.added_dirs import add_dirs
from decode.agent.steps.agents import agent_mode, attach_subagents, build_subagents, choose_agent, confine, resume_agent
from decode.agent.steps.core import build_deps, choose_model, choose_tools, make_agent, make_loop
from decode.agent.steps.executor import decode_tools, open_executor
from decode.agent.steps.hooks import attach_hooks, hooks
from decode.agent.steps.lsp import language_servers
from decode.agent.steps.mcp import load_mcp
from decode.agent.steps.permissions import build_gate, choose_mode, guard
from decode.agent.steps.planted import distrust_planted
from decode.agent.steps.recording import record
from decode.agent.steps.sandbox import isolate_network, open_sandbox, open_workspace, resume_sandbox
from decode.agent.steps.session import keep_mode, open_session, resume_mode
from decode.agent.steps.structured import structured_output
from decode.agent.steps.unsaved import forget_session
from decode.config.settings import Settings
from decode.models.gateway import resolve_model

STEPS: list[Step] = [
    choose_agent,  # the catalogue's agent, or the one asked for  # [lesson 15]
    open_session,  # new or resumed  # [lesson 11]
    forget_session,  # `--no-session-persistence`  # [lesson 20]
    resume_agent,  # [lesson 15]
    distrust_planted,  # [lesson 20]
    resume_sandbox,  # [lesson 17]
    decode_tools,  # unless given  # [lesson 04]
    choose_tools,
    choose_model,  # the Model Gateway
    open_workspace,  # a `--repo` clone  # [lesson 19]
    open_sandbox,  # [lesson 17]
    open_executor,  # local unless given  # [lesson 04]
    choose_mode,  # [lesson 06]
    agent_mode,  # [lesson 15]
    resume_mode,  # [lesson 11]
    build_gate,  # the Permission Gate: the rules files, the mode  # [lesson 06]
    confine,  # [lesson 15]
    keep_mode,  # [lesson 11]
    isolate_network,  # [lesson 17]
    add_dirs,  # `--add-dir`: the executor's, the sandbox's and the gate's  # [lesson 17]
    guard,  # the Permission Hook, Permission Situation  # [lesson 06]
    hooks,  # the settings' hooks: PreToolUse in the Permission Hook, PostToolUse around each call  # [lesson 12]
    build_deps,
    language_servers,  # [lesson 16]
    load_mcp,  # [lesson 14]
    build_subagents,  # [lesson 15]
    make_agent,  # the tools, their traits, the capabilities
    structured_output,  # `--json-schema`  # [lesson 20]
    record,  # [lesson 23]
    make_loop,  # history, usage
    attach_hooks,  # the harness runs UserPromptSubmit, Stop… around each turn  # [lesson 12]
    attach_subagents,  # [lesson 15]
]
"""What `build_loop()` wires, in order, for every front end."""


def run_steps(steps: Sequence[Step], build: Build) -> Conversation:
    """Each step in turn over `build`; the conversation they made."""
    for step in steps:
        step(build)
    return build.conversation()


def build_loop(options: LoopOptions, settings: Settings) -> Conversation:
    """Build the Agent Loop a front end drives (the `STEPS` above)."""
    return run_steps(STEPS, Build(options, settings))


async def close_conversation(conversation: Conversation) -> None:  # [lesson 16]
    """End what a conversation keeps running between turns: its language servers."""
    if (lsp := conversation.loop.deps.lsp) is not None:
        await lsp.close()


def switch_model(conversation: Conversation, model: str) -> None:
    """Use `model` from the next request on, in the same loop: only the model changes, all the
    conversation has built up stays. Raises `ModelConfigError` and changes nothing."""
    resolved = resolve_model(model, conversation.settings, on_retry=conversation.options.on_retry)
    conversation.loop.model = resolved
    conversation.session.switch_model(model)  # [lesson 11]
