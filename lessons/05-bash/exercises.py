"""Lesson 05's exercises: a command timeout that leaves nothing behind, and a bounded output capture.

Each `check_NAME(candidate)` runs the learner's code on real processes and shows ✓ or ✗ with the
reason (`course.check`). The reference solutions are in `solutions.py`.
"""

import contextlib
import os
import random
import shlex
import signal
import subprocess
import tempfile
import time
import tracemalloc
from collections.abc import Callable
from pathlib import Path
from typing import Any

from course import Verdict, check


def _running(pid: int) -> bool:
    """Alive, and not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def _wait_until(condition: Callable[[], object], seconds: float) -> bool:
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def check_run_command(run_command: Callable[[str, float], tuple[int | None, str]]) -> Verdict:
    """`run_command(command, timeout)` returns (exit code, stdout), and on timeout kills all the command started."""

    def test() -> None:
        done = run_command("echo hello; exit 3", 10)
        assert tuple(done) == (3, "hello\n"), (
            f"run_command('echo hello; exit 3', 10) returned {done!r}, not (3, 'hello\\n')"
        )
        with tempfile.TemporaryDirectory() as folder:
            pid_file = Path(folder) / "bg.pid"
            command = f"sleep 60 & echo $! > {shlex.quote(str(pid_file))}; sleep 60"
            started = time.monotonic()
            done = run_command(command, 1)
            took = time.monotonic() - started
            assert _wait_until(lambda: pid_file.exists() and pid_file.read_text().strip(), 5), (
                "the command never wrote the background sleep's pid: is it run with `bash -c`?"
            )
            background = int(pid_file.read_text())
            try:
                assert took < 10, f"run_command(..., 1) took {took:.0f} s: on timeout, kill and return at once"
                assert tuple(done) == (None, ""), f"on timeout, return (None, ''), not {done!r}"
                assert _wait_until(lambda: not _running(background), 3), (
                    f"after the timeout, `sleep 60 &` (pid {background}) is still running: kill the whole "
                    "process group (start bash with start_new_session=True, then os.killpg(pid, SIGKILL))"
                )
            finally:
                with contextlib.suppress(ProcessLookupError):
                    os.kill(background, signal.SIGKILL)

    return check("run_command: exit code, stdout, and a timeout that leaves nothing behind", test)


def _note(omitted: int) -> str:
    return f"\n[… {omitted} bytes omitted …]\n"


def check_head_tail(head_tail: Callable[[int], Any]) -> Verdict:
    """`HeadTail(limit)`: `feed(chunk)` and `text()`, head and tail past the limit, bounded memory."""

    def test() -> None:
        small = head_tail(100)
        small.feed(b"hello\n")
        small.feed(b"world\n")
        assert small.text() == "hello\nworld\n", f"within the limit, text() is everything fed, not {small.text()!r}"

        # A real command, read in pipe-sized chunks as `executor.run` hands them over.
        capture = head_tail(1000)
        seq = subprocess.Popen(["seq", "1", "100000"], stdout=subprocess.PIPE)
        assert seq.stdout is not None
        data = bytearray()
        while chunk := os.read(seq.stdout.fileno(), 4096):
            data += chunk
            capture.feed(chunk)
        seq.stdout.close()
        seq.wait()
        expected = data[:500].decode() + _note(len(data) - 1000) + data[-500:].decode()
        text = capture.text()
        assert text.startswith("1\n2\n3\n"), f"text() should start with the head of `seq 1 100000`: {text[:30]!r}"
        assert text.endswith("99999\n100000\n"), f"text() should end with the tail: {text[-30:]!r}"
        assert text == expected, (
            f"past the limit, text() is the first 500 bytes, {_note(len(data) - 1000)!r}, then the last 500; "
            f"got {len(text)} characters: {text[:40]!r} … {text[-40:]!r}"
        )

        # The same bytes in odd-sized chunks, some of one byte, give the same text.
        capture = head_tail(1000)
        rng, at = random.Random(5), 0
        while at < len(data):
            size = rng.choice([1, 1, 7, 333, 4096, 70_000])
            capture.feed(bytes(data[at : at + size]))
            at += size
        assert capture.text() == expected, "chunks of other sizes (1 byte, 70 KB) give another text()"

        # 20 MB through it must not hold 20 MB.
        capture = head_tail(10_000)
        chunk = b"x" * 65_536
        tracemalloc.start()
        try:
            for _ in range(320):
                capture.feed(chunk)
            peak = tracemalloc.get_traced_memory()[1]
        finally:
            tracemalloc.stop()
        assert peak < 2_000_000, (
            f"feeding 20 MB took {peak / 1e6:.0f} MB of memory at its peak: keep only the head and a rolling tail"
        )
        assert capture.text().endswith("x" * 5000), "after 20 MB, the tail is missing"

    return check("HeadTail: everything within the limit, head + note + tail past it, in bounded memory", test)
