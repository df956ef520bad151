"""process_tree: the processes below decode, found from its own children lists, not from every process."""

import os
import subprocess
import threading
from pathlib import Path

import pytest

from decode.processes.process_tree import below_decode, descendants, has_children_lists
from decode.processes.tracking import become_subreaper
from tests.conftest import gone, pids, wait_for

pytestmark = pytest.mark.skipif(not has_children_lists(), reason="this kernel keeps no children lists")


def _wait_for_pids(folder: Path, count: int) -> list[int]:
    assert wait_for(lambda: len(pids(folder)) >= count), f"only {pids(folder)} were written"
    return pids(folder)


def _end(*processes: subprocess.Popen[bytes], others: list[int]) -> None:
    for pid in others:
        os.kill(pid, 9)
    for process in processes:
        process.kill()
        process.wait()
    assert all(gone(pid) for pid in others)


def test_children_and_grandchildren_are_found_parents_first(tmp_path: Path) -> None:
    shell = subprocess.Popen(["bash", "-c", "sleep 1000 & echo $! > a.pid; wait"], cwd=tmp_path)
    (grandchild,) = _wait_for_pids(tmp_path, 1)
    try:
        found = descendants(os.getpid())
        assert found is not None
        assert found.index(shell.pid) < found.index(grandchild)
        assert {shell.pid, grandchild} <= below_decode().keys()
    finally:
        _end(shell, others=[grandchild])


def test_an_orphan_re_parented_to_decode_is_found(tmp_path: Path) -> None:
    assert become_subreaper()
    # The double fork's middle process exits: the sleep, in a session of its own, is our child now.
    subprocess.run(["bash", "-c", "(setsid sleep 1000 >/dev/null 2>&1 & echo $! > a.pid) & wait"], cwd=tmp_path)
    (orphan,) = _wait_for_pids(tmp_path, 1)
    try:
        assert orphan in (descendants(os.getpid()) or [])
        assert below_decode()[orphan].ppid == os.getpid()
    finally:
        os.kill(orphan, 9)
        os.waitpid(orphan, 0)


def test_a_child_another_thread_started_is_found() -> None:
    started: list[subprocess.Popen[bytes]] = []
    ready, done = threading.Event(), threading.Event()

    def start() -> None:  # the thread stays alive: its child is in its own children list
        started.append(subprocess.Popen(["sleep", "1000"]))
        ready.set()
        done.wait(30)

    thread = threading.Thread(target=start)
    thread.start()
    try:
        assert ready.wait(20)
        assert started[0].pid in (descendants(os.getpid()) or [])
    finally:
        done.set()
        thread.join()
        _end(*started, others=[])


def test_nobody_elses_processes_are_listed() -> None:
    found = below_decode()
    assert 1 not in found
    assert os.getppid() not in found
    assert os.getpid() not in found
