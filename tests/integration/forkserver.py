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
import contextlib
import json
import locale
import os
import selectors
import signal
import socket
import struct
import subprocess
import sys
import tempfile
import threading
from pathlib import Path

DECODE = str(Path(sys.executable).parent / "decode")
HEADER = struct.Struct("!I")  # the length of a request's JSON, sent with its three descriptors
ENABLED = os.environ.get("DECODE_TESTS_FORKSERVER", "on") != "off"
"""`DECODE_TESTS_FORKSERVER=off`: every run a plain `decode` process, as before the server (to compare)."""
WARM_MODULES = ("decode.cli", "pydantic_ai", "decode.agent.compose", "decode.runtime.run", "decode.models.script")
"""What `decode run` imports on the way to its first request (measured with `-X importtime`)."""


def _child(request: dict, fds: list[int]) -> None:
    """In the forked child: become the requested `decode` process, run it, exit with its code."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.argv = request["argv"]
    sys.path[0:0] = [str(Path(request["argv"][0]).parent)]  # as the console script has it
    code: object = 0
    try:
        from decode.cli import cli

        cli()
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:  # what the interpreter does with an uncaught exception: trace, exit 1
        import traceback

        traceback.print_exc()
        code = 1
    if not isinstance(code, int):  # the interpreter prints a non-int exit code and exits 1
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    atexit._run_exitfuncs()  # decode's own clean-ups (registered by the run), as at interpreter exit
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)


def _receive(conn: socket.socket) -> tuple[dict, list[int]]:
    head, fds, _, _ = socket.recv_fds(conn, HEADER.size, 3)
    (length,) = HEADER.unpack(head)
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise ConnectionError("the client went away mid-request")
        body += chunk
    return json.loads(body), list(fds)


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
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(64)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
    print("ready", flush=True)
    inherited: set[int] = set()  # descriptors a new child must not keep: other runs' sockets and pidfds
    while True:
        for key, _ in selector.select():
            if key.data == "stdin":
                return  # EOF: the test process is gone
            if key.data == "accept":
                conn, _ = listener.accept()
                request, fds = _receive(conn)
                assert threading.active_count() == 1, "the fork server must be single-threaded to fork"
                pid = os.fork()
                if pid == 0:
                    for fd in (*inherited, conn.fileno(), listener.fileno()):
                        os.close(fd)
                    _child(request, fds)
                for fd in fds:
                    os.close(fd)
                pidfd = os.pidfd_open(pid)
                inherited |= {pidfd, conn.fileno()}
                selector.register(pidfd, selectors.EVENT_READ, (conn, pid))
                conn.sendall(f"{pid}\n".encode())
                continue
            conn, pid = key.data
            _, status = os.waitpid(pid, 0)
            selector.unregister(key.fd)
            inherited -= {key.fd, conn.fileno()}
            os.close(key.fd)
            with contextlib.suppress(OSError):  # the client gave up waiting (its timeout): nobody to tell
                conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            conn.close()


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
            body = json.dumps({"argv": argv, "cwd": str(cwd), "env": env}).encode()
            with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
                conn.connect(self.path)
                socket.send_fds(conn, [HEADER.pack(len(body))], [stdin.fileno(), out.fileno(), err.fileno()])
                conn.sendall(body)
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
