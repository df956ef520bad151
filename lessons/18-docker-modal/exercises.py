"""Lesson 18's exercise: end every process a tag marks, as the container's killer does."""

import os
import secrets
import subprocess
import time
from collections.abc import Callable
from pathlib import Path

from course import Verdict, check


def _tagged(tag: str) -> list[int]:
    """The live processes with `DECODE_PROCESS_TAG=<tag>` in their environment (a zombie's is empty)."""
    mark = f"DECODE_PROCESS_TAG={tag}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue
    return found


def _until(condition: Callable[[], bool], seconds: float = 10.0) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def check_end_tagged(end_tagged: Callable[[str], None]) -> Verdict:
    """`end_tagged(tag)` ends every tagged process: in the command's session and one that left it."""

    def test() -> None:
        tag = f"exercise-{secrets.token_hex(4)}"
        env = {**os.environ, "DECODE_PROCESS_TAG": tag}
        command = subprocess.Popen(
            ["bash", "-c", "sleep 300 & setsid sleep 300 & wait"], env=env, start_new_session=True
        )
        try:
            assert _until(lambda: len(_tagged(tag)) == 3), "the check's processes did not start"
            end_tagged(tag)
            left = _tagged(tag)
            assert _until(lambda: not _tagged(tag), 2.0), (
                f"{len(left)} tagged process(es) still run after end_tagged: a process that left the "
                "session (setsid) is not in the command's process group; find them by their tag"
            )
        finally:
            for pid in _tagged(tag):
                os.kill(pid, 9)
            command.wait(timeout=10)

    return check("every process the tag marks is ended, in any session", test)
