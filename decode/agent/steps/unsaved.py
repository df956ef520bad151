"""The no-persistence step (lesson 20): `decode run --no-session-persistence` keeps nothing on disk.

The session is still a session (its id, its context window, its compaction), but its log writes
nothing and its checkpoints keep nothing: no file under `.decode/sessions/`, nothing to `--resume`
later (Claude Code's option).
"""

from collections.abc import Sequence

from pydantic import BaseModel
from pydantic_ai.messages import ModelMessage

from decode.agent.build import Build
from decode.context.session_log import SessionLog


class UnsavedLog(SessionLog):
    """A Session Log that writes nothing."""

    def append(self, record: BaseModel, messages: Sequence[ModelMessage] | None = None) -> None:
        return None


def forget_session(b: Build) -> None:
    """Without persistence, the session's log is one that writes nothing (a resumed one is let go)."""
    if not b.options.session_persistence:
        log = b.session.log
        if b.options.fork_session and b.options.resume is not None:  # the copy `--fork-session` just made
            log.path.unlink(missing_ok=True)
        log.close()  # a resumed session's lock: another decode may continue it
        b.session.log = UnsavedLog(log.path, log.header)
        b.session.checkpoints.active = False  # no file kept beside the log either
