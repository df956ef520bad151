"""The Session Log: one conversation as an append-only JSONL file, written as it happens.

    .decode/sessions/20261130T081502Z_3f2a9c1b.jsonl

    {"type": "header", "version": 1, "session_id": "3f2a9c1b", "cwd": "…", "model": "…", "mode": null, …}
    {"type": "turn", "prompt": "fix the test", "usage": {…}, "messages": [ …pydantic-ai messages… ]}
    {"type": "compaction", "replaced": 12, "messages": [ …the whole history from here on… ]}
    {"type": "clear", …}
    {"type": "rewind", "keep": 6, …}

Each completed turn adds one line holding that turn's new messages in pydantic-ai's own
serialised form (`ModelMessagesTypeAdapter`), so any pydantic-ai program can read them back.
A compaction line holds the compacted history itself (the summary and the kept tail), so
replaying never depends on how an earlier history was shaped; a clear line empties the history.
A turn line also says which files the turn's file tools changed (`checkpoints.py`), and a rewind
line (`/undo`, `/rewind`) cuts the history back to its first `keep` messages: the log is only
ever appended to.

Every line is flushed and fsynced before the turn is reported finished: when a front end has
shown an answer, the turn is on disk. A crash (or a power cut) can still tear the line being
written: reading the log back (`replay.py`) skips it with a warning, and reopening the log for
more turns cuts the torn bytes off first.
"""

import contextlib
import logging
import os
import secrets
from collections.abc import Sequence
from datetime import UTC, datetime
from functools import cache
from pathlib import Path
from typing import Annotated, Literal

from pydantic import BaseModel, ConfigDict, Field, TypeAdapter
from pydantic_ai.messages import ModelMessage, ModelRequest, UserPromptPart
from pydantic_core import to_json

from decode.config import own_files
from decode.config.harness_home import HARNESS_DIR, make_parent_dirs, private_open
from decode.config.redaction import NO_REDACTION
from decode.context.checkpoints import FileChange
from decode.context.session_lock import SessionLock, hold
from decode.entities.todos import Todo
from decode.entities.usage import Usage
from decode.tools.mention_text import typed_part

logger = logging.getLogger(__name__)

FORMAT_VERSION = 1
SESSIONS_DIR = HARNESS_DIR / "sessions"
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
    # `defer_build`: a record's schema (with pydantic-ai's whole message schema inside) is built
    # when a log is first read, not when decode starts; writing never needs it (see `append`).
    model_config = ConfigDict(ser_json_bytes="base64", val_json_bytes="base64", defer_build=True)


class SessionHeader(_Record):
    """The first line: which session this is, where and how it started."""

    type: Literal["header"] = "header"
    version: int = FORMAT_VERSION
    session_id: str
    cwd: str
    model: str
    mode: str | None = None
    """The permission mode the session started in (`default`, `plan`…), when the front end has one."""
    agent: str | None = None  # the Primary Agent it started as (None: before there were agents)  # [lesson 15]
    sandbox: str | None = None  # the sandbox it runs in (`bwrap`…): a resumed session stays in it  # [lesson 17]
    created_at: datetime = Field(default_factory=_now)
    forked_from: str | None = None
    """The session this one was copied from, when that one was open in another decode (`session_fork.py`)."""


class TurnFields(_Record):
    """One completed turn, apart from its messages: what a listing needs without reading them."""

    type: Literal["turn"] = "turn"
    at: datetime = Field(default_factory=_now)
    prompt: str = ""
    """The start of the turn's user prompt, for `decode sessions`."""
    model: str
    mode: str | None = None
    usage: Usage = Field(default_factory=Usage)
    todos: list[Todo] | None = None  # the To-do List at the turn's end (None: an older log)  # [lesson 13]
    agent: str | None = None  # the Primary Agent it ran as (`build`, `explore`…)  # [lesson 15]
    add_dirs: list[str] | None = None  # [lesson 20]
    """The folders beside the Workspace it ran with (`--add-dir`, `/add-dir`); None: an older log."""
    changes: list[FileChange] | None = None
    """The files its file tools changed, each as it was before (None: an older log)."""


class TurnRecord(TurnFields):
    """One completed turn as read back: its fields and its new messages."""

    messages: list[ModelMessage]


class CompactionFields(_Record):
    """A summarising compaction, apart from the history it leaves."""

    type: Literal["compaction"] = "compaction"
    at: datetime = Field(default_factory=_now)
    replaced: int
    focus: str | None = None
    usage: Usage = Field(default_factory=Usage)


class CompactionRecord(CompactionFields):
    """A compaction as read back: from here on, the history is `messages`."""

    messages: list[ModelMessage]


class ClearRecord(_Record):
    """`/clear`: the history starts again, empty."""

    type: Literal["clear"] = "clear"
    at: datetime = Field(default_factory=_now)


class RewindRecord(_Record):
    """`/undo`, `/rewind`: the conversation goes back to before a turn, its first `keep` messages."""

    type: Literal["rewind"] = "rewind"
    at: datetime = Field(default_factory=_now)
    keep: int
    turns: int = 0
    """How many turns it took away."""


