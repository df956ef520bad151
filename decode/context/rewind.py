"""Rewinding: the files of turns put back as they were, turns taken out of the conversation.

`/undo` rewinds the last turn; `/rewind` any turn since the last compaction or clear. Rewinding
to before turn *k* restores every file that turns *k*… changed to its state before the earliest
of them (`plan`), through the executor (so a symbolic link below the Workspace is never followed),
and cuts the history back to where turn *k* began (`rewind_conversation`, a rewind line in the
Session Log). A file whose content is now neither what the turns wrote nor what it was before has
been changed since, by the user or a command: `changed_since` names it, and the front end asks
before `restore` overwrites it. Nothing here runs git: the index, branches and stash are the user's.
"""

from __future__ import annotations

import logging
import os
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

from decode.context.checkpoints import Checkpoints, FileChange, TurnMark, digest
from decode.entities.executor import FILE_OP_TIMEOUT_S, ExecRequest

if TYPE_CHECKING:
    from collections.abc import Sequence

    from pydantic_ai.messages import ModelMessage

    from decode.context.session import Session
    from decode.entities.executor import CommandExecutor

logger = logging.getLogger(__name__)


@dataclass
class FileToRestore:
    """One file to put back: as it was before the earliest rewound turn, and what the newest one wrote."""

    path: Path
    first: FileChange
    last_written: str | None


@dataclass
class RestorePlan:
    """What rewinding to before a turn restores, what it cannot (and why), whether commands ran."""

    keep: int
    """The messages the conversation keeps (those before the turn)."""
    files: list[FileToRestore] = field(default_factory=list)
    unkept: list[tuple[Path, str]] = field(default_factory=list)
    ran_commands: bool = False
    """A rewound turn ran `bash` (or a `!command`): what commands changed is not tracked."""


@dataclass
class Restored:
    """What `restore` did, file by file."""

    restored: list[Path] = field(default_factory=list)
    removed: list[Path] = field(default_factory=list)
    failed: list[tuple[Path, str]] = field(default_factory=list)


def plan(marks: Sequence[TurnMark], index: int, history: Sequence[ModelMessage]) -> RestorePlan:
    """What rewinding to before `marks[index]` (and every turn after it) restores."""
    rewound = marks[index:]
    result = RestorePlan(keep=marks[index].start, ran_commands=ran_commands(history[marks[index].start :]))
    earliest: dict[str, FileChange] = {}
    latest: dict[str, str | None] = {}
    for mark in rewound:
        for change in mark.changes:
            earliest.setdefault(change.path, change)
            latest[change.path] = change.after
    for name, first in earliest.items():
        if first.unkept:
            result.unkept.append((Path(name), first.unkept))
        else:
            result.files.append(FileToRestore(Path(name), first, latest[name]))
    return result


def ran_commands(messages: Sequence[ModelMessage]) -> bool:
    """Did these messages run a command (`bash`, or Bash Mode's `!command`)?"""
    from pydantic_ai.messages import ModelRequest, ModelResponse, ToolCallPart, UserPromptPart

    for message in messages:
        for part in message.parts:
            if isinstance(message, ModelResponse) and isinstance(part, ToolCallPart) and part.tool_name == "bash":
                return True
            if (
                isinstance(message, ModelRequest)
                and isinstance(part, UserPromptPart)
                and isinstance(part.content, str)
                and part.content.startswith("<bash-input>")
            ):
                return True
    return False


async def _current(executor: CommandExecutor, path: Path) -> str | None:
    """The hash of `path`'s content now, None when there is no such file."""
    stat = await executor.stat(path)
    if stat is None or not stat.is_file:
        return None if stat is None else "not a file"
    return digest(await executor.read_bytes(path))


async def changed_since(executor: CommandExecutor, files: Sequence[FileToRestore]) -> list[Path]:
    """The files whose content is now neither what the turns wrote nor what it was before them."""
    changed = []
    for item in files:
        now = await _current(executor, item.path)
        before = item.first.before if item.first.existed else None
        if now not in (before, item.last_written):
            changed.append(item.path)
    return changed


