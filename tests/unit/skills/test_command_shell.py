"""A command's `!` lines (`decode.skills.command_shell`): real bash, a real gate."""

import subprocess
import sys
from pathlib import Path

PROGRAM = """
import asyncio, resource, sys
from pathlib import Path
from decode.permissions.gate import PermissionGate
from decode.processes.local import LocalExecutor
from decode.skills.command_shell import run_gated

resource.setrlimit(resource.RLIMIT_AS, (1 << 30, 1 << 30))  # 1 GiB: the file is more
workspace = Path(sys.argv[1])
gate = PermissionGate(workspace=workspace, home=workspace)
shown = asyncio.run(run_gated("cat big.txt", gate, LocalExecutor(workspace), 120, None, lambda line: None))
print(len(shown), shown.endswith("[output cut]"))
"""


def test_a_lines_huge_output_is_kept_to_its_head_never_whole_in_memory(tmp_path: Path) -> None:
    """A repository can ship a file git compresses to nothing (gigabytes of one byte): its command's
    `!`cat big.txt`` runs unasked (cat is read-only, the file is in the project). Only the head the
    prompt shows is kept; the rest is read and dropped."""
    subprocess.run(["git", "init", "-q"], cwd=tmp_path, check=True)
    with (tmp_path / "big.txt").open("wb") as file:
        file.truncate(5 << 28)  # 1.25 GiB, sparse: no disk
    done = subprocess.run(
        [sys.executable, "-c", PROGRAM, str(tmp_path)], capture_output=True, text=True, timeout=200, check=False
    )
    assert done.returncode == 0, done.stderr[-2000:]
    assert done.stdout.split() == ["30013", "True"]
