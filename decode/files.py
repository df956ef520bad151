"""Writing a file so that no reader, crash or full disk ever leaves half of it.

The data goes to a temporary file beside the target (so the rename stays on one filesystem),
is flushed and fsynced, and then replaces the target in one `os.replace`. Readers see the old
content or the new. An existing file keeps its mode bits; a new one gets `mode` (default: 0o666
less the umask, what any editor would give it).
"""

import os
import secrets
import stat
from pathlib import Path


def write_atomic(path: Path, data: bytes, *, mode: int | None = None) -> None:
    """Replace (or create) `path` with `data` in one step, creating its parent directories."""
    path.parent.mkdir(parents=True, exist_ok=True)
    try:
        kept: int | None = stat.S_IMODE(os.stat(path).st_mode)
    except FileNotFoundError:
        kept = None
    temporary = path.with_name(f".{path.name}.{secrets.token_hex(4)}.decode-tmp")
    fd = os.open(temporary, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o666 if mode is None else mode)
    try:
        with os.fdopen(fd, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        if kept is not None:
            os.chmod(temporary, kept)
        os.replace(temporary, path)
    except BaseException:
        temporary.unlink(missing_ok=True)
        raise