async def restore(
    executor: CommandExecutor, checkpoints: Checkpoints, files: Sequence[FileToRestore], *, skip: Sequence[Path] = ()
) -> Restored:
    """Put each file back as it was before the rewound turns (a created one is removed); `skip` is left as it is."""
    done = Restored()
    for item in files:
        if item.path in skip:
            continue
        if not _inside(executor, item.path):  # a Session Log edited by hand, or a planted one, names anything
            done.failed.append((item.path, "not a path inside the Workspace: never restored"))
            continue
        try:
            if not item.first.existed:
                if await _remove(executor, item.path):
                    done.removed.append(item.path)
                continue
            await _put_back(executor, checkpoints, item)
            done.restored.append(item.path)
        except OSError as exc:
            logger.debug("rewind: could not restore %s", item.path, exc_info=True)
            done.failed.append((item.path, exc.strerror or str(exc)))
    return done


async def _put_back(executor: CommandExecutor, checkpoints: Checkpoints, item: FileToRestore) -> None:
    assert item.first.before is not None
    data = checkpoints.load(item.first.before)
    if await _current(executor, item.path) != item.first.before:
        await executor.write_atomic(item.path, data)  # confined: never through a link below the Workspace
    stat = await executor.stat(item.path)
    mode = None if item.first.mode is None else item.first.mode & 0o7777
    if mode is not None and stat is not None and stat.mode & 0o7777 != mode:
        link = 'echo "$1/$2 is a symbolic link: its mode is never changed through it" >&2; exit 1'
        await _in_folder(executor, item.path, f'if [ -L "./$2" ]; then {link}; fi; chmod {mode:o} -- "./$2"')


async def _remove(executor: CommandExecutor, path: Path) -> bool:
    """Remove the file a rewound turn created; False when it is gone already."""
    if await executor.stat(path) is None:
        return False
    await _in_folder(executor, path, 'rm -f -- "./$2"')
    return True


_REFUSE = 'echo "$1/$2 leads outside the Workspace (a symbolic link)" >&2; exit 1'


async def _in_folder(executor: CommandExecutor, path: Path, command: str) -> None:
    """Run `command` ($2: the file's name) in `path`'s folder, only when its real path is its path: once
    there, a folder swapped for a link meanwhile changes nothing (a check, then `rm` by path, would)."""
    script = f'cd -P -- "$1" && [ "$(pwd -P)" = "$1" ] || {{ {_REFUSE}; }}; {command}'
    await _run(executor, ["sh", "-c", script, "sh", str(path.parent), path.name])


def _inside(executor: CommandExecutor, path: Path) -> bool:
    """Is `path` absolute, without `.` or `..`, and below the Workspace (or an `--add-dir` folder)?"""
    # [lesson 17]
    roots = (executor.workspace, *executor.more_roots)  # an `--add-dir` folder too
    # [before lesson 17]
    # roots = (executor.workspace,)
    # [/lesson 17]
    text = str(path)
    return (
        os.path.isabs(text)
        and os.path.normpath(text) == text
        and any(path.is_relative_to(r) for r in roots)
        and path not in roots
    )


async def _run(executor: CommandExecutor, argv: list[str]) -> None:
    errors = bytearray()
    result = await executor.run(
        ExecRequest(argv, timeout=FILE_OP_TIMEOUT_S, on_stdout=lambda _: None, on_stderr=errors.extend)
    )
    if result.exit_code != 0:
        raise OSError(errors.decode(errors="replace").strip() or f"{argv[0]} failed")


def rewind_conversation(session: Session, history: list[ModelMessage], keep: int) -> list[ModelMessage]:
    """The history without the rewound turns; the Session Log says so (a rewind line), so `--resume` agrees."""
    session.record_rewind(keep)
    return history[:keep]
