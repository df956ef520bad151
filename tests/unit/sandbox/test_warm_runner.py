"""The runner's reading of the mount table (decode/sandbox/warm_runner.py), on this machine."""

import os
from collections import Counter

from decode.sandbox.warm_runner import _and_above, _under, mount_table, mounts, over_view, whole


def test_the_mount_table_names_the_root_and_unescapes_mount_points() -> None:
    table = mounts()
    points = [point for _, _, point, _, _ in table]
    assert "/" in points
    assert all("\\040" not in point for point in points)
    assert all(isinstance(writable, bool) for *_, writable in table)
    proc = [fstype for _, _, point, fstype, _ in table if point == "/proc"]
    assert proc == [] or "proc" in proc or os.path.ismount("/proc")


def test_under_is_the_path_or_below_it() -> None:
    assert _under("/tmp/a/b", "/tmp/a")
    assert _under("/tmp/a", "/tmp/a")
    assert not _under("/tmp/ab", "/tmp/a")


def test_a_view_is_whole_until_one_of_its_mounts_is_gone() -> None:
    table = mount_table()
    expected = Counter((point, fstype) for _, _, point, fstype, _ in mounts(table))
    assert whole(table, expected)
    root = next(line for line in table.splitlines(keepends=True) if line.split(b" ")[4] == b"/")
    assert not whole(table.replace(root, b"", 1), expected)  # the root's mount lost
    assert whole(table + root, expected)  # one more (a command's own mount) is no loss


def test_the_view_and_every_folder_above_it_up_to_the_root() -> None:
    assert _and_above("/home/user/.ssh") == ["/home/user/.ssh", "/home/user", "/home", "/"]
    assert _and_above("/") == ["/"]


def test_only_mounts_at_or_above_the_view_count() -> None:
    table = (
        b"1 0 8:1 / / rw - ext4 /dev/sda1 rw\n"
        b"2 1 0:5 / /home rw - ext4 /dev/sdb1 rw\n"
        b"3 2 0:6 / /home/user rw - tmpfs none rw\n"
        b"4 1 0:7 / /var/lib/docker/overlay2/x/merged rw - overlay overlay rw\n"
    )
    view = set(_and_above("/home/user"))
    assert over_view(table, view) == Counter({("/", "ext4"): 1, ("/home", "ext4"): 1, ("/home/user", "tmpfs"): 1})
