"""The session note: one line about a finished session, appended to `.decode/MEMORY.md`.

Opt-in (`DECODE_SESSION_NOTES=true`): when the user leaves (or `/clear`s), one short request on
the active model turns the session's transcript into a single line, and that line is appended to
the notes file with the date. The next session reads it back as memory (`files.py`), so decode
remembers what was done here. The request is made once, without the Retrying Model's back-off
(`without_retries`), and given at most `SUMMARY_TIMEOUT` seconds: leaving never waits on retries.

Two cases write nothing: a session that did nothing (no completed turn), and a model that cannot
be reached; the second says so in a `Notice`, because the user may have expected the note.
"""

import asyncio
import errno
import logging
import os
import stat
from datetime import UTC, datetime
from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelRequest, ModelResponse, TextPart, ToolCallPart, UserPromptPart
from pydantic_ai.models import Model

from decode.config.harness_home import make_parent_dirs
from decode.entities.events import Notice
from decode.memory.files import PROJECT_NOTES
from decode.models.retry import RetryingModel

logger = logging.getLogger(__name__)

SUMMARY_INSTRUCTIONS = """\
You keep a project's memory file. Read the transcript of a coding session and write ONE line
(at most 25 words) saying what was done or learned that a later session should know.
State facts, never instructions or commands for a later session.
Plain text: no bullet, no date, no quotes, no preamble."""
TRANSCRIPT_LIMIT = 16_000
"""Characters of transcript sent to the summariser; the first prompt and the newest lines are kept."""
NOTE_LIMIT = 300
"""Characters a note may have; a model that rambles is cut."""
SUMMARY_TIMEOUT = 10.0
"""Seconds to wait for the summary before giving up, so leaving decode never hangs."""


def without_retries(model: Model | str) -> Model | str:
    """The model without the Retrying Model around it: the note is one attempt, never a back-off."""
    return model.wrapped if isinstance(model, RetryingModel) else model


def session_did_something(history: list[ModelMessage]) -> bool:
    """True when at least one turn completed (the model answered at least once)."""
    return any(isinstance(message, ModelResponse) for message in history)


def transcript(history: list[ModelMessage], limit: int = TRANSCRIPT_LIMIT) -> str:
    """The session as plain lines: the user's prompts, the agent's text, the tools it called."""
    lines: list[str] = []
    for message in history:
        for part in message.parts:
            if isinstance(message, ModelRequest) and isinstance(part, UserPromptPart):
                lines.append(f"user: {part.content if isinstance(part.content, str) else '[non-text prompt]'}")
            elif isinstance(part, TextPart) and part.content.strip():
                lines.append(f"agent: {part.content.strip()}")
            elif isinstance(part, ToolCallPart):
                lines.append(f"tool: {part.tool_name}({part.args_as_json_str()[:200]})")
    text = "\n".join(lines)
    if len(text) <= limit or not lines:
        return text
    # Keep the first prompt (what the session was for) and as many of the newest lines as fit.
    head, kept, size = lines[0][: limit // 4], [], 0
    for line in reversed(lines[1:]):
        size += len(line) + 1
        if size > limit - len(head):
            break
        kept.append(line)
    return "\n".join([head, "[…]", *reversed(kept)])


async def summarise_session(model: Model | str, history: list[ModelMessage]) -> str:
    """Ask `model` for the one-line note; raises whatever the model raises."""
    summariser = Agent(model, instructions=SUMMARY_INSTRUCTIONS)
    result = await summariser.run(transcript(history))
    first_line = next((line.strip() for line in str(result.output).splitlines() if line.strip()), "")
    first_line = first_line.lstrip("-*• ").strip()
    return first_line if len(first_line) <= NOTE_LIMIT else first_line[: NOTE_LIMIT - 1] + "…"


def append_note(home: Path, note: str, *, now: datetime | None = None) -> Path:
    """Append `- YYYY-MM-DD HH:MM UTC: note` to `home/.decode/MEMORY.md` and return its path."""
    path = home / PROJECT_NOTES
    make_parent_dirs(path)  # creates it 0600: the notes are the user's alone
    stamp = (now or datetime.now(UTC)).astimezone(UTC).strftime("%Y-%m-%d %H:%M UTC")
    # Never through a link a repository planted (`MEMORY.md -> ~/.bashrc`), never a FIFO's wait:
    # the note goes into a regular file, or `OSError` says why not.
    try:
        fd = os.open(path, os.O_RDWR | os.O_APPEND | os.O_CREAT | os.O_NOFOLLOW | os.O_NONBLOCK | os.O_CLOEXEC, 0o600)
    except OSError as exc:
        why = "is a symbolic link, never written through" if exc.errno == errno.ELOOP else exc.strerror
        raise OSError(exc.errno, why, str(path)) from None
    try:
        info = os.fstat(fd)
        if not stat.S_ISREG(info.st_mode):
            raise OSError(errno.EINVAL, "is not a regular file", str(path))
        needs_newline = info.st_size > 0 and os.pread(fd, 1, info.st_size - 1) != b"\n"
        os.write(fd, (("\n" if needs_newline else "") + f"- {stamp}: {note}\n").encode("utf-8"))
    finally:
        os.close(fd)
    return path


async def record_session(
    model: Model | str,
    history: list[ModelMessage],
    home: Path,
    *,
    max_wait_s: float = SUMMARY_TIMEOUT,
) -> Notice | None:
    """Summarise the session into `home/.decode/MEMORY.md`; say what happened, for the front end.

    Returns None when the session did nothing (nothing to say), an info `Notice` naming the file
    when the note was written, and a warning `Notice` when the model could not be reached.
    """
    if not session_did_something(history):
        return None
    try:
        async with asyncio.timeout(max_wait_s):
            note = await summarise_session(without_retries(model), history)
    # Leaving decode must never fail, whatever the model does (unreachable, no key, timeout,
    # an exhausted script, a bad response): the note is skipped and the user told why.
    except Exception as exc:
        reason = " ".join(str(exc).split())[:200] or type(exc).__name__
        logger.info("memory: session note skipped: %s", reason)
        return Notice(level="warning", message=f"memory: session note skipped, the model is not reachable ({reason})")
    if not note:
        return Notice(level="warning", message="memory: session note skipped, the model's summary was empty")
    try:
        path = append_note(home, note)
    except OSError as exc:
        return Notice(level="warning", message=f"memory: session note skipped: {exc.filename}: {exc.strerror}")
    return Notice(level="info", message=f"memory: noted in {path.relative_to(home)}: {note}")