Record = Annotated[
    SessionHeader | TurnRecord | CompactionRecord | ClearRecord | RewindRecord, Field(discriminator="type")
]


@cache
def record_adapter() -> TypeAdapter[Record]:
    """Reads any line of a log (built on first use: only resuming and listing read logs)."""
    return TypeAdapter(Record)


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
                    text = " ".join(typed_part(part.content).split())
                    return text if len(text) <= PROMPT_PREVIEW_CHARS else text[: PROMPT_PREVIEW_CHARS - 1] + "…"
    return ""


def _json(value: BaseModel | list[ModelMessage]) -> bytes:
    """A record (or the header) or messages (bytes as base64) as one line of JSON. A lone surrogate
    (`\\ud800` from a provider, `\\udcff` from a command line's bytes), which UTF-8 cannot carry, is
    written as U+FFFD: the rest of the session is not lost with it."""
    try:
        if isinstance(value, BaseModel):
            return value.model_dump_json().encode()
        return to_json(value, bytes_mode="base64")
    except ValueError:  # pydantic_core's PydanticSerializationError: "surrogates not allowed"
        from pydantic_core import to_jsonable_python

        plain = (
            value.model_dump(mode="json")
            if isinstance(value, BaseModel)
            else to_jsonable_python(value, bytes_mode="base64")
        )
        return to_json(_valid(plain))


def _valid(value: object) -> object:
    if isinstance(value, str):
        return value.encode("utf-8", "surrogatepass").decode("utf-8", "replace")
    if isinstance(value, dict):
        return {_valid(key): _valid(item) for key, item in value.items()}
    if isinstance(value, list):
        return [_valid(item) for item in value]
    return value


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
        self.redactor = NO_REDACTION
        """Replaces decode's own keys in every line written (`Session` sets it from the settings)."""
        self.exclusive = False
        """Hold the Session Lock from the moment the file is created (a session the user can resume)."""
        self.lock: SessionLock | None = None
        """This process's Session Lock on the log, while it holds one (`session_lock.py`)."""

    @classmethod
    def new(cls, home: Path, *, model: str, mode: str | None = None) -> "SessionLog":
        """A log for a new session in `home` (nothing is written until the first turn)."""
        header = SessionHeader(session_id=new_session_id(), cwd=str(home), model=model, mode=mode)
        log = cls(log_path(home, header.session_id, header.created_at), header)
        log.exclusive = True
        own_files.remember_outside_checkout(log.path)  # outside git, what tells it from a log a folder brought
        return log

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

    def close(self) -> None:
        """Let go of the Session Lock: another decode may continue this session now."""
        if self.lock is not None:
            self.lock.release()
            self.lock = None

    def append(self, record: _Record, messages: Sequence[ModelMessage] | None = None) -> None:
        """Write one record (with `messages`, if given) as one line, flushed and fsynced before returning.

        The messages are serialised schema-free (`pydantic_core.to_json`), which writes exactly what
        pydantic-ai's `ModelMessagesTypeAdapter` writes (a test holds them equal) without building
        its schema, a few hundred milliseconds that only reading a log back needs.
        """
        line = _json(record)
        if messages is not None:
            line = line[:-1] + b',"messages":' + _json(list(messages)) + b"}"
        line = self.redactor.encoded(line) + b"\n"  # a key the user typed or a tool printed: a marker
        if not self.path.exists():
            make_parent_dirs(self.path)
            if self.exclusive and self.lock is None:  # held before the file exists: no decode resumes it unheld
                self.lock = hold(self.path)
            line = _json(self.header) + b"\n" + line
            with private_open(self.path, "xb") as file:  # 0600, in a 0700 directory: the user's alone
                file.write(line)
                file.flush()
                os.fsync(file.fileno())
            _fsync_directory(self.path.parent)
            return
        with self.path.open("ab") as file:
            size = file.tell()
            try:
                file.write(line)
                file.flush()
                os.fsync(file.fileno())
            except OSError:
                # A full disk took part of the line: cut it off, or the next line would join it.
                with contextlib.suppress(OSError):
                    file.truncate(size)
                raise

    def append_turn(
        self,
        messages: Sequence[ModelMessage],
        usage: Usage,
        *,
        model: str,
        mode: str | None = None,
        todos: Sequence[Todo] = (),  # [lesson 13]
        agent: str | None = None,  # [lesson 15]
        changes: Sequence[FileChange] = (),
        add_dirs: Sequence[str] = (),  # [lesson 20]
    ) -> None:
        fields = TurnFields(prompt=prompt_preview(messages), model=model, mode=mode, usage=usage)
        fields.changes = list(changes)
        fields.todos = list(todos)  # [lesson 13]
        fields.agent = agent  # [lesson 15]
        fields.add_dirs = list(add_dirs)  # [lesson 20]
        self.append(fields, messages)

    def append_compaction(
        self, messages: Sequence[ModelMessage], *, replaced: int, usage: Usage, focus: str | None = None
    ) -> None:
        self.append(CompactionFields(replaced=replaced, focus=focus, usage=usage), messages)

    def append_clear(self) -> None:
        self.append(ClearRecord())

    def append_rewind(self, keep: int, turns: int) -> None:
        self.append(RewindRecord(keep=keep, turns=turns))
