"""Reference solutions to lesson 05's exercises, and a plausible wrong answer for each (the checks reject it)."""

import os
import signal
import subprocess


def run_command(command: str, timeout: float) -> tuple[int | None, str]:
    """Run `bash -c command` in its own process group; on timeout, kill the group."""
    process = subprocess.Popen(
        ["bash", "-c", command],
        stdin=subprocess.DEVNULL,
        stdout=subprocess.PIPE,
        text=True,
        start_new_session=True,  # bash leads a new group (its id is bash's pid); its children join it
    )
    try:
        stdout, _ = process.communicate(timeout=timeout)
    except subprocess.TimeoutExpired:
        os.killpg(process.pid, signal.SIGKILL)
        process.communicate()  # every writer of the pipe is dead: this returns at once
        return None, ""
    return process.returncode, stdout


def wrong_run_command(command: str, timeout: float) -> tuple[int | None, str]:
    """Kills bash on timeout, and only bash: what it put in the background lives on."""
    try:
        done = subprocess.run(
            ["bash", "-c", command], stdin=subprocess.DEVNULL, capture_output=True, text=True, timeout=timeout
        )
    except subprocess.TimeoutExpired:
        return None, ""
    return done.returncode, done.stdout


class HeadTail:
    """The first `limit // 2` bytes, and a rolling tail of the bytes after them."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.head = bytearray()
        self.tail = b""
        self.total = 0

    def feed(self, chunk: bytes) -> None:
        self.total += len(chunk)
        room = self.limit // 2 - len(self.head)
        if room > 0:
            self.head += chunk[:room]
            chunk = chunk[room:]
        self.tail = (self.tail + chunk)[-(self.limit - self.limit // 2) :]

    def text(self) -> str:
        omitted = self.total - len(self.head) - len(self.tail)
        note = f"\n[… {omitted} bytes omitted …]\n" if omitted else ""
        return self.head.decode(errors="replace") + note + self.tail.decode(errors="replace")


class WrongHeadTail:
    """Right text, but it keeps every byte until the end: 50 MB of output costs 50 MB."""

    def __init__(self, limit: int) -> None:
        self.limit = limit
        self.data = bytearray()

    def feed(self, chunk: bytes) -> None:
        self.data += chunk

    def text(self) -> str:
        if len(self.data) <= self.limit:
            return self.data.decode(errors="replace")
        half = self.limit // 2
        omitted = len(self.data) - 2 * half
        return self.data[:half].decode() + f"\n[… {omitted} bytes omitted …]\n" + self.data[-half:].decode()


head_tail, wrong_head_tail = HeadTail, WrongHeadTail  # the names check_head_tail is run with
