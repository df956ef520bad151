"""A fork server for `decode`: every run is a real process, without paying for its imports.

Most of a `decode run`'s start-up is importing pydantic-ai (~2 s of CPU on the CI machine), and
the integration tests start the CLI hundreds of times. This server imports the CLI's modules once,
then forks one child per run: each child is its own process, with the run's argv, working
directory, whole environment and standard streams, runs `decode`'s real entry point, and its exit
code is the run's. What a test sees (output, files, exit code, processes left behind) is what a
fresh `decode` process gives; only the imports were done before the fork.

`DecodeForkserver.run()` falls back to a plain `decode` process when the fork server cannot give
the same process: an environment that changes how Python starts (`PYTHON*`, e.g. a lesson
snapshot's PYTHONPATH), or a server that is not running. Run as a script (`python -P forkserver.py
SOCKET`) it is the server; it must be single-threaded when it forks, which it checks.
"""

import atexit
import locale
import os
import signal
import socket
import subprocess
import sys
import tempfile
from pathlib import Path

from tests.forking import send, serve_forks

DECODE = str(Path(sys.executable).parent / "decode")
ENABLED = os.environ.get("DECODE_TESTS_FORKSERVER", "on") != "off"
"""`DECODE_TESTS_FORKSERVER=off`: every run a plain `decode` process, as before the server (to compare)."""
WARM_MODULES = ("decode.cli", "pydantic_ai", "decode.agent.compose", "decode.runtime.run", "decode.models.script")
"""What `decode run` imports on the way to its first request (measured with `-X importtime`)."""


def _run_decode(request: dict) -> None:
    """In the forked child: `decode`'s real entry point with the request's argv."""
    sys.argv = request["argv"]
    sys.path[0:0] = [str(Path(request["argv"][0]).parent)]  # as the console script has it
    from decode.cli import cli

    cli()


def warm() -> None:
    """Import what `decode run` imports before its first request, as it does: with decode's deferred
    imports on (`LazyGroup.main`), so the MCP client stack loads in the run that asks for it, as in a
    fresh process (and fastmcp's settings, read at import, come from that run's directory and env)."""
    import importlib

    from decode.models.deferred_imports import defer_imports

    defer_imports()
    for module in WARM_MODULES:
        importlib.import_module(module)


def serve(path: str) -> None:
    """Import the CLI, then fork a `decode` per connection until stdin closes (the test process ended)."""
    warm()
    serve_forks(path, _run_decode)


def _python_startup(env: dict[str, str]) -> dict[str, str]:
    """The variables that change how a Python process starts (the fork server's are fixed): the
    interpreter's own, and the locale its standard streams' encoding comes from."""
    return {name: value for name, value in env.items() if name.startswith(("PYTHON", "LC_")) or name == "LANG"}


class DecodeForkserver:
    """The client: `run(argv, cwd=…, env=…, input=…, timeout=…)` like `subprocess.run(…, capture_output=True)`."""

    def __init__(self, directory: Path) -> None:
        self.path = str(directory / "forkserver.sock")
        self.env = dict(os.environ)
        self.process = subprocess.Popen(
            [sys.executable, "-P", __file__, self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )
        assert self.process.stdout is not None
        self.ready = self.process.stdout.readline().strip() == "ready"

    def close(self) -> None:
        """End the server (stdin EOF) and wait for it; runs still going finish on their own."""
        if self.process.stdin is not None:
            self.process.stdin.close()
        try:
            self.process.wait(timeout=30)
        except subprocess.TimeoutExpired:
            self.process.kill()
            self.process.wait()

    def serves(self, argv: list[str], env: dict[str, str]) -> bool:
        """Whether a forked child would be what a fresh `argv` process with `env` is: this
        environment's `decode` program, started the way the server was."""
        same_start = _python_startup(env) == _python_startup(self.env)
        return self.ready and self.process.poll() is None and argv[0] == DECODE and same_start

    def run(
        self, argv: list[str], *, cwd: Path, env: dict[str, str], input: bytes = b"", timeout: float = 120
    ) -> subprocess.CompletedProcess[bytes]:
        if not self.serves(argv, env):
            return subprocess.run(argv, cwd=cwd, env=env, input=input, capture_output=True, timeout=timeout)
        with tempfile.TemporaryFile() as stdin, tempfile.TemporaryFile() as out, tempfile.TemporaryFile() as err:
            stdin.write(input)
            stdin.seek(0)
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.connect(self.path)
                send(conn, {"argv": argv, "cwd": str(cwd), "env": env}, [stdin.fileno(), out.fileno(), err.fileno()])
                conn.settimeout(timeout)
                reader = conn.makefile("r")
                pid = int(reader.readline())
                try:
                    status = reader.readline()
                except TimeoutError:
                    os.kill(pid, signal.SIGKILL)  # what subprocess.run does on its timeout
                    raise subprocess.TimeoutExpired(argv, timeout) from None
            if not status:
                raise RuntimeError(f"the decode fork server ended before {argv[1:]} did")
            out.seek(0)
            err.seek(0)
            return subprocess.CompletedProcess(argv, int(status), out.read(), err.read())


def as_text(done: subprocess.CompletedProcess[bytes]) -> subprocess.CompletedProcess[str]:
    """`done` as `subprocess.run(…, text=True)` returns it: decoded, universal newlines."""

    def text(data: bytes) -> str:
        return data.decode(locale.getpreferredencoding(False)).replace("\r\n", "\n").replace("\r", "\n")

    return subprocess.CompletedProcess(done.args, done.returncode, text(done.stdout), text(done.stderr))


_shared: DecodeForkserver | None = None


def shared() -> DecodeForkserver:
    """This test process's fork server, started on first use (it ends with the process: stdin EOF)."""
    global _shared
    if _shared is None:
        _shared = DecodeForkserver(Path(tempfile.mkdtemp(prefix="decode-forkserver-")))
        atexit.register(_shared.close)  # waited for, so its runs count in the test process's CPU time
    return _shared


def run_forked(
    argv: list[str], *, cwd: Path, env: dict[str, str], input: bytes = b"", timeout: float = 120
) -> subprocess.CompletedProcess[bytes]:
    """`argv` (a `decode` command) run to the end like `subprocess.run(…, capture_output=True)`."""
    if not ENABLED:
        return subprocess.run(argv, cwd=cwd, env=env, input=input, capture_output=True, timeout=timeout)
    return shared().run(argv, cwd=cwd, env=env, input=input, timeout=timeout)


if __name__ == "__main__":
    serve(sys.argv[1])
