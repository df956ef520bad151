"""The Session Log: one conversation as an append-only JSONL file, written as it happens.

    .decode/sessions/20261130T081502Z_3f2a9c1b.jsonl

    {"type": "header", "version": 1, "session_id": "3f2a9c1b", "cwd": "…", "model": "…", "mode": null, …}
    {"type": "turn", "prompt": "fix the test", "usage": {…}, "messages": [ …pydantic-ai messages… ]}
    {"type": "compaction", "replaced": 12, "messages": [ …the whole history from here on… ]}
    {"type": "clear", …}

Each completed turn adds one line holding that turn's new messages in pydantic-ai's own
serialised form (`ModelMessagesTypeAdapter`), so any pydantic-ai program can read them back.
A compaction line holds the compacted history itself (the summary and the kept tail), so
replaying never depends on how an earlier history was shaped; a clear line empties the history.

Every line is flushed and fsynced before the turn is reported finished: when a front end has
shown an answer, the turn is on disk. A crash (or a power cut) can still tear the line being
written; loading skips a torn last line with a warning and keeps every complete turn before it,
and reopening the log for more turns cuts the torn bytes off first.
"""

import contextlib
import gc
import logging
import os
import secrets
from collections.abc import Iterator, Sequence
from dataclasses import dataclass, field
from datetime import UTC, datetime
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter, ValidationError
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart

from decode.entities.usage import Usage

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
SESSIONS_DIR = Path(".decode") / "sessions"
"""Where sessions live, relative to the Harness Home (the launch directory)."""

PROMPT_PREVIEW_CHARS = 200


class SessionError(Exception):
    """A session cannot be opened; the message says why, for the user."""


class SessionLogError(SessionError):
    """The file is not a session log decode can read (no header, or a newer format)."""


def _now() -> datetime:
    return datetime.now(UTC)


class _Record(BaseModel):
    # Binary content (an image in a prompt) as base64, exactly as ModelMessagesTypeAdapter writes it.
    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64")


class SessionHeader(_Record):
    """The first line: which session this is, where and how it started."""

    type: Literal["header"] = "header"
    version: int = FORMAT_VERSION
    session_id: str
    cwd: str
    model: str
    mode: str | None = None
    """The permission mode the session started in (`default`, `plan`…), when the front end has one."""
    created_at: datetime = Field(default_factory=_now)


class TurnRecord(_Record):
    """One completed turn: its new messages, and what a listing needs without reading them."""

    type: Literal["turn"] = "turn"
    at: datetime = Field(default_factory=_now)
    prompt: str = ""
    """The start of the turn's user prompt, for `decode sessions`."""
    model: str
    mode: str | None = None
    usage: Usage = Field(default_factory=Usage)
    messages: list[ModelMessage]


class CompactionRecord(_Record):
    """A summarising compaction: from here on, the history is `messages`."""

    type: Literal["compaction"] = "compaction"
    at: datetime = Field(default_factory=_now)
    replaced: int
    focus: str | None = None
    usage: Usage = Field(default_factory=Usage)
    messages: list[ModelMessage]


class ClearRecord(_Record):
    """`/clear`: the history starts again, empty."""

    type: Literal["clear"] = "clear"
    at: datetime = Field(default_factory=_now)


Record = Annotated[SessionHeader | TurnRecord | CompactionRecord | ClearRecord, Field(discriminator="type")]
RECORD_ADAPTER: TypeAdapter[Record] = TypeAdapter(Record)


def new_session_id() -> str:
    """Eight hex digits: short enough to type, random enough not to collide in one directory."""
    return secrets.token_hex(4)


def log_path(home: Path, session_id: str, created_at: datetime) -> Path:
    """`<home>/.decode/sessions/<UTC timestamp>_<id>.jsonl`: names sort by creation time."""
    return home / SESSIONS_DIR / f"{created_at.astimezone(UTC):%Y%m%dT%H%M%SZ}_{session_id}.jsonl"


def prompt_preview(messages: Sequence[ModelMessage]) -> str:
    """The first user prompt in `messages`, on one line, shortened for a listing."""
    for message in messages:
        if isinstance(message, ModelRequest):
            for part in message.parts:
                if isinstance(part, UserPromptPart) and isinstance(part.content, str):
                    text = " ".join(part.content.split())
                    return text if len(text) <= PROMPT_PREVIEW_CHARS else text[: PROMPT_PREVIEW_CHARS - 1] + "…"
    return ""


def _fsync_directory(directory: Path) -> None:
    """Make a new file's directory entry durable too (a file fsynced in a lost directory is lost)."""
    descriptor = os.open(directory, os.O_RDONLY)
    try:
        os.fsync(descriptor)
    finally:
        os.close(descriptor)


