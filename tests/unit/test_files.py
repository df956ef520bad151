"""write_atomic: the one atomic writer. Old content or new, never half; no temporary file left."""

import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from decode.files import write_atomic


def test_a_new_file_and_its_parent_directories_are_created(tmp_path: Path) -> None:
    target = tmp_path / "a/b/new.txt"
    write_atomic(target, b"hello")
    assert target.read_bytes() == b"hello"
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(target.stat().st_mode) == 0o666 & ~umask  # what any editor would give it
    assert os.listdir(target.parent) == ["new.txt"]


def test_a_new_file_may_be_given_its_mode(tmp_path: Path) -> None:
    target = tmp_path / "key.pem"
    write_atomic(target, b"secret", mode=0o600)
    assert stat.S_IMODE(target.stat().st_mode) == 0o600


def test_replacing_keeps_the_mode_of_the_existing_file(tmp_path: Path) -> None:
    target = tmp_path / "run.sh"
    target.write_bytes(b"echo one\n")
    target.chmod(0o750)
    inode = target.stat().st_ino
    write_atomic(target, b"echo two\n", mode=0o600)  # `mode` is for new files only
    assert target.read_bytes() == b"echo two\n"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert target.stat().st_ino != inode  # a new file renamed over the old: never half-written
    assert os.listdir(tmp_path) == ["run.sh"]


# A file-size limit makes the write itself fail halfway, as a full disk would (in a child process,
# so the limit binds nothing else).
FULL_DISK = """
import resource, signal, sys
from pathlib import Path
from decode.files import write_atomic

signal.signal(signal.SIGXFSZ, signal.SIG_IGN)  # a write past the limit fails with EFBIG instead
resource.setrlimit(resource.RLIMIT_FSIZE, (4096, 4096))
try:
    write_atomic(Path(sys.argv[1]), b"the new notes, far too long " * 10_000)
except OSError as error:
    print(error.strerror)
"""


def test_a_failed_write_leaves_the_old_content_and_no_temporary_file(tmp_path: Path) -> None:
    target = tmp_path / "notes.txt"
    target.write_bytes(b"the old notes\n")
    done = subprocess.run([sys.executable, "-c", FULL_DISK, str(target)], capture_output=True, text=True, check=True)
    assert done.stdout.strip() == "File too large"
    assert target.read_bytes() == b"the old notes\n"
    assert os.listdir(tmp_path) == ["notes.txt"]


def test_a_directory_in_the_way_is_an_error_and_leaves_no_temporary_file(tmp_path: Path) -> None:
    (tmp_path / "taken").mkdir()
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "taken", b"x")
    assert os.listdir(tmp_path) == ["taken"]
    assert os.listdir(tmp_path / "taken") == []
