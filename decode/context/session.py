"""A Session: one conversation, written down as it happens and kept inside the context window.

The Agent Loop takes an optional `Session` and calls it at three moments of a turn:

- before the turn: `needs_summary()`; past ~80 % the loop compacts first (`compact()`, tier 2);
- during the turn: `pruned()`, the model with the tool-output pruning applied to every request (tier 1);
- after the turn: `record_turn()`, one fsynced line in the Session Log, before the turn is reported finished.

Its `checkpoints` keep what the turn's file tools change (the tools call them through
`deps.checkpoint`), and `record_rewind()` takes turns back out of the conversation (`/undo`, `/rewind`).

Front ends make one with `Session.start()` or `Session.resume()`, and keep `model` and `mode`
current when the user switches them, so every turn line says what it ran with.
"""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, NamedTuple

from decode.config.redaction import redactor_for
from decode.context.checkpoints import Checkpoints, store_for
from decode.context.compaction import Compaction, needs_summary, summarise
from decode.context.pruning import PrunedModel, ToolOutputPruning
from decode.context.session_log import SessionError, SessionLog, prompt_preview
from decode.context.windows import ContextWindow, context_window, fill_fraction
from decode.entities.events import Notice
from decode.entities.todos import Todo
from decode.entities.usage import Usage

if TYPE_CHECKING:
    from pydantic_ai.messages import ModelMessage
    from pydantic_ai.models import Model

    from decode.config.settings import Settings
    from decode.context.replay import LoadedSession
    from decode.context.session_lock import SessionLock


UNSAVED = "could not save the session"
"""How the warning after a turn that could not be saved begins."""


class UnfinishedTurn(NamedTuple):
    """What a turn that stopped early had done: the whole history so far, the turn's own messages, its usage."""

    history: list[ModelMessage]
    new_messages: list[ModelMessage]
    usage: Usage


def unsaved(error: BaseException) -> Notice:
    """The warning after a turn the session could not write: `could not save the session: Read-only file system: …`."""
    return Notice(level="warning", message=f"{UNSAVED}: {_why(error)}")


def _why(error: BaseException) -> str:
    """An error as one line: `Read-only file system: /p/.decode/sessions/…`."""
    if isinstance(error, FileExistsError) and error.filename:  # a file where a folder should be
        return f"{error.filename} is in the way (it is not a folder)"
    if isinstance(error, OSError) and error.strerror:
        return f"{error.strerror}: {error.filename}" if error.filename else error.strerror
    return " ".join(str(error).split())[:300] or type(error).__name__


