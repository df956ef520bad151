"""What the tests' fork servers share: one request over a Unix socket, one forked child per request.

A client sends a request (JSON: argv, cwd, env…) with three descriptors, the child's stdin, stdout
and stderr; the server forks, the child becomes the requested process, and the client reads the
child's pid, then its exit code (negative: the signal that ended it). The servers
(`tests/integration/forkserver.py`, `tests/lessons/warm_libraries.py`) differ only in what they
import before forking and what a child runs; this module imports nothing of decode.
"""

import atexit
import contextlib
import json
import os
import selectors
import socket
import struct
import sys
import threading
import traceback
from collections.abc import Callable
from typing import NoReturn

HEADER = struct.Struct("!I")  # the length of a request's JSON, sent with its three descriptors

Child = Callable[[dict], None]
"""What a forked child runs, its standard streams and directory already the request's."""


def send(conn: socket.socket, request: dict, fds: list[int]) -> None:
    """The client's half: `request`, with `fds` as the child's stdin, stdout and stderr."""
    body = json.dumps(request).encode()
    socket.send_fds(conn, [HEADER.pack(len(body))], fds)
    conn.sendall(body)


def receive(conn: socket.socket) -> tuple[dict, list[int]]:
    head, fds, _, _ = socket.recv_fds(conn, HEADER.size, 3)
    (length,) = HEADER.unpack(head)
    body = b""
    while len(body) < length:
        chunk = conn.recv(length - len(body))
        if not chunk:
            raise ConnectionError("the client went away mid-request")
        body += chunk
    return json.loads(body), list(fds)


def serve_forks(path: str, child: Child, *, backlog: int = 64) -> None:
    """Fork `child` for each request on the socket `path` until stdin closes (the test process ended).

    Prints "ready" once listening. Must be single-threaded when it forks, which it checks.
    """
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_STREAM)
    listener.bind(path)
    listener.listen(backlog)
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
                request, fds = receive(conn)
                assert threading.active_count() == 1, "a fork server must be single-threaded to fork"
                pid = os.fork()
                if pid == 0:
                    for fd in (*inherited, conn.fileno(), listener.fileno()):
                        os.close(fd)
                    _become(request, fds, child)
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


def _become(request: dict, fds: list[int], child: Child) -> NoReturn:
    """In the forked child: take the request's streams, directory and environment, run, exit as Python does."""
    for target, fd in enumerate(fds):
        os.dup2(fd, target)
        os.close(fd)
    os.chdir(request["cwd"])
    os.environ.clear()
    os.environ.update(request["env"])
    code: object = 0
    try:
        child(request)
    except SystemExit as exit_:
        code = exit_.code
    except BaseException:  # what the interpreter does with an uncaught exception: trace, exit 1
        traceback.print_exc()
        code = 1
    if not isinstance(code, int):  # the interpreter prints a non-int exit code and exits 1
        if code is not None:
            print(code, file=sys.stderr)
        code = 0 if code is None else 1
    atexit._run_exitfuncs()  # the program's own clean-ups, as at interpreter exit
    for stream in (sys.stdout, sys.stderr):
        with contextlib.suppress(OSError, ValueError):
            stream.flush()
    os._exit(code)
