"""A fork server for the test MCP servers: imports the MCP SDK once, then forks a server per launch.

Each stdio server script of the tests spends about a second of CPU importing the MCP SDK before it
reads its first line; most MCP tests start a few. This process pays that once per test module:
`forkserver_client.py` (the command decode starts, light) hands it its stdin, stdout and stderr,
argv, environment and folder; a forked child runs the script with them, so decode still talks to
a real server process over real pipes. The client exits with the child's status; a signal to the
client goes on to the child, and a client that dies (SIGKILL) takes its child with it.

Run as `python forkserver.py SOCKET`; it ends when its stdin closes (its test module is done).
"""

import array
import contextlib
import json
import os
import selectors
import signal
import socket
import sys
import traceback

PRELOADED = ("mcp.server.mcpserver", "mcp.server.stdio", "mcp_types", "pydantic", "anyio", "anyio._backends._asyncio")
"""What the test servers import: loaded here once, shared by every fork."""


def main(path: str) -> None:
    for name in PRELOADED:
        __import__(name)
    listener = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    listener.bind(path)
    listener.listen(64)
    print("ready", flush=True)  # the fixture waits for this line, not for a delay
    selector = selectors.DefaultSelector()
    selector.register(listener, selectors.EVENT_READ, "accept")
    selector.register(sys.stdin, selectors.EVENT_READ, "stdin")
    children: dict[int, tuple[socket.socket, int]] = {}  # pidfd -> (client connection, child pid)
    while True:
        for key, _ in selector.select():
            if key.data == "stdin":
                for _, pid in children.values():
                    _kill(pid)
                return
            if key.data == "accept":
                connection, _ = listener.accept()
                pid = _launch(connection, listener)
                if pid is None:
                    connection.close()
                    continue
                pidfd = os.pidfd_open(pid)
                children[pidfd] = (connection, pid)
                selector.register(pidfd, selectors.EVENT_READ, ("exited", pidfd))
                selector.register(connection, selectors.EVENT_READ, ("client", pidfd))
            elif key.data[0] == "client":  # the client died before its child: end the child too
                _, pid = children[key.data[1]]
                selector.unregister(key.fileobj)
                _kill(pid)
            else:
                pidfd = key.data[1]
                connection, pid = children.pop(pidfd)
                _, status = os.waitpid(pid, 0)
                selector.unregister(pidfd)
                os.close(pidfd)
                with contextlib.suppress(OSError):  # the client may be gone
                    connection.send(json.dumps({"status": status}).encode())
                if connection.fileno() in selector.get_map():
                    selector.unregister(connection)
                connection.close()


def _launch(connection: socket.socket, listener: socket.socket) -> int | None:
    """Fork a child that runs the script the client asked for, on the client's three descriptors."""
    fds = array.array("i")
    message, ancillary, _, _ = connection.recvmsg(1 << 20, socket.CMSG_SPACE(3 * fds.itemsize))
    for level, kind, data in ancillary:
        if level == socket.SOL_SOCKET and kind == socket.SCM_RIGHTS:
            fds.frombytes(data[: len(data) - len(data) % fds.itemsize])
    if len(fds) != 3:
        for fd in fds:
            os.close(fd)
        return None
    request = json.loads(message)
    pid = os.fork()
    if pid == 0:
        listener.close()
        connection.close()
        _run(request, list(fds))  # never returns
    for fd in fds:
        os.close(fd)
    connection.send(json.dumps({"pid": pid}).encode())
    return pid


def _run(request: dict, fds: list[int]) -> None:
    """In the child: become the server `python SCRIPT ARGS…` would have been, then exit."""
    code = 1
    try:
        for target, fd in enumerate(fds):
            os.dup2(fd, target)
        os.closerange(3, 1 << 16)  # other clients' connections and pidfds are not this server's
        signal.signal(signal.SIGINT, signal.default_int_handler)
        signal.signal(signal.SIGTERM, signal.SIG_DFL)
        os.chdir(request["cwd"])
        os.environ.clear()
        os.environ.update(request["env"])
        script = request["argv"][0]
        sys.argv = list(request["argv"])
        sys.path[0] = os.path.dirname(os.path.abspath(script))
        import runpy

        runpy.run_path(script, run_name="__main__")
        code = 0
    except SystemExit as stop:
        code = stop.code if isinstance(stop.code, int) else (0 if stop.code is None else 1)
        if not isinstance(stop.code, int | None):
            print(stop.code, file=sys.stderr)
    except BaseException:
        traceback.print_exc()
    finally:
        for stream in (sys.stdout, sys.stderr):
            with contextlib.suppress(OSError, ValueError):
                stream.flush()
        os._exit(code)


def _kill(pid: int) -> None:
    with contextlib.suppress(ProcessLookupError):
        os.kill(pid, signal.SIGKILL)


if __name__ == "__main__":
    main(sys.argv[1])
