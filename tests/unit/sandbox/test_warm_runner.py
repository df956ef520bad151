"""The runner's reading of the mount table (decode/sandbox/warm_runner.py), on this machine."""

import os

from decode.sandbox.warm_runner import _under, mounts


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