class Session:
    """A conversation's log and context window. `model` is the model string; `mode` the permission mode."""

    def __init__(
        self,
        log: SessionLog,
        *,
        model: str,
        mode: str | None = None,
        settings: Settings | None = None,
    ) -> None:
        self.log = log
        if settings is not None:
            log.redactor = redactor_for(settings)  # no line of the log holds one of decode's keys
        self.mode = mode
        self.settings = settings
        self.model = model
        self.window: ContextWindow = context_window(model, settings)
        self.pruning = ToolOutputPruning(self.window.tokens)
        self.todos: list[Todo] = []  # the To-do List (`deps.todos` is this list), written each turn  # [lesson 13]
        self.agent: str | None = log.header.agent  # the Primary Agent, written with every turn  # [lesson 15]
        self.add_dirs: list[str] = []  # [lesson 20]
        """The folders beside the Workspace (`--add-dir`, `/add-dir`), written with every turn: a resumed
        session gets them back (`decode.agent.steps.added_dirs`)."""
        self.checkpoints = Checkpoints(store_for(log.path))
        """What each turn's file tools changed (`deps.checkpoint`), for `/undo` and `/rewind`."""
        if settings is not None:
            self.checkpoints.max_bytes = settings.checkpoint_max_file_bytes
        origin = (log.header.forked_from or "").replace("-", "")  # an id, never a pattern for the glob below
        if origin.isalnum():  # a copy: its turns' files are kept in the original's store
            self.checkpoints.earlier_stores = sorted(log.path.parent.glob(f"*_{log.header.forked_from}.files"))

    @classmethod
    def start(cls, home: Path, *, model: str, mode: str | None = None, settings: Settings | None = None) -> Session:
        """A new session in the Harness Home `home` (its file appears with the first turn)."""
        return cls(SessionLog.new(home, model=model, mode=mode), model=model, mode=mode, settings=settings)

    @classmethod
    def resume(
        cls,
        home: Path,
        ref: str | None = None,
        *,
        model: str | None = None,
        settings: Settings | None = None,
    ) -> tuple[Session, LoadedSession]:
        """Reopen session `ref` (the newest when None) to continue it; `model` overrides the saved one.

        Raises `SessionError` (`SessionNotFoundError`, `SessionLogError`) with a message for the user.
        """
        # Only resuming reads saved sessions: a new session does not load the catalogue or the replay.
        from decode.context.catalog import find_session
        from decode.context.replay import read_header
        from decode.context.session_fork import fork_session
        from decode.context.session_lock import SessionBusy, hold

        path = find_session(home, ref)
        try:
            lock = hold(path)
        except SessionBusy as busy:  # another decode has it open: go on in a copy, never in its file
            with path.open("rb") as file:
                header = read_header(file.readline(), path)
            path, lock = fork_session(busy, header)
        except OSError as exc:  # a read-only folder; a planted link in the lock file's place
            raise SessionError(
                f"cannot resume {path}: its lock file cannot be opened ({exc.strerror or exc})"
            ) from None
        return cls.held(path, lock, model=model, settings=settings)

    @classmethod
    def held(
        cls, path: Path, lock: SessionLock, *, model: str | None = None, settings: Settings | None = None
    ) -> tuple[Session, LoadedSession]:
        """Continue the session of log `path`, which this process holds (`lock`, released if it cannot)."""
        from decode.context.replay import load_session

        try:
            loaded = load_session(path)
            log = SessionLog.reopen(path, loaded.header)
        except BaseException:
            lock.release()
            raise
        log.lock = lock
        session = cls(log, model=model or loaded.model, mode=loaded.mode, settings=settings)
        session.todos = list(loaded.todos)  # [lesson 13]
        session.agent = loaded.agent  # [lesson 15]
        session.add_dirs = list(loaded.add_dirs)  # [lesson 20]
        session.checkpoints.marks, session.checkpoints.length = loaded.marks, len(loaded.history)
        return session, loaded

    @classmethod
    def open(
        cls,
        home: Path,
        *,
        resume: str | None = None,
        model: str | None = None,
        settings: Settings,
    ) -> tuple[Session, list[ModelMessage]]:
        """What a front end starts with: a new session, or the saved one `resume` names ("" the newest).

        A new session runs `model` (else the settings' model); a resumed one its own model unless
        `model` is given. Returns the session and the history to continue from. Raises
        `SessionError` (no such session, an unreadable log) with a message for the user.
        """
        if resume is None:
            return cls.start(home, model=model or settings.model, settings=settings), []
        session, loaded = cls.resume(home, resume or None, model=model, settings=settings)
        return session, loaded.history

    @property
    def session_id(self) -> str:
        return self.log.session_id

    def close(self) -> None:
        """The front end leaves this session: another decode may continue it now."""
        self.log.close()

    def switch_model(self, model: str) -> None:
        """The user picked another model: later turns are recorded with it and use its window."""
        self.model = model
        self.window = context_window(model, self.settings)
        self.pruning.window = self.window.tokens

    def switch_mode(self, mode: str | None) -> None:
        """The permission mode changed (or was settled at start): later turns are recorded with it."""
        self.mode = mode
        if not self.log.path.exists():  # the header is not written yet: it should say how the session started
            self.log.header.mode = mode

    def switch_agent(self, agent: str) -> None:  # [lesson 15]
        """The Primary Agent changed (or was settled at start): later turns are recorded with it."""
        self.agent = agent
        if not self.log.path.exists():
            self.log.header.agent = agent

    def fill(self, history: Sequence[ModelMessage]) -> float:
        """How full the context window is with `history` (for the footer's gauge)."""
        return fill_fraction(history, self.window)

    def pruned(self, model: Model | str) -> Model:
        """The model a turn sends its requests to: `model`, tier-1 pruning applied to each request."""
        return PrunedModel(model, self.pruning)

    def needs_summary(self, history: Sequence[ModelMessage]) -> bool:
        return needs_summary(history, self.window.tokens)

    async def compact(
        self, history: Sequence[ModelMessage], model: Model | str, focus: str | None = None
    ) -> Compaction:
        """Summarise the older history on `model` and log it. Raises `CompactionError`, history untouched."""
        compaction = await summarise(history, model, window=self.window.tokens, focus=focus)
        self.log.append_compaction(
            compaction.history, replaced=compaction.replaced, usage=compaction.usage, focus=focus
        )
        self.checkpoints.restarted(len(compaction.history))
        return compaction

    def record_turn(self, messages: Sequence[ModelMessage], usage: Usage, *, history_length: int | None = None) -> None:
        """Write a completed turn's new messages (and the files it changed): one line, on disk when this
        returns. `history_length`: the whole history's, the turn's messages last (where the turn starts)."""
        changes = self.checkpoints.written()  # kept for the next turn if the line cannot be written
        self.log.append_turn(
            messages,
            usage,
            model=self.model,
            mode=self.mode,
            todos=self.todos,  # [lesson 13]
            agent=self.agent,  # [lesson 15]
            changes=changes,
            add_dirs=self.add_dirs,  # [lesson 20]
        )
        if history_length is not None:
            self.checkpoints.length = history_length - len(messages)
        self.checkpoints.turn_recorded(prompt_preview(messages), len(messages), changes)

    def record_clear(self) -> None:
        """`/clear`: a resumed session starts from an empty history too."""
        self.todos.clear()  # [lesson 13]
        self.checkpoints.restarted(0)
        if self.log.path.exists():  # a session with no turn yet has nothing to clear
            self.log.append_clear()

    def record_rewind(self, keep: int) -> None:
        """`/undo`, `/rewind`: the history goes back to its first `keep` messages, here and in the log."""
        turns = sum(mark.start >= keep for mark in self.checkpoints.marks)
        if self.log.path.exists():
            self.log.append_rewind(keep, turns)
        self.checkpoints.rewound(keep)
