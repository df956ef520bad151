"""Replaying a Session Log: the history to continue from, and what the session ran with.

The history is made by the lines after the last compaction or clear, so `load_session` reads the
file twice: once to find where that line is (looking only at how each line begins), then to build
the messages from there. The lines before are never turned into messages: memory follows the
history kept, not the size of the file. A line that cannot be read is skipped with a warning (a
torn last line is what a crash mid-write leaves); every complete turn is kept. A rewind line
cuts the history back; the turns since the last compaction or clear are kept as `TurnMark`s (where
each starts, its prompt, the files it changed), so `/undo` and `/rewind` work after `--resume`.
"""

import contextlib
import gc
import logging
from collections.abc import Generator
from dataclasses import dataclass, field
from pathlib import Path
from typing import BinaryIO

from pydantic import BaseModel, ConfigDict, ValidationError
from pydantic_ai.messages import ModelMessage

from decode.config.safe_read import UnreadableFile, open_regular
from decode.context.checkpoints import TurnMark
from decode.context.session_log import (
    FORMAT_VERSION,
    ClearRecord,
    CompactionRecord,
    RewindRecord,
    SessionHeader,
    SessionLogError,
    TurnRecord,
    record_adapter,
)
from decode.entities.todos import Todo

logger = logging.getLogger(__name__)


@dataclass
class LoadedSession:
    """A session read back: the history to continue from, and what it ran with."""

    path: Path
    header: SessionHeader
    history: list[ModelMessage] = field(default_factory=list)
    model: str = ""
    """The model of the latest turn (the header's if there is none)."""
    mode: str | None = None
    turns: int = 0
    skipped_lines: int = 0
    todos: list[Todo] = field(default_factory=list)  # the To-do List as of the latest turn  # [lesson 13]
    agent: str | None = None  # the Primary Agent of the latest turn (the header's if there is none)  # [lesson 15]
    marks: list[TurnMark] = field(default_factory=list)
    """The turns since the last compaction or clear, oldest first: what `/rewind` offers."""
    add_dirs: list[str] = field(default_factory=list)  # [lesson 20]
    """The folders beside the Workspace as of the latest turn (`--add-dir`, `/add-dir`)."""

    @property
    def session_id(self) -> str:
        return self.header.session_id


class _TurnSettings(BaseModel):
    """What a turn line says it ran with, read without building its messages."""

    model_config = ConfigDict(extra="ignore")

    model: str
    mode: str | None = None
    todos: list[Todo] | None = None  # [lesson 13]
    agent: str | None = None  # [lesson 15]
    add_dirs: list[str] | None = None  # [lesson 20]


# How the lines decode writes begin (`type` is every record's first field). A line that begins
# otherwise is still replayed: these only let `load_session` skip what a later line replaces.
_TURN_START = b'{"type":"turn"'
_RESTART_STARTS = (b'{"type":"compaction"', b'{"type":"clear"')


MAX_HEADER_BYTES = 64 << 10
"""A header line is a few hundred bytes: a first "line" longer than this is not one."""


def open_log(path: Path) -> BinaryIO:
    """`path` opened to read, a regular file only (never a wait on a FIFO or an endless device);
    `SessionLogError` naming the file otherwise. Read its header with `read_header(first_line(f))`."""
    try:
        return open(open_regular(path, what="a session log"), "rb")
    except UnreadableFile as exc:
        raise SessionLogError(str(exc)) from None


def first_line(file: BinaryIO) -> bytes:
    """The header line of an open log, at most `MAX_HEADER_BYTES` of it (a 10 GB first line is not read)."""
    return file.readline(MAX_HEADER_BYTES)


def read_header(line: bytes, path: Path) -> SessionHeader:
    """The header record of a session log, or `SessionLogError` naming the file."""
    try:
        record = record_adapter().validate_json(line)
    except ValidationError:
        raise SessionLogError(f"{path} is not a decode session log (its first line is not a header)") from None
    if not isinstance(record, SessionHeader):
        raise SessionLogError(f"{path} is not a decode session log (its first line is not a header)")
    if record.version > FORMAT_VERSION:
        raise SessionLogError(f"{path} was written by a newer decode (format {record.version}); upgrade to resume it")
    return record


