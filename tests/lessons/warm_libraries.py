"""A fresh `decode` of any lesson snapshot, forked from a process that imported its libraries once.

The lesson tests start Python with a snapshot on PYTHONPATH hundreds of times (each README "try it"
command, each snapshot's import check), and most of each start is importing the same libraries
(pydantic-ai, openai, modal…). This server imports every library `decode/` names, never any
`decode` code (it checks), then forks one child per request. The child takes the request's
directory, environment, argv and standard streams, puts the request's PYTHONPATH first on
`sys.path` as Python's start-up does, and runs `python -m decode` (or a `-c` program): every
`decode` module is read from that snapshot, anew, in a process of its own.

`python -P warm_libraries.py serve SOCKET` is the server (it ends when its stdin closes);
`python -P warm_libraries.py client SOCKET ARGS…` is `python -P -m decode ARGS…` through it, or
exactly that (exec) when no server answers.
"""

import ast
import atexit
import contextlib
import gc
import importlib
import json
import os
import runpy
import selectors
import signal
import socket
import struct
import subprocess
import sys
import threading
import traceback
from pathlib import Path

ROOT = Path(__file__).resolve().parents[2]
HEADER = struct.Struct("!I")  # the length of a request's JSON, sent with its three descriptors


def libraries(package: Path) -> list[str]:
    """Every absolute module name `package`'s files import, but its own (lazy imports too)."""
    names: set[str] = set()
    for path in package.rglob("*.py"):
        for node in ast.walk(ast.parse(path.read_bytes())):
            if isinstance(node, ast.Import):
                names.update(alias.name for alias in node.names)
            elif isinstance(node, ast.ImportFrom) and node.level == 0 and node.module:
                names.add(node.module)
    return sorted(name for name in names if name.split(".")[0] != package.name)


def _child(request: dict, fds: list[int]) -> None:
    """In the forked child: become `python -P -m decode ARGS` (or `-c PROGRAM`) of the request."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    sys.path[0:0] = [entry for entry in request["env"].get("PYTHONPATH", "").split(os.pathsep) if entry]
    sys.dont_write_bytecode = bool(request["env"].get("PYTHONDONTWRITEBYTECODE"))
    code: object = 0
    try:
        if "program" in request:
            sys.argv = ["-c", *request["argv"]]
            exec(compile(request["program"], "<string>", "exec"), {"__name__": "__main__"})
        else:
            sys.argv = ["decode", *request["argv"]]
            runpy.run_module("decode", run_name="__main__", alter_sys=True)
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:  # what the interpreter does with an uncaught exception: trace, exit 1
        traceback.print_exc()
        code = 1
    if not isinstance(code, int):
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    atexit._run_exitfuncs()
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


def serve(path: str) -> None:
    for name in libraries(ROOT / "decode"):
        with contextlib.suppress(Exception):  # warming only: a child imports what it needs itself
            importlib.import_module(name)
    assert not any(name.split(".")[0] == "decode" for name in sys.modules), "a library imported decode"
    gc.freeze()  # the libraries' objects: never scanned by a child's collector, so never copied for it
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(16)
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
    print("ready", flush=True)
    while True:
        for key, _ in selector.select():
            if key.data == "stdin":  # EOF: the test process is done with it
                os._exit(0)  # no tear-down of every library imported: nothing of it is kept
            if key.data == "accept":
                conn, _ = listener.accept()
                request, fds = _receive(conn)
                assert threading.active_count() == 1, "the server must be single-threaded to fork"
                pid = os.fork()
                if pid == 0:
                    listener.close()
                    conn.close()
                    _child(request, fds)
                for fd in fds:
                    os.close(fd)
                selector.register(os.pidfd_open(pid), selectors.EVENT_READ, (conn, pid))
                continue
            conn, pid = key.data
            _, status = os.waitpid(pid, 0)
            selector.unregister(key.fd)
            os.close(key.fd)
            with contextlib.suppress(OSError):  # the client is gone: nobody to tell
                conn.sendall(f"{os.waitstatus_to_exitcode(status)}\n".encode())
            conn.close()


def ask(path: str, request: dict, fds: list[int]) -> int:
    """Send `request` with `fds` as the child's stdin, stdout and stderr; its exit code."""
    body = json.dumps(request).encode()
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        socket.send_fds(conn, [HEADER.pack(len(body))], fds)
        conn.sendall(body)
        with conn.makefile("r") as reader:
            status = reader.readline()
    if not status:
        raise RuntimeError("the warm libraries server ended before its child did")
    return int(status)


def client(path: str, args: list[str]) -> None:
    """`python -P -m decode ARGS` through the server, as this process: its streams, exit code, signal."""
    request = {"argv": args, "cwd": os.getcwd(), "env": dict(os.environ)}
    try:
        code = ask(path, request, [0, 1, 2])
    except (ConnectionError, FileNotFoundError):
        os.execv(sys.executable, [sys.executable, "-P", "-m", "decode", *args])
    if code < 0:  # died of a signal: so does this process
        signal.signal(-code, signal.SIG_DFL)
        os.kill(os.getpid(), -code)
    sys.exit(code)


class WarmLibraries:
    """The server, started from a test: `path` for clients, `imports(folder)` for `scripts/lesson verify`."""

    def __init__(self, directory: Path) -> None:
        self.path = str(directory / "warm.sock")
        environment = {**os.environ}
        environment.pop("PYTHONPATH", None)
        self.process = subprocess.Popen(
            [sys.executable, "-P", __file__, "serve", self.path],
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            env=environment,
            text=True,
        )
        assert self.process.stdout is not None
        assert self.process.stdout.readline().strip() == "ready", "the warm libraries server did not start"

    def argv(self, *args: str) -> list[str]:
        """`python -P -m decode ARGS` through this server (with the caller's PYTHONPATH)."""
        return [sys.executable, "-P", __file__, "client", self.path, *args]

    def command(self) -> str:
        """A shell command line that runs `decode "$@"` through this server."""
        return f'exec {" ".join(self.argv())} "$@"'

    def imports(self, program: str, folder: Path) -> tuple[int, str]:
        """`PYTHONPATH=folder python -c program folder`: its exit code and output."""
        output = folder.parent / f"{folder.name}.imports.log"
        env = {**os.environ, "PYTHONPATH": str(folder), "PYTHONDONTWRITEBYTECODE": "1"}
        with open(os.devnull, "rb") as stdin, output.open("wb") as out:
            code = ask(
                self.path,
                {"argv": [str(folder)], "cwd": str(folder), "env": env, "program": program},
                [stdin.fileno(), out.fileno(), out.fileno()],
            )
        return code, output.read_text().strip()

    def close(self) -> None:
        """End the server (stdin EOF), wait for it, and close its pipes."""
        with self.process:
            if self.process.stdin is not None:
                self.process.stdin.close()
            self.process.wait(timeout=60)


if __name__ == "__main__":
    if sys.argv[1] == "serve":
        serve(sys.argv[2])
    else:
        client(sys.argv[2], sys.argv[3:])
