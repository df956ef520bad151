"""The sandbox steps (lesson 17; the `--repo` clone, lesson 19): where the agent's commands run, and in which directory.

- `resume_sandbox`: a resumed session stays in the sandbox it started in, unless one is asked for;
- `open_workspace`: `--repo` clones the Workspace the agent works in, named after the session;
- `open_sandbox`: the executor, local (`none`, exactly as before sandboxes) or a sandbox's;
- `isolate_network`: a sandbox without network, where a command that asks for it needs the user
  or a `Network` rule.
"""

from dataclasses import replace

from decode.agent.build import Build
from decode.agent.options import LoopOptions
from decode.agent.steps.executor import local_executor
from decode.config.settings import Settings
from decode.entities.executor import CommandExecutor
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError, SandboxMode
from decode.sandbox.workspace import discard_workspace, session_workspace


def resume_sandbox(b: Build) -> None:
    """A resumed session's sandbox, unless `sandbox` is given; a new session records its own."""
    options, header = b.options, b.session.log.header
    # [lesson 20]
    # A log the repository committed chooses no sandbox; a resumed `none` leaves the settings'.
    resumed = header.sandbox if header.sandbox != "none" and not b.planted else None
    # [before lesson 20]
    # resumed = header.sandbox
    # [/lesson 20]
    if options.resume is not None and options.sandbox is None and resumed:
        b.options = replace(options, sandbox=resumed)
    elif options.parent is None and not b.session.log.path.exists():
        header.sandbox = options.sandbox or b.settings.sandbox_mode


def open_workspace(b: Build) -> None:  # [lesson 19]
    """A `--repo` clone named after the session (a resumed one goes on in its own); a subagent works
    in its parent's. `WorkspaceError` (a `SandboxError`): the clone failed."""
    if b.options.parent is not None:
        return
    b.workspace = session_workspace(b.options.home, b.options.repo or b.settings.sandbox_repo, b.session.session_id)
    if b.workspace is not None:
        b.options = replace(b.options, workspace=b.workspace.path)


def executor_for(options: LoopOptions, settings: Settings) -> CommandExecutor:
    """The executor `options` ask for: local (`none`), or a sandbox's, its preflight passed (a
    `SandboxError` if not: never a silent fall back to local)."""
    mode = SandboxMode(options.sandbox or settings.sandbox_mode)
    workspace = options.workspace or options.home
    if mode is SandboxMode.NONE:
        return local_executor(workspace, settings)
    from decode.sandbox.backends import open_sandbox as open_backend  # only a sandboxed session loads it

    return open_backend(mode, workspace, settings)


def open_sandbox(b: Build) -> None:
    """The executor the options ask for, unless the front end gives one (then `open_executor` takes that)."""
    if b.options.executor is not None:
        return
    # [lesson 19]
    try:
        b.options = replace(b.options, executor=executor_for(b.options, b.settings))
    except SandboxError:
        if b.workspace is not None:
            discard_workspace(b.workspace)  # a clone made for a session that does not start
        raise
    # [before lesson 19]
    # b.options = replace(b.options, executor=executor_for(b.options, b.settings))
    # [/lesson 19]


def isolate_network(b: Build) -> None:
    """A sandbox without network: a command that asks for it needs the user, or a `Network` rule."""
    b.gate.network_isolated = isinstance(b.executor, SandboxExecutor) and not b.executor.network
