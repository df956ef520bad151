"""Lesson 05's exercises: a command timeout that leaves nothing behind, and a bounded output capture.

Each `check_NAME(candidate)` runs the learner's code on real processes and shows ✓ or ✗ with the
reason (`course.check`). The reference solutions are in `solutions.py`.
"""

import contextlib
import os
import random
import re
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
            # The background sleep is bash's grandchild: its parent, the subshell, exits at once, so
            # killing bash's children (`pkill -P`) misses it. Only the process group holds it.
            command = f"(sleep 60 & echo $! > {shlex.quote(str(pid_file))}); sleep 60"
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
                    f"after the timeout, `(sleep 60 &)` (pid {background}), a grandchild of bash, is still "
                    "running: kill the whole process group (start bash with start_new_session=True, then "
                    "os.killpg(pid, SIGKILL)); killing bash or its children misses what they started"
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

        # A character split over two chunks, as a pipe may hand it over: `é` is two bytes, c3 a9.
        split = head_tail(100)
        split.feed(b"caf\xc3")
        split.feed(b"\xa9\n")
        assert split.text() == "café\n", (
            f"b'caf\\xc3' then b'\\xa9\\n' gave {split.text()!r}, not 'café\\n': a character can arrive in two "
            "chunks, so keep bytes and decode them in text(), not chunk by chunk"
        )

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

        # Two-byte characters cut by every chunk boundary: the limit and the note count bytes.
        accents = ("é" * 600).encode()  # 1,200 bytes, 600 characters
        capture = head_tail(1000)
        for at in range(0, len(accents), 3):
            capture.feed(accents[at : at + 3])
        expected = "é" * 250 + _note(200) + "é" * 250
        got = capture.text()
        note = re.search(r"\[… .* omitted …\]", got)
        assert got == expected, (
            f"600 × 'é' (1,200 bytes) fed 3 bytes at a time, limit 1000: text() should be 250 × 'é' (500 bytes), "
            f"then {_note(200)!r}, then 250 × 'é'; got {got[:6]!r} … {got[-6:]!r}, {got.count('�')} × '�', "
            f"note {note.group() if note else None!r}: count bytes, and decode the bytes you keep, not each chunk"
        )

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
