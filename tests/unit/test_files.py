"""write_atomic: the one atomic writer. Old content or new, never half; no temporary file left."""

import errno
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


# -- confined to a root: no symlink below it is followed --------------------------------------


def test_a_confined_write_creates_directories_and_keeps_the_mode(tmp_path: Path) -> None:
    target = tmp_path / "a/b/tool.sh"
    write_atomic(target, b"one", root=tmp_path)
    target.chmod(0o750)
    write_atomic(target, b"two", root=tmp_path)
    assert target.read_bytes() == b"two"
    assert stat.S_IMODE(target.stat().st_mode) == 0o750
    assert os.listdir(target.parent) == ["tool.sh"]


def test_a_confined_write_refuses_a_symlinked_directory_below_the_root(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    root.mkdir()
    outside.mkdir()
    (root / "d").symlink_to(outside)
    with pytest.raises(OSError, match="symbolic link") as caught:
        write_atomic(root / "d/f.txt", b"x", root=root)
    assert caught.value.errno == errno.ELOOP
    assert os.listdir(outside) == []


def test_a_confined_write_replaces_a_symlink_in_the_targets_place_never_its_target(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside.txt"
    root.mkdir()
    outside.write_text("theirs")
    (root / "f.txt").symlink_to(outside)
    write_atomic(root / "f.txt", b"mine", root=root)
    assert outside.read_text() == "theirs"
    assert not (root / "f.txt").is_symlink()
    assert (root / "f.txt").read_bytes() == b"mine"


def test_a_confined_write_outside_its_root_or_onto_a_directory_is_refused(tmp_path: Path) -> None:
    (tmp_path / "root/d").mkdir(parents=True)
    with pytest.raises(OSError, match="not inside"):
        write_atomic(tmp_path / "elsewhere.txt", b"x", root=tmp_path / "root")
    with pytest.raises(IsADirectoryError):
        write_atomic(tmp_path / "root/d", b"x", root=tmp_path / "root")
    assert os.listdir(tmp_path / "root/d") == []
    assert not (tmp_path / "elsewhere.txt").exists()


def test_a_long_name_still_gets_a_temporary_file(tmp_path: Path) -> None:
    name = "n" * 255  # the longest name a directory holds: no room for a suffix
    write_atomic(tmp_path / name, b"x", root=tmp_path)
    write_atomic(tmp_path / name, b"y")
    assert os.listdir(tmp_path) == [name]


# Another process swaps `root/d` between a directory and a symlink to `outside` as fast as it
# can, until its stdin closes; it prints "ready" once it has swapped, and its count at the end.
SWAPPER = """
import os, sys, threading
root, outside = sys.argv[1], sys.argv[2]
d, away = os.path.join(root, "d"), os.path.join(root, "d.away")
done = threading.Event()
threading.Thread(target=lambda: (sys.stdin.read(), done.set()), daemon=True).start()
swaps = 0
while not done.is_set():
    try:
        os.rename(d, away)
        os.symlink(outside, d)
        if swaps == 0:
            print("ready", flush=True)
        swaps += 1
        os.unlink(d)
        os.rename(away, d)
    except OSError:
        for step in (lambda: os.unlink(d) if os.path.islink(d) else None, lambda: os.rename(away, d)):
            try:
                step()
            except OSError:
                pass
print(swaps, flush=True)
"""
RACED_WRITES = 400


def test_writes_racing_a_symlink_swap_never_land_outside_the_root(tmp_path: Path) -> None:
    root, outside = tmp_path / "root", tmp_path / "outside"
    (root / "d").mkdir(parents=True)
    outside.mkdir()
    with subprocess.Popen(
        [sys.executable, "-c", SWAPPER, str(root), str(outside)],
        stdin=subprocess.PIPE,
        stdout=subprocess.PIPE,
        text=True,
    ) as swapper:
        assert swapper.stdin is not None
        assert swapper.stdout is not None
        assert swapper.stdout.readline() == "ready\n"
        written = refused = 0
        for number in range(RACED_WRITES):
            try:
                write_atomic(root / "d" / f"f{number}.txt", b"inside", root=root)
                written += 1
            except OSError:
                refused += 1  # the link was there at that moment: refused, never followed
        swapper.stdin.close()
        swaps = int(swapper.stdout.read().split()[-1])
    assert swaps > 0
    assert written + refused == RACED_WRITES
    assert os.listdir(outside) == []
    landed = [name for folder in (root / "d", root / "d.away") if folder.is_dir() for name in os.listdir(folder)]
    assert len(landed) == written
