"""The command decode starts for a test MCP server run by `forkserver.py`: `python -I -S
forkserver_client.py SOCKET SCRIPT ARGS…` (standard library only, so it starts in milliseconds).

It hands the fork server its stdin, stdout and stderr with its argv, environment and folder, lets go
of its own copies (so decode sees the server's pipes close when the server ends), passes SIGTERM,
SIGINT and SIGHUP on to the server, and exits with the server's status.
"""

import json
import os
import signal
import socket
import sys


def main(path: str, argv: list[str]) -> int:
    server = socket.socket(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    server.connect(path)
    request = {"argv": argv, "env": dict(os.environ), "cwd": os.getcwd()}
    socket.send_fds(server, [json.dumps(request).encode()], [0, 1, 2])
    child = json.loads(server.recv(1 << 16))["pid"]
    null = os.open(os.devnull, os.O_RDWR)
    for fd in (0, 1, 2):
        os.dup2(null, fd)
    for number in (signal.SIGTERM, signal.SIGINT, signal.SIGHUP):
        signal.signal(number, lambda sig, _frame: os.kill(child, sig))
    while True:
        try:
            answer = server.recv(1 << 16)
        except InterruptedError:
            continue
        if not answer:
            return 1  # the fork server went away
        status = json.loads(answer)["status"]
        if os.WIFSIGNALED(status):
            signal.signal(os.WTERMSIG(status), signal.SIG_DFL)
            os.kill(os.getpid(), os.WTERMSIG(status))
        return os.waitstatus_to_exitcode(status)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1], sys.argv[2:]))
