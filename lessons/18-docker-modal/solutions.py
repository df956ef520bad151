"""Reference solution of lesson 18's exercise, and a plausible mistake that its check rejects."""

import contextlib
import os
import signal
from pathlib import Path


def _tagged(tag: str) -> list[int]:
    mark = f"DECODE_PROCESS_TAG={tag}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue  # gone meanwhile, or another user's
    return found


def end_tagged(tag: str) -> None:
    """Every process carrying the tag, SIGKILLed, again until none is left (one may fork meanwhile)."""
    for _ in range(200):
        found = _tagged(tag)
        if not found:
            return
        for pid in found:
            with contextlib.suppress(ProcessLookupError):
                os.kill(pid, signal.SIGKILL)


def wrong_end_tagged(tag: str) -> None:
    """The host's way: the process group of the first tagged process. One that left the session survives."""
    found = _tagged(tag)
    if found:
        os.killpg(os.getpgid(min(found)), signal.SIGKILL)
