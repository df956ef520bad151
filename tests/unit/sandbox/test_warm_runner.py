"""The runner's reading of the mount table (decode/sandbox/warm_runner.py), on this machine."""

import os
from collections import Counter

from decode.sandbox.warm_runner import _under, mount_table, mounts, whole


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
