"""A `decode` forked by the tests' fork server and left running, for tests that signal it mid-run.

`spawn_forked()` is to `subprocess.Popen` what `run_forked()` is to `subprocess.run`: the same
process a fresh `decode` would be (see forkserver.py), without paying for its imports; a plain
process where the server cannot give the same one.
"""

import os
import select
import signal
import socket
import subprocess
import tempfile
import time
from pathlib import Path
from typing import IO

from tests.forking import send
from tests.integration.forkserver import ENABLED, DecodeForkserver, shared


class ForkedProcess:
    """A `decode` forked by the server and left running, like `subprocess.Popen(argv, stdin=DEVNULL,
    stdout=PIPE, stderr=PIPE)`: `pid`, `poll()`, `wait()`, `kill()`, `communicate()`, `returncode`.
    Its output goes to files, so it never blocks on a pipe nobody reads."""

    def __init__(self, server: DecodeForkserver, argv: list[str], *, cwd: Path, env: dict[str, str]) -> None:
        self.args = argv
        self.returncode: int | None = None
        self._out, self._err = tempfile.TemporaryFile(), tempfile.TemporaryFile()  # noqa: SIM115 (communicate() closes)
        self._received = b""  # what the server sent: the pid line, then the exit code line
        self._conn = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
        self._conn.connect(server.path)
        with open(os.devnull, "rb") as stdin:
            request = {"argv": argv, "cwd": str(cwd), "env": env}
            send(self._conn, request, [stdin.fileno(), self._out.fileno(), self._err.fileno()])
        self.pid = int(self._line(0, None))

    def _line(self, index: int, timeout: float | None) -> str | None:
        """Line `index` the server sent, waiting up to `timeout` s for it (None: as long as it takes)."""
        deadline = None if timeout is None else time.monotonic() + timeout
        while self._received.count(b"\n") <= index:
            left = None if deadline is None else max(0.0, deadline - time.monotonic())
            if not select.select([self._conn], [], [], left)[0]:
                return None
            chunk = self._conn.recv(64)
            if not chunk:
                raise RuntimeError(f"the decode fork server ended before {self.args[1:]} did")
            self._received += chunk
        return self._received.split(b"\n")[index].decode()

    def wait(self, timeout: float | None = None) -> int:
        if self.returncode is None:
            status = self._line(1, timeout)
            if status is None:
                raise subprocess.TimeoutExpired(self.args, timeout or 0)
            self.returncode = int(status)
            self._conn.close()
        return self.returncode

    def poll(self) -> int | None:
        try:
            return self.wait(0)
        except subprocess.TimeoutExpired:
            return None

    def kill(self) -> None:
        if self.poll() is None:
            os.kill(self.pid, signal.SIGKILL)

    def communicate(self, timeout: float | None = None) -> tuple[bytes, bytes]:
        self.wait(timeout)
        out, err = (self._read(file) for file in (self._out, self._err))
        return out, err

    @staticmethod
    def _read(file: IO[bytes]) -> bytes:
        with file:
            file.seek(0)
            return file.read()


def spawn_forked(argv: list[str], *, cwd: Path, env: dict[str, str]) -> ForkedProcess | subprocess.Popen[bytes]:
    """`argv` (a `decode` command) started and left running, as `subprocess.Popen(argv, stdin=DEVNULL,
    stdout=PIPE, stderr=PIPE)` starts it; a plain process where the server cannot give the same one."""
    if ENABLED and shared().serves(argv, env):
        return ForkedProcess(shared(), argv, cwd=cwd, env=env)
    pipe = subprocess.PIPE
    return subprocess.Popen(argv, cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=pipe, stderr=pipe)
