"""Concurrent writers of one settings file lose nothing; a killed holder never blocks the next."""

import json
import os
import signal
import subprocess
import sys
import textwrap
from pathlib import Path

import pytest

from decode.config.locked_write import locked

PROCESSES, EACH = 8, 50
READY_TIMEOUT = 120  # seconds: eight interpreters importing decode on a busy machine


def _run_together(code: str, cwd: Path) -> None:
    """Start PROCESSES interpreters running `code` (with `worker` 0..N-1 and `EACH` defined), let
    them import, then release them at once: each waits on one shared pipe until its writer closes."""
    read_end, write_end = os.pipe()
    prelude = f"import os, sys\nworker = int(sys.argv[1])\nEACH = {EACH}\n"
    wait = f"print('ready', flush=True)\nos.read({read_end}, 1)\n"  # returns at EOF: the barrier opens
    head, _, body = textwrap.dedent(code).partition("# go\n")
    script = prelude + head + wait + body
    workers = [
        subprocess.Popen(
            [sys.executable, "-c", script, str(n)],
            cwd=cwd,
            pass_fds=(read_end,),
            stdout=subprocess.PIPE,
            stderr=subprocess.PIPE,
            text=True,
        )
        for n in range(PROCESSES)
    ]
    os.close(read_end)
    try:
        for worker in workers:  # every one imported and waiting at the barrier
            assert worker.stdout is not None
            assert worker.stdout.readline() == "ready\n", worker.stderr.read() if worker.stderr else ""
    finally:
        os.close(write_end)  # all start together
    for worker in workers:
        _, err = worker.communicate(timeout=READY_TIMEOUT)
        assert worker.returncode == 0, err


def test_always_rules_saved_by_eight_processes_at_once_are_all_kept(tmp_path: Path) -> None:
    # On main, about half were lost: each process read the file, added its rule, and wrote over the others'.
    _run_together(
        """
        from pathlib import Path
        from decode.permissions.settings_files import add_allow_rules
        # go
        for n in range(EACH):
            add_allow_rules(Path.cwd(), [f"Bash(echo {worker}-{n})"])
        """,
        tmp_path,
    )
    saved = json.loads((tmp_path / ".decode" / "settings.local.json").read_text())["permissions"]["allow"]
    assert sorted(saved) == sorted(f"Bash(echo {w}-{n})" for w in range(PROCESSES) for n in range(EACH))
    assert (tmp_path / ".decode" / "settings.local.json").stat().st_mode & 0o777 == 0o600  # its mode kept


def test_trust_remembered_by_eight_processes_at_once_is_all_kept(tmp_path: Path) -> None:
    _run_together(
        """
        from pathlib import Path
        from decode.config.trust_store import remember
        store = Path.cwd() / "home" / ".decode" / "trusted-x.json"
        # go
        for n in range(EACH):
            remember(store, Path(f"/projects/{worker}-{n}"), "digest")
        """,
        tmp_path,
    )
    trusted = json.loads((tmp_path / "home" / ".decode" / "trusted-x.json").read_text())
    assert len(trusted) == PROCESSES * EACH


def _holder(path: Path) -> subprocess.Popen[str]:
    """Another process holding the lock of `path` until it is killed."""
    code = "import sys, pathlib\nfrom decode.config.locked_write import locked\n"
    code += f"with locked(pathlib.Path({str(path)!r})):\n    print('held', flush=True)\n    sys.stdin.read()\n"
    holder = subprocess.Popen([sys.executable, "-c", code], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True)
    assert holder.stdout is not None
    assert holder.stdout.readline() == "held\n"
    return holder


def test_a_writer_gives_up_naming_the_file_while_another_holds_the_lock(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    holder = _holder(target)
    try:
        with pytest.raises(TimeoutError, match=r"settings\.json"), locked(target, wait=0.2):
            pass
    finally:
        holder.kill()
        holder.communicate()


def test_a_killed_holder_does_not_block_the_next_writer(tmp_path: Path) -> None:
    target = tmp_path / "settings.json"
    holder = _holder(target)
    holder.send_signal(signal.SIGKILL)
    holder.communicate()
    with locked(target, wait=60):  # the kernel released it with the process
        target.write_text("{}")
    assert target.read_text() == "{}"
