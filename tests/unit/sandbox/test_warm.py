"""The warm sandbox's bwrap command line (ADR-0111): the cold one's view, with what the runner needs."""

from pathlib import Path

from decode.sandbox.bwrap import sandbox_argv
from decode.sandbox.warm import RUNNER, RUNNER_CAPS, view_points, warm_argv, without_kernel_binds


def test_the_warm_sandbox_keeps_the_cold_view_and_adds_only_what_the_runner_needs(tmp_path: Path) -> None:
    cold = sandbox_argv("bwrap", [], workspace=tmp_path, cwd=tmp_path, network=False)
    warm = warm_argv(cold, "/usr/bin/python3")
    cut = warm.index("--", warm.index("--chdir"))
    head, runner = warm[:cut], warm[cut + 1 :]
    # Everything of the cold view is there, in order; only /dev read-only, a user namespace and caps added.
    at = head.index("--remount-ro")
    assert head[at : at + 2] == ["--remount-ro", "/dev"]
    caps = ["--unshare-user", *(arg for cap in RUNNER_CAPS for arg in ("--cap-add", cap))]
    assert head[-len(caps) :] == caps
    assert head[:at] + head[at + 2 : -len(caps)] == without_kernel_binds(cold[:-1])
    assert "/proc/sys" in cold
    assert "/proc/sys" not in head  # each command's pid 1 makes it read-only in its own /proc
    assert head[head.index("--cap-drop") + 1] == "ALL"
    assert head.index("--cap-drop") < head.index("--cap-add")  # dropped first: only these come back
    assert "--unshare-net" in head
    assert runner[:4] == ["/usr/bin/python3", "-I", "-S", "-c"]
    assert runner[4] == RUNNER.read_text(encoding="utf-8")
    assert runner[5:] == view_points(head)  # what the runner checks is still mounted


def test_the_runner_checks_the_views_mount_points_only(tmp_path: Path) -> None:
    # The host's own mounts below `/` (a container's, gone at each `docker run --rm`) are not the
    # view's: their loss made every command run cold, where leftovers are not reliably reported.
    protected = tmp_path / ".mcp.json"
    protected.write_text("{}")
    cold = sandbox_argv("bwrap", [], workspace=tmp_path, cwd=tmp_path, network=False, hidden=[tmp_path / ".env"])
    warm = warm_argv(cold, "/usr/bin/python3")
    points = warm[warm.index(RUNNER.read_text(encoding="utf-8")) + 1 :]  # the runner's arguments
    assert points[:3] == ["/", "/dev", "/proc"]
    assert {"/tmp", "/run", str(tmp_path), str(protected), str(tmp_path / ".env")} <= set(points)
    assert len(points) == len(set(points))
    assert "/dev/null" not in points  # a source, not a mount point
    assert "/proc/sys" not in points  # not mounted by the warm sandbox's bwrap (each pid 1 does)