class SessionLog:
    """Appends records to one session's file. The file appears with the first record written."""

    def __init__(self, path: Path, header: SessionHeader) -> None:
        self.path = path
        self.header = header

    @classmethod
    def new(cls, home: Path, *, model: str, mode: str | None = None) -> "SessionLog":
        """A log for a new session in `home` (nothing is written until the first turn)."""
        header = SessionHeader(session_id=new_session_id(), cwd=str(home), model=model, mode=mode)
        return cls(log_path(home, header.session_id, header.created_at), header)

    @classmethod
    def reopen(cls, path: Path, header: SessionHeader) -> "SessionLog":
        """The log of an existing session, ready for more records; cuts off a torn last line first."""
        with path.open("rb+") as file:
            data = file.read()
            if data and not data.endswith(b"\n"):
                keep = data.rfind(b"\n") + 1
                logger.warning("%s: cutting off a torn last line (%d bytes) before appending", path, len(data) - keep)
                file.truncate(keep)
                file.flush()
                os.fsync(file.fileno())
        return cls(path, header)

    @property
    def session_id(self) -> str:
        return self.header.session_id

    def append(self, record: TurnRecord | CompactionRecord | ClearRecord) -> None:
        """Write one record as one line, flushed and fsynced before returning."""
        line = RECORD_ADAPTER.dump_json(record) + b"\n"
        if not self.path.exists():
            self.path.parent.mkdir(parents=True, exist_ok=True)
            line = RECORD_ADAPTER.dump_json(self.header) + b"\n" + line
            with self.path.open("xb") as file:
                file.write(line)
                file.flush()
                os.fsync(file.fileno())
            _fsync_directory(self.path.parent)
            return
        with self.path.open("ab") as file:
            file.write(line)
            file.flush()
            os.fsync(file.fileno())

    def append_turn(
        self, messages: Sequence[ModelMessage], usage: Usage, *, model: str, mode: str | None = None
    ) -> None:
        self.append(
            TurnRecord(prompt=prompt_preview(messages), model=model, mode=mode, usage=usage, messages=list(messages))
        )

    def append_compaction(
        self, messages: Sequence[ModelMessage], *, replaced: int, usage: Usage, focus: str | None = None
    ) -> None:
        self.append(CompactionRecord(replaced=replaced, focus=focus, usage=usage, messages=list(messages)))

    def append_clear(self) -> None:
        self.append(ClearRecord())


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

    @property
    def session_id(self) -> str:
        return self.header.session_id


class _TurnSettings(_Record):
    """What a turn line says it ran with, read without building its messages."""

    model_config = ConfigDict(extra="ignore")

    model: str
    mode: str | None = None


# How the lines decode writes begin (`type` is every record's first field). A line that begins
# otherwise is still replayed: these only let `load_session` skip what a later line replaces.
_TURN_START = b'{"type":"turn"'
_RESTART_STARTS = (b'{"type":"compaction"', b'{"type":"clear"')


def read_header(line: bytes, path: Path) -> SessionHeader:
    """The header record of a session log, or `SessionLogError` naming the file."""
    try:
        record = RECORD_ADAPTER.validate_json(line)
    except ValidationError:
        raise SessionLogError(f"{path} is not a decode session log (its first line is not a header)") from None
    if not isinstance(record, SessionHeader):
        raise SessionLogError(f"{path} is not a decode session log (its first line is not a header)")
    if record.version > FORMAT_VERSION:
        raise SessionLogError(f"{path} was written by a newer decode (format {record.version}); upgrade to resume it")
    return record


@contextlib.contextmanager
def _cyclic_gc_paused() -> Iterator[None]:
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
    with path.open("rb") as file:
        session = LoadedSession(path=path, header=read_header(file.readline(), path))
        session.model, session.mode = session.header.model, session.header.mode
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
                settings = _TurnSettings.model_validate_json(file.readline())
                session.model, session.mode = settings.model, settings.mode
        file.seek(start)
        with _cyclic_gc_paused():
            for number, line in enumerate(file, start=start_number):
                if not _replay(session, number, line) and number == start_number and start_number > 2:
                    # A damaged compaction cannot replace anything: replay the whole file without it.
                    return _replay_all(path)
    return session


def _replay_all(path: Path) -> LoadedSession:
    """Replay every line (the slow way, for a log whose last compaction is damaged)."""
    with path.open("rb") as file:
        session = LoadedSession(path=path, header=read_header(file.readline(), path))
        session.model, session.mode = session.header.model, session.header.mode
        for number, line in enumerate(file, start=2):
            _replay(session, number, line)
    return session


def _replay(session: LoadedSession, number: int, line: bytes) -> bool:
    """Apply one line to `session`; False (with a warning) when it is not a valid record."""
    try:
        record = RECORD_ADAPTER.validate_json(line)
    except ValidationError:
        session.skipped_lines += 1
        if line.endswith(b"\n"):
            logger.warning("%s:%d: skipping a line that is not a valid record", session.path, number)
        else:
            logger.warning("%s:%d: skipping a torn last line (decode stopped while writing it)", session.path, number)
        return False
    if isinstance(record, TurnRecord):
        session.history.extend(record.messages)
        session.turns += 1
        session.model, session.mode = record.model, record.mode
    elif isinstance(record, CompactionRecord):
        session.history = record.messages
    elif isinstance(record, ClearRecord):
        session.history = []
    else:
        session.skipped_lines += 1
        logger.warning("%s:%d: skipping a second header", session.path, number)
        return False
    return True
