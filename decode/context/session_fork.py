"""Forking a session that another decode holds: continue its conversation in a new session.

`decode --resume ID` while another decode still has session ID open (its Session Lock is held)
must not write to that log: both would append turns to one file, each from a history the other
keeps changing. So the second decode copies the log as it is now into a new session (a new id,
its header saying `forked_from`), holds that one, and goes on there. The original log is never
written; the user is told which new session they are in. (`copy_log` makes the copy; a fork the
user asks for, `decode run --fork-session` in lesson 20, is made by it too.)
"""

import logging
import os
from datetime import UTC, datetime
from pathlib import Path

from decode.config.harness_home import private_open
from decode.context.catalog import session_id_of
from decode.context.session_lock import SessionBusy, SessionLock, hold
from decode.context.session_log import SessionError, SessionHeader, new_session_id

logger = logging.getLogger(__name__)


def fork_session(busy: SessionBusy, header: SessionHeader) -> tuple[Path, SessionLock]:
    """Copy the held log `busy.log` (whose header is `header`) into a new session held by this process.

    Returns the new log's path and its lock. A last line the holder is still writing is left
    out. `SessionError` when the copy cannot be written.
    """
    path, lock = copy_log(busy.log, header, new_session_id())
    holder = f"another decode (pid {busy.pid})" if busy.pid else "another decode"
    logger.warning(
        "session %s is open in %s; continuing in a new session %s forked from it",
        header.session_id,
        holder,
        session_id_of(path),
    )
    return path, lock


def copy_log(log: Path, header: SessionHeader, session_id: str) -> tuple[Path, SessionLock]:
    """Copy session log `log` (whose header is `header`) into a new session `session_id`, held by
    this process; its header says `forked_from`. Returns the new log's path and its lock.

    Only complete lines are copied (not a last line a holder is still writing). `SessionError`
    when the copy cannot be written (a file of its name is there already, too).
    """
    created = datetime.now(UTC)
    forked = header.model_copy(
        update={"session_id": session_id, "created_at": created, "forked_from": session_id_of(log)}
    )
    path = log.with_name(f"{created:%Y%m%dT%H%M%SZ}_{session_id}.jsonl")
    try:
        lock = hold(path)  # before the file exists: no other decode can take the new session either
    except (OSError, SessionBusy) as exc:  # a read-only folder; a planted link in the lock file's place
        raise SessionError(f"could not copy session {header.session_id} into a new one: {exc}") from None
    try:
        with log.open("rb") as source, private_open(path, "xb") as copy:
            source.readline()  # the original header: the fork has its own
            copy.write(forked.model_dump_json().encode() + b"\n")
            for line in source:
                if line.endswith(b"\n"):  # not a last line the holder is still writing
                    copy.write(line)
            copy.flush()
            os.fsync(copy.fileno())
    except OSError as exc:
        if not isinstance(exc, FileExistsError):  # never remove a log this process did not write
            path.unlink(missing_ok=True)
        lock.release()
        raise SessionError(f"could not copy session {header.session_id} into a new one: {exc}") from None
    return path, lock
