"""The session catalogue: the sessions saved in a directory, and finding one by its id.

Sessions belong to the directory decode was launched in (the Harness Home): `decode sessions`
lists that directory's `.decode/sessions/`, newest activity first, and `--resume` looks there.
An id can be shortened to any prefix that names one session only, as with git commits.
"""

import logging
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path

from pydantic import BaseModel, ConfigDict, ValidationError

from decode.config.harness_home import leads_out
from decode.context.replay import first_line, open_log, read_header
from decode.context.session_log import SESSIONS_DIR, SessionError, SessionLogError
from decode.entities.usage import Usage

logger = logging.getLogger(__name__)


class SessionNotFoundError(SessionError, LookupError):
    """No session (or more than one) matches what the user asked for; the message says which."""


@dataclass(frozen=True)
class SessionInfo:
    """One line of `decode sessions`."""

    session_id: str
    path: Path
    created_at: datetime
    updated_at: datetime
    model: str
    first_prompt: str
    turns: int
    tokens: int


class _ListingLine(BaseModel):
    """A record as the listing reads it: everything but the messages, which it never builds."""

    model_config = ConfigDict(extra="ignore")

    type: str
    prompt: str = ""
    model: str | None = None
    usage: Usage | None = None


def session_files(home: Path) -> list[Path]:
    """The session logs under `home`, most recently active first."""
    directory = home / SESSIONS_DIR
    if not directory.is_dir():
        return []
    # A log linked out of the project (another project's sessions) is not this project's to resume.
    files = [path for path in directory.glob("*.jsonl") if path.is_file() and not leads_out(directory.parent, path)]
    # Ties (two writes in the same clock tick) fall back to the name, which starts with the creation time.
    return sorted(files, key=lambda path: (path.stat().st_mtime_ns, path.name), reverse=True)


def session_id_of(path: Path) -> str:
    """The id in a log's file name (`<UTC timestamp>_<id>.jsonl`)."""
    return path.stem.partition("_")[2] or path.stem


def describe_session(path: Path) -> SessionInfo:
    """Read a log for the listing. Raises `SessionLogError` for a file that is not one."""
    with open_log(path) as file:
        header = read_header(first_line(file), path)
        model, first_prompt, turns, usage = header.model, "", 0, Usage()
        for line in file:
            try:
                record = _ListingLine.model_validate_json(line)
            except ValidationError:
                continue  # a torn last line: the listing counts what loads
            if record.type == "turn":
                turns += 1
                first_prompt = first_prompt or record.prompt
                model = record.model or model
            if record.usage is not None:
                usage = usage + record.usage
    updated = datetime.fromtimestamp(path.stat().st_mtime, UTC)
    return SessionInfo(
        session_id=header.session_id,
        path=path,
        created_at=header.created_at,
        updated_at=updated,
        model=model,
        first_prompt=first_prompt,
        turns=turns,
        tokens=usage.total_tokens,
    )


def list_sessions(home: Path) -> list[SessionInfo]:
    """Every readable session under `home`, most recently active first (others are skipped with a warning)."""
    sessions = []
    for path in session_files(home):
        try:
            sessions.append(describe_session(path))
        except (OSError, SessionLogError) as exc:
            logger.warning("skipping %s: %s", path.name, exc)
    return sessions


def find_session(home: Path, ref: str | None = None) -> Path:
    """The log of session `ref` (its id or a unique prefix), or the most recent one when `ref` is None."""
    files = session_files(home)
    where = home / SESSIONS_DIR
    if not files:
        raise SessionNotFoundError(f"no saved sessions in {where}")
    if ref is None:
        return files[0]
    ref = ref.strip().lower()
    exact = [path for path in files if session_id_of(path) == ref]
    if exact:
        return exact[0]
    matches = [path for path in files if session_id_of(path).startswith(ref)]
    if not ref or not matches:
        raise SessionNotFoundError(f"no session {ref!r} in {where} (`decode sessions` lists them)")
    if len(matches) > 1:
        ids = ", ".join(session_id_of(path) for path in matches)
        raise SessionNotFoundError(f"session id {ref!r} is ambiguous: it starts {ids}")
    return matches[0]
