"""Attacks on the warm bubblewrap sandbox of round 4 (issue 27): what a hostile command reaches.

The runner makes each command's namespaces from a child that then leaves its mount namespace,
and a mount the host adds over the view makes the warm sandbox stale. A command must reach
neither the runner's descriptors nor its view: what it mounts, in namespaces of its own, ends
with it, and the next command runs warm in the view as it was.
"""

import shutil
from pathlib import Path

import pytest

from decode.sandbox.executor import SandboxExecutor
from tests.integration.sandbox.conftest import run, warm

pytestmark = [
    pytest.mark.integration,
    pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed (apt install bubblewrap)"),
]


async def test_a_warm_command_holds_no_descriptor_of_the_runner(sandbox: SandboxExecutor) -> None:
    # The runner's control socket or a pipe of another command, inherited, would let a command
    # forge the report of what it left, or another command's output.
    probe = 'for fd in /proc/$$/fd/*; do [ -e "$fd" ] && echo "${fd##*/}"; done; true'  # the glob's own is closed
    result, out, err = await run(sandbox, probe)
    warm(sandbox)
    assert result.exit_code == 0, err
    assert out.split() == ["0", "1", "2"]


async def test_what_a_command_mounts_in_namespaces_of_its_own_ends_with_it(
    sandbox: SandboxExecutor, project: Path
) -> None:
    (project / "kept.txt").write_text("the Workspace\n")
    await run(sandbox, "true")
    before = warm(sandbox)
    # A user namespace of its own lets an unprivileged command mount where the kernel allows it
    # (here writing its uid_map is refused, so this holds by the kernel too): over the Workspace
    # and /tmp, a process left holding those mounts.
    script = (
        'unshare -Urm sh -c \'mount -t tmpfs none "$PWD" && mount -t tmpfs none /tmp && echo mounted'
        " && (sleep 1000 &) ' 2>/dev/null; true"
    )
    result, _, err = await run(sandbox, script)
    assert result.exit_code == 0, err
    result, out, err = await run(sandbox, "cat kept.txt")
    assert (result.exit_code, out) == (0, "the Workspace\n"), err
    assert warm(sandbox) is before  # not taken for a host mount over the view: still warm
