"""Session ids a script chooses (`--session-id UUID`) and forks it asks for (`--fork-session`).

Claude Code's scripts name a session before it starts and resume it by that name:

    id=$(uuidgen); decode run --session-id "$id" "step 1"; decode run --resume "$id" "step 2"

decode's own ids stay eight hex digits, short enough to type; a session the user named is named
by the whole UUID, in lower case (`uuidgen` on macOS prints capitals: either case resumes it), in
its log's file name, its header, `decode sessions`, the result object and its `decode/<id>` branch.
`--fork-session` continues a saved session in a new one, its history a copy of the original's
(`session_fork.copy_log`); the original log is never written. ADR-0129.

Only `re` at module level: the command line checks an id before anything heavy is imported.
"""

from __future__ import annotations

import re
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage

    from decode.config.settings import Settings
    from decode.context.session import Session

UUID_FORM = re.compile(r"[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}")
"""A UUID as `uuidgen` prints it: 8-4-4-4-12 hex digits (any version), compared in lower case."""


class SessionIdError(ValueError):
    """An id `--session-id` cannot take; the message says why, for the user."""


def given_session_id(value: str) -> str:
    """`--session-id`'s value as the session's id: the UUID in lower case. `SessionIdError` otherwise."""
    text = value.strip().lower()
    if not UUID_FORM.fullmatch(text):
        raise SessionIdError(
            f"--session-id {value!r} is not a UUID (8-4-4-4-12 hex digits, as uuidgen prints; "
            "without --session-id decode names the session itself)"
        )
    return text


def session_options_problem(*, session_id: str | None, resume: str | None, fork: bool) -> str:
    """Why `--session-id`/`--fork-session` cannot go with the other options given ("" when they can).
    `resume` is `--resume`'s value ("" for `--continue` or the newest), None without it."""
    if fork and resume is None:
        return "--fork-session needs --resume ID or --continue: it copies a saved session into a new one"
    if session_id is not None and resume is not None and not fork:
        return "--session-id names a new session: with --resume or --continue, add --fork-session"
    if session_id is not None:
        try:
            given_session_id(session_id)
        except SessionIdError as exc:
            return str(exc)
    return ""


def check_unused(home: Path, session_id: str) -> None:
    """`SessionIdError` when a session of `home` already has the id `session_id` (one no process can
    resume counts too: its file is there)."""
    from decode.context.session_log import SESSIONS_DIR

    directory = home / SESSIONS_DIR
    if directory.is_dir() and any(directory.glob(f"*_{session_id}.jsonl")):
        raise SessionIdError(f"session id {session_id} is already used (`decode --resume {session_id}` continues it)")


def open_chosen(
    home: Path,
    *,
    resume: str | None,
    session_id: str | None,
    fork: bool,
    model: str | None,
    settings: Settings,
) -> tuple[Session, list[ModelMessage]]:
    """`Session.open`, with the session's id given (`session_id`) or a fork of the resumed one (`fork`).

    Raises `SessionError` (no such session, a malformed or used id) with a message for the user.
    """
    from decode.context.session import Session
    from decode.context.session_log import SessionError

    try:
        chosen = given_session_id(session_id) if session_id is not None else None
        if chosen is not None:
            check_unused(home, chosen)
    except SessionIdError as exc:
        raise SessionError(str(exc)) from None
    if resume is not None and fork:
        return fork_saved(home, resume or None, session_id=chosen, model=model, settings=settings)
    session, history = Session.open(home, resume=resume, model=model, settings=settings)
    if chosen is not None:
        name_new_session(session, chosen)
    return session, history


def fork_saved(
    home: Path, ref: str | None, *, session_id: str | None, model: str | None, settings: Settings
) -> tuple[Session, list[ModelMessage]]:
    """A new session (id `session_id`, else one of decode's own) holding a copy of saved session
    `ref`'s log (the newest when None), to continue from; the original is read, never written."""
    from decode.context.catalog import find_session
    from decode.context.replay import first_line, open_log, read_header
    from decode.context.session import Session
    from decode.context.session_fork import copy_log
    from decode.context.session_log import new_session_id

    source = find_session(home, ref)
    with open_log(source) as file:
        header = read_header(first_line(file), source)
    path, lock = copy_log(source, header, session_id or new_session_id())
    session, loaded = Session.held(path, lock, model=model, settings=settings)
    return session, loaded.history


def name_new_session(session: Session, session_id: str) -> None:
    """Give a new session, which has written nothing yet, the id `session_id` (its log's name follows)."""
    log = session.log
    if log.path.exists():
        raise SessionIdError(f"session {log.session_id} is saved already: it keeps its id")
    stamp = log.path.name.partition("_")[0]  # `<UTC timestamp>_<id>.jsonl`
    log.header.session_id = session_id
    log.path = log.path.with_name(f"{stamp}_{session_id}.jsonl")
