"""Writing a file so that no reader, crash or full disk ever leaves half of it.

The data goes to a temporary file beside the target (so the rename stays on one filesystem),
is flushed and fsynced, and then replaces the target in one `os.replace`. Readers see the old
content or the new. An existing file keeps its mode bits; a new one gets `mode` (default: 0o666
less the umask, what any editor would give it).

`root=` confines the write to a directory tree another process may be changing at the same time
(the Workspace, where the agent's own commands run). Checking a path and then opening it leaves a
gap: a directory swapped for a symlink in between sends the write elsewhere. So the confined
write never follows a link: it walks from `root` one directory at a time, each opened relative
to the one before with `O_NOFOLLOW`, and creates, fills and renames the temporary file relative
to the last one (`dir_fd`). A symlink met anywhere below `root` fails the write (`ELOOP`);
nothing is written outside `root`, whatever happens to the tree meanwhile.
"""

import contextlib
import errno
import os
import secrets
import stat
from pathlib import Path

_DIRECTORY_FLAGS = os.O_RDONLY | os.O_DIRECTORY | os.O_NOFOLLOW | os.O_CLOEXEC


def write_atomic(path: Path, data: bytes, *, mode: int | None = None, root: Path | None = None) -> None:
    """Replace (or create) `path` with `data` in one step, creating its parent directories.

    With `root`, `path` must lie under it and no symbolic link below `root` is followed (see the
    module docstring); an `OSError` says why a write was refused.
    """
    if root is not None:
        _write_confined(root, path, data, mode)
        return
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        kept: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        kept = None
    temporary = _temporary_name(path.name)
    temporary_path = path.with_name(temporary)
    fd = os.open(temporary_path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        _fill(fd, data, kept)
        os.replace(temporary_path, path)
    except BaseException:
        temporary_path.unlink(missing_ok=True)
        raise


def _temporary_name(name: str) -> str:
    # A long name leaves no room for the suffix (a name holds 255 bytes): the temporary file is
    # then named without it (it only has to be unique in its directory).
    stem = name if len(os.fsencode(name)) <= 200 else "long-name"
    return f".{stem}.{secrets.token_hex(4)}.decode-tmp"


def _fill(fd: int, data: bytes, kept: int | None) -> None:
    """Write `data` to the new file `fd` (closed after), fsynced, with the kept mode bits."""
    with os.fdopen(fd, "wb") as handle:
        handle.write(data)
        handle.flush()
        if kept is not None:
            os.fchmod(handle.fileno(), kept)
        os.fsync(handle.fileno())


def _parts_below(root: Path, path: Path) -> list[str]:
    """The names leading from `root` to `path`; an `OSError` when `path` is not under it."""
    absolute = Path(os.path.abspath(path))
    try:
        parts = list(absolute.relative_to(os.path.abspath(root)).parts)
    except ValueError:
        raise OSError(errno.EXDEV, f"not inside {root}", str(path)) from None
    if not parts:
        raise OSError(errno.EISDIR, "Is a directory", str(path))
    return parts


def _open_directory(parent: int, name: str, path: Path) -> int:
    """Open (creating it if missing) the directory `name` in `parent`, never through a symlink."""
    for _ in range(2):
        try:
            return os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)
        except FileNotFoundError:
            with contextlib.suppress(FileExistsError):  # made meanwhile: open what is there
                os.mkdir(name, 0o777, dir_fd=parent)
        except OSError as exc:
            if exc.errno in (errno.ELOOP, errno.ENOTDIR):  # `O_DIRECTORY | O_NOFOLLOW` on a link: ENOTDIR
                if _is_link(parent, name):
                    raise OSError(errno.ELOOP, f"{name} is a symbolic link, never followed here", str(path)) from None
                raise OSError(errno.ENOTDIR, f"{name} is not a directory", str(path)) from None
            raise
    return os.open(name, _DIRECTORY_FLAGS, dir_fd=parent)


def _is_link(parent: int, name: str) -> bool:
    try:
        return stat.S_ISLNK(os.stat(name, dir_fd=parent, follow_symlinks=False).st_mode)
    except OSError:
        return False


def _write_confined(root: Path, path: Path, data: bytes, mode: int | None) -> None:
    *folders, name = _parts_below(root, path)
    if name in (".", "..") or any(folder in (".", "..") for folder in folders):
        raise OSError(errno.EINVAL, "a path with . or .. components", str(path))
    directory = os.open(root, os.O_RDONLY | os.O_DIRECTORY | os.O_CLOEXEC)  # the root itself is trusted
    try:
        for folder in folders:
            below = _open_directory(directory, folder, path)
            os.close(directory)
            directory = below
        try:
            info = os.stat(name, dir_fd=directory, follow_symlinks=False)
        except FileNotFoundError:
            info = None
        if info is not None and stat.S_ISDIR(info.st_mode):
            raise OSError(errno.EISDIR, "Is a directory", str(path))
        # A symlink in the target's place is replaced itself, never written through.
        kept = stat.S_IMODE(info.st_mode) if info is not None and stat.S_ISREG(info.st_mode) else None
        temporary = _temporary_name(name)
        flags = os.O_WRONLY | os.O_CREAT | os.O_EXCL | os.O_NOFOLLOW | os.O_CLOEXEC
        fd = os.open(temporary, flags, 0o666 if mode is None else mode, dir_fd=directory)
        try:
            _fill(fd, data, kept)
            os.replace(temporary, name, src_dir_fd=directory, dst_dir_fd=directory)
        except BaseException:
            with contextlib.suppress(OSError):
                os.unlink(temporary, dir_fd=directory)
            raise
    finally:
        os.close(directory)