@contextlib.contextmanager
def _cyclic_gc_paused() -> Generator[None]:
    """Pause Python's cycle collector while thousands of messages are built.

    Messages form no reference cycles, and every collection would walk all of those built so
    far again: pausing it makes resuming a long session about a third faster.
    """
    was_enabled = gc.isenabled()
    gc.disable()
    try:
        yield
    finally:
        if was_enabled:
            gc.enable()


def load_session(path: Path) -> LoadedSession:
    """Replay a session log into the history to continue from.

    Two passes: the first only finds the last compaction or clear (the lines before it are
    replaced, so they are never turned into messages), the second replays from there. Memory is
    proportional to the history kept, not to the file. A line that cannot be read is skipped with
    a warning (a torn last line is what a crash mid-write leaves); every complete turn is kept.
    """
    with open_log(path) as file:
        session = _opened(path, file)
        offset = start = file.tell()
        number = start_number = 2
        turn_lines = 0
        last_turn: int | None = None  # where the last turn line starts
        for line in file:
            if line.startswith(_RESTART_STARTS):
                start, start_number, session.turns = offset, number, turn_lines
            elif line.startswith(_TURN_START):
                turn_lines, last_turn = turn_lines + 1, offset
            offset, number = offset + len(line), number + 1
        if last_turn is not None and last_turn < start:
            file.seek(last_turn)  # no turn since the compaction: the last one before it has the settings
            with contextlib.suppress(ValidationError):
                _ran_with(session, _TurnSettings.model_validate_json(file.readline()))
        file.seek(start)
        with _cyclic_gc_paused():
            for number, line in enumerate(file, start=start_number):
                if not _replay(session, number, line) and number == start_number and start_number > 2:
                    # A damaged compaction cannot replace anything: replay the whole file without it.
                    return _replay_all(path)
    return session


def _replay_all(path: Path) -> LoadedSession:
    """Replay every line (the slow way, for a log whose last compaction is damaged)."""
    with open_log(path) as file:
        session = _opened(path, file)
        for number, line in enumerate(file, start=2):
            _replay(session, number, line)
    return session


def _opened(path: Path, file: BinaryIO) -> LoadedSession:
    """The session as its header starts it: the model and mode it began with, no history yet."""
    session = LoadedSession(path=path, header=read_header(first_line(file), path))
    session.model, session.mode = session.header.model, session.header.mode
    session.agent = session.header.agent  # [lesson 15]
    return session


def _ran_with(session: LoadedSession, turn: _TurnSettings | TurnRecord) -> None:
    """What the session runs with as of `turn`: its model and mode, the latest of what else it keeps."""
    session.model, session.mode = turn.model, turn.mode
    if turn.todos is not None:  # [lesson 13]
        session.todos = turn.todos
    session.agent = turn.agent or session.agent  # [lesson 15]
    if turn.add_dirs is not None:  # [lesson 20]
        session.add_dirs = turn.add_dirs


def _replay(session: LoadedSession, number: int, line: bytes) -> bool:
    """Apply one line to `session`; False (with a warning) when it is not a valid record."""
    try:
        record = record_adapter().validate_json(line)
    except ValidationError:
        session.skipped_lines += 1
        if line.endswith(b"\n"):
            logger.warning("%s:%d: skipping a line that is not a valid record", session.path, number)
        else:
            logger.warning("%s:%d: skipping a torn last line (decode stopped while writing it)", session.path, number)
        return False
    if isinstance(record, TurnRecord):
        session.marks.append(TurnMark(len(session.history), record.prompt, list(record.changes or ())))
        session.history.extend(record.messages)
        session.turns += 1
        _ran_with(session, record)
    elif isinstance(record, CompactionRecord):
        session.history, session.marks = record.messages, []
    elif isinstance(record, ClearRecord):
        session.history, session.marks = [], []
        session.todos = []  # [lesson 13]
    elif isinstance(record, RewindRecord):
        del session.history[record.keep :]
        session.marks = [mark for mark in session.marks if mark.start < record.keep]
    else:
        session.skipped_lines += 1
        logger.warning("%s:%d: skipping a second header", session.path, number)
        return False
    return True
