"""The floor under any warm sandbox (ADR-0111): what handing a command to a process made ahead costs.

Run by `bench_sandbox.py` in a process of its own (it forks), or alone: `python evals/perf/handoff_floor.py`.
Interleaved rounds, medians, one JSON line out:

- `spawn`: `bash -c true` started and waited for, as decode runs a command without a sandbox;
- `handoff`: the same, started by a process forked ahead that waits on a socket for the order (the
  report pipe sent with it) and writes the exit code back; no namespaces;
- `handoff_namespaces`: the same, that process pid 1 of new mount, pid, IPC and network namespaces
  made ahead, as the warm sandbox's runner makes them;
- `namespaces`: making and ending those namespaces (fork, `unshare`, pid 1's fork and exit): the
  work the warm sandbox moves off each command's path.

Standard library only (Linux, root or user namespaces allowed for `unshare`).
"""

import json
import os
import socket
import statistics
import struct
import sys
import time
from collections.abc import Callable

ARGV = ["bash", "-c", "true"]
NAMESPACES = os.CLONE_NEWNS | os.CLONE_NEWPID | os.CLONE_NEWIPC | os.CLONE_NEWNET


def spawn() -> None:
    os.waitpid(os.posix_spawnp(ARGV[0], ARGV, os.environ), 0)


def _serve(orders: socket.socket, namespaces: bool) -> None:
    """The process made ahead: (pid 1 of its own namespaces,) wait for the order, run it, report."""
    if namespaces:
        os.unshare(NAMESPACES)
        if first := os.fork():  # the new pid namespace's pid 1 serves; this one waits for it
            os.waitpid(first, 0)
            os._exit(0)
    _, fds, _, _ = socket.recv_fds(orders, 1024, 1)
    _, status = os.waitpid(os.posix_spawnp(ARGV[0], ARGV, os.environ), 0)
    os.write(fds[0], struct.pack("i", status))
    os._exit(0)


def ahead(namespaces: bool) -> tuple[int, socket.socket]:
    ours, theirs = socket.socketpair(socket.AF_UNIX, socket.SOCK_SEQPACKET)
    pid = os.fork()
    if pid == 0:
        ours.close()
        try:
            _serve(theirs, namespaces)
        finally:
            os._exit(1)
    theirs.close()
    return pid, ours


def handoff(made: tuple[int, socket.socket]) -> None:
    _, orders = made
    report, theirs = os.pipe()
    socket.send_fds(orders, [b"run"], [theirs])
    os.close(theirs)
    orders.close()
    os.read(report, 4)
    os.close(report)


def namespaces() -> None:
    pid = os.fork()
    if pid == 0:
        try:
            os.unshare(NAMESPACES)
            if (first := os.fork()) == 0:
                os._exit(0)
            os.waitpid(first, 0)
        finally:
            os._exit(0)
    os.waitpid(pid, 0)


def _timed(call: Callable[[], None]) -> float:
    started = time.perf_counter()
    call()
    return time.perf_counter() - started


def measure(rounds: int) -> dict[str, float]:
    """Median seconds of each, interleaved round by round (the servers made ahead, untimed)."""
    samples: dict[str, list[float]] = {"spawn": [], "handoff": [], "handoff_namespaces": [], "namespaces": []}
    for _ in range(rounds):
        plain, nested = ahead(False), ahead(True)
        time.sleep(0.02)  # both waiting, as a child made ahead waits for its order
        samples["spawn"].append(_timed(spawn))
        samples["handoff"].append(_timed(lambda made=plain: handoff(made)))
        samples["handoff_namespaces"].append(_timed(lambda made=nested: handoff(made)))
        samples["namespaces"].append(_timed(namespaces))
        for pid, _ in (plain, nested):
            os.waitpid(pid, 0)
    return {name: statistics.median(values) for name, values in samples.items()}


if __name__ == "__main__":
    print(json.dumps(measure(int(sys.argv[1]) if len(sys.argv) > 1 else 40)))
