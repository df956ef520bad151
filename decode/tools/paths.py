"""Paths the model gives, resolved inside the Workspace.

The model names files relative to the working directory (or absolute). Every tool resolves them
here: `..` that climbs out, an absolute path elsewhere, or a symlink that leads outside are all
refused with a message the model can act on.

Two kinds of answer come back when a path cannot be used, and the difference matters to the run:

- text that can never be a path (a NUL byte, a name over 255 bytes, more than 4,096 bytes in
  all, an unpaired surrogate) is a malformed argument: a `ModelRetry`, which pydantic-ai counts
  against the tool's retry limit;
- a path that is fine as text but refused (outside the Workspace, a symlink loop, a folder that
  cannot be searched) is an answer about the world: a `Refusal`, which the model reads as a
  failed result (front ends mark it ✗) and which never counts as a failed attempt. Three such
  answers in a turn must not end the run. The other tools refuse the same way (not read first,
  changed since, a directory, a FIFO).
"""

import errno
import os
import posixpath
from pathlib import Path
from typing import TYPE_CHECKING

from pydantic_ai import ModelRetry, ToolFailed

if TYPE_CHECKING:
    from decode.entities.executor import CommandExecutor, FileStat


class Refusal(ToolFailed, ModelRetry):
    """A tool's answer that it will not do what was asked, and why: an answer, not a failed attempt.

    pydantic-ai handles it as the `ToolFailed` it is (it checks for that first): a failed result
    the model reads, which never counts against the tool's retry limit. It is a `ModelRetry` too,
    so code written when refusals were retries (`except ModelRetry`) still catches it.
    """


NAME_MAX = 255
"""Bytes in one file name (Linux, macOS and most filesystems)."""
PATH_MAX = 4096
"""Bytes in a whole path, its terminating NUL included (Linux)."""


def _preview(text: str, width: int = 60) -> str:
    shown = repr(text)[1:-1]
    return shown if len(shown) <= width else shown[: width - 1] + "…"


def check_text(raw: str, what: str = "path") -> None:
    """A `ModelRetry` when `raw` holds what no path (or pattern) passed to the system can hold."""
    if "\0" in raw:
        raise ModelRetry(f"The {what} '{_preview(raw)}' contains a NUL byte (\\0), which no file name can hold.")
    try:
        os.fsencode(raw)
    except UnicodeEncodeError:
        raise ModelRetry(f"The {what} '{_preview(raw)}' is not valid text (it holds an unpaired surrogate).") from None


def check_path_text(raw: str) -> None:
    """`check_text`, then the length limits of names and paths."""
    check_text(raw)
    for name in raw.split("/"):
        if (size := len(os.fsencode(name))) > NAME_MAX:
            raise ModelRetry(
                f"The name '{_preview(name, 40)}' in the path is {size:,} bytes long; a file name holds at most "
                f"{NAME_MAX} bytes."
            )


def _check_length(path: Path, raw: str, *, resolved: bool = False) -> None:
    if (size := len(os.fsencode(path))) < PATH_MAX:
        return
    if resolved:  # the text was fine; the symlinks in it lead to a path too long to use
        raise Refusal(f"{raw} is {size:,} bytes long once its symlinks are followed; a path holds at most 4,095.")
    raise ModelRetry(f"The path '{_preview(raw)}' is {size:,} bytes long; a path holds at most {PATH_MAX - 1:,}.")


def describe_os_error(exc: BaseException) -> str:
    """Why a file operation failed, in words (`OSError.strerror`, else the message)."""
    if isinstance(exc, OSError) and (exc.errno == errno.ELOOP or "Too many levels of symbolic links" in str(exc)):
        return "a symbolic link in it loops back on itself"
    if isinstance(exc, OSError) and exc.strerror:
        return exc.strerror[0].lower() + exc.strerror[1:]
    return str(exc) or type(exc).__name__


async def resolve_path(executor: "CommandExecutor", raw: str) -> Path:
    """The real path `raw` names inside the Workspace, or a `ModelRetry`/`Refusal` saying why not.

    Symlinks are followed by `executor.realpath`: whatever else checks a path resolves it the same way.
    """
    if not raw.strip():
        raise ModelRetry("The path is empty: give a file path relative to the working directory.")
    check_path_text(raw)
    root = executor.workspace
    lexical = Path(posixpath.normpath(root / raw))  # absolute `raw` replaces `root`
    roots: tuple[Path, ...] = (root,)
    roots += executor.more_roots  # `--add-dir` folders, under the same rules  # [lesson 17]
    if not any(lexical.is_relative_to(folder) for folder in roots):
        raise Refusal(f"{raw} is outside the working directory {root}; only paths inside it can be used.")
    _check_length(lexical, raw)
    try:
        real = await executor.realpath(lexical)
    except (OSError, ValueError) as exc:
        raise Refusal(f"{raw} cannot be resolved: {describe_os_error(exc)}.") from None
    if not any(real.is_relative_to(folder) for folder in roots):
        raise Refusal(f"{raw} is a symlink to {real}, outside the working directory {root}; it cannot be used.")
    _check_length(real, raw, resolved=True)
    return real


async def stat_path(executor: "CommandExecutor", path: Path, shown: str) -> "FileStat | None":
    """`executor.stat(path)`; a `Refusal` naming `shown` when the system cannot even look."""
    try:
        return await executor.stat(path)
    except (OSError, ValueError) as exc:
        raise Refusal(f"{shown} cannot be examined: {describe_os_error(exc)}.") from None


def display_path(executor: "CommandExecutor", path: Path) -> str:
    """`path` as the model should write it next time: relative to the Workspace root."""
    try:
        relative = path.relative_to(executor.workspace)
    except ValueError:
        return str(path)
    return relative.as_posix() if relative.parts else "."
