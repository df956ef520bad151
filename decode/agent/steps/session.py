"""The session steps (lesson 11): a new session or a resumed one, and the mode a resumed one was in."""

from decode.agent.build import Build
from decode.context.session import Session
from decode.context.session_ids import open_chosen
from decode.permissions.settings_files import SettingsProblem
from decode.permissions.types import Mode


def open_session(b: Build) -> None:
    """A new session, or the saved one `resume` names (`SessionError`: none such), with its history."""
    options = b.options
    # [lesson 15]
    definition = b.definition
    wanted = options.model or (None if definition.inherits_model else definition.model)
    # [before lesson 15]
    # wanted = options.model
    # [/lesson 15]
    if options.session_id is not None or options.fork_session:  # `--session-id UUID`, `--fork-session`  # [lesson 20]
        b.session, b.history = open_chosen(
            options.home,
            resume=options.resume,
            session_id=options.session_id,
            fork=options.fork_session,  # a copy of the resumed session, under a new id
            model=wanted,
            settings=b.settings,
        )
        return
    b.session, b.history = Session.open(options.home, resume=options.resume, model=wanted, settings=b.settings)


def resume_mode(b: Build) -> None:
    """A resumed session goes on in the mode it was in, unless a mode is asked for. A session log
    lives in the project, where a repository can plant one: it never chooses bypass (only
    --permission-mode or ~/.decode/settings.json do, ADR-0042)."""
    # [lesson 20]
    resumed = b.options.resume is not None and not b.planted
    # [before lesson 20]
    # resumed = b.options.resume is not None
    # [/lesson 20]
    b.resumed_mode = b.mode is None and resumed and b.session.mode in {m.value for m in Mode}
    if b.resumed_mode:
        b.mode = Mode.parse(b.session.mode or "")
    if b.resumed_mode and b.mode is Mode.BYPASS:
        b.mode, b.resumed_mode = None, False
        b.problems.append("the resumed session ran in bypass mode; bypass is chosen only with --permission-mode bypass")


def keep_mode(b: Build) -> None:
    """The session records the gate's mode; what the session steps found is told with the gate's problems."""
    b.gate.problems += [SettingsProblem(b.session.log.path, None, message) for message in b.problems]
    b.session.switch_mode(b.gate.mode.value)
