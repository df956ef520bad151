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
import contextlib
import gc
import importlib
import os
import runpy
import signal
import socket
import subprocess
import sys
from pathlib import Path

from tests.forking import send, serve_forks

ROOT = Path(__file__).resolve().parents[2]


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


def _run(request: dict) -> None:
    """In the forked child: `python -P -m decode ARGS` (or `-c PROGRAM`), the snapshot first on `sys.path`."""
    sys.path[0:0] = [entry for entry in request["env"].get("PYTHONPATH", "").split(os.pathsep) if entry]
    sys.dont_write_bytecode = bool(request["env"].get("PYTHONDONTWRITEBYTECODE"))
    if "program" in request:
        sys.argv = ["-c", *request["argv"]]
        exec(compile(request["program"], "<string>", "exec"), {"__name__": "__main__"})
    else:
        sys.argv = ["decode", *request["argv"]]
        runpy.run_module("decode", run_name="__main__", alter_sys=True)


def serve(path: str) -> None:
    for name in libraries(ROOT / "decode"):
        with contextlib.suppress(Exception):  # warming only: a child imports what it needs itself
            importlib.import_module(name)
    assert not any(name.split(".")[0] == "decode" for name in sys.modules), "a library imported decode"
    gc.freeze()  # the libraries' objects: never scanned by a child's collector, so never copied for it
    serve_forks(path, _run, backlog=16)
    os._exit(0)  # no tear-down of every library imported: nothing of it is kept


def ask(path: str, request: dict, fds: list[int]) -> int:
    """Send `request` with `fds` as the child's stdin, stdout and stderr; its exit code."""
    with socket.socket(socket.AF_UNIX, socket.SOCK_STREAM) as conn:
        conn.connect(path)
        send(conn, request, fds)
        with conn.makefile("r") as reader:
            reader.readline()  # the child's pid
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
