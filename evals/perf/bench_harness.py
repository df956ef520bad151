"""Stopping a turn: Esc must kill a running command's whole process group within a second.

Measured in a real terminal (a tmux pane): `decode` runs a scripted turn whose bash command is
`sleep 300 & sleep 300` (a process group of three), the benchmark presses Esc with
`tmux send-keys` and polls `ps` until no member of the group runs (a killed process that PID 1
has not reaped yet is a zombie: it no longer runs), then the footer until it says `● ready`.

- Esc to the process group gone: the key's path (prompt_toolkit waits `ESCAPE_WAIT_S` to tell a
  lone Esc from Alt+key), the task cancellation, the SIGKILL of the group (lesson 05);
- Esc to ready: the same, plus closing the partial turn, logging it and redrawing the prompt.

Limit: one second for both (issue 4).
"""

import json
import shutil
import statistics
import subprocess
import time
import uuid
from collections.abc import Callable, Iterator
from pathlib import Path

from perf import Context, Figure

POLL_S = 0.005
TIMEOUT_S = 60.0
RUNS = 5
COMMAND = "echo $$ > group.pid; sleep 300 & sleep 300"


def _running(pgid: str) -> bool:
    listed = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True, check=True).stdout
    return any(line.split()[0] == pgid and not line.split()[1].startswith("Z") for line in listed.splitlines())


def _wait(condition: Callable[[], bool], what: str) -> None:
    deadline = time.perf_counter() + TIMEOUT_S
    while not condition():
        if time.perf_counter() > deadline:
            raise RuntimeError(f"{what} did not happen within {TIMEOUT_S:g} s")
        time.sleep(POLL_S)


def _abort_times(decode: Path, cwd: Path) -> tuple[float, float]:
    """Seconds from Esc until the command's process group is gone, and until the footer says ready."""
    (cwd / "group.pid").unlink(missing_ok=True)
    script = cwd / "turns.json"
    script.write_text(json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": COMMAND}}]}]))
    tmux = ["tmux", "-L", f"decode-bench-{uuid.uuid4().hex[:8]}"]
    start = f"{decode} --permission-mode bypass --model script:{script}"
    subprocess.run([*tmux, "new-session", "-d", "-x", "120", "-y", "30", "-c", str(cwd), start], check=True)

    def screen() -> str:
        return subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout

    try:
        _wait(lambda: "● ready" in screen(), "the warm-up")
        subprocess.run([*tmux, "send-keys", "-l", "go"], check=True)
        subprocess.run([*tmux, "send-keys", "Enter"], check=True)
        pid_file = cwd / "group.pid"
        _wait(lambda: pid_file.exists() and pid_file.read_text().strip() != "", "the command's start")
        pgid = pid_file.read_text().strip()
        _wait(lambda: "sleep 300) ·" in screen(), "the running tool line")
        started = time.perf_counter()
        subprocess.run([*tmux, "send-keys", "Escape"], check=True)
        _wait(lambda: not _running(pgid), "the process group's end")
        gone = time.perf_counter() - started
        _wait(lambda: "● ready" in screen(), "the ready footer")
        return gone, time.perf_counter() - started
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def benchmarks(ctx: Context) -> Iterator[Figure]:
    if shutil.which("tmux") is None:
        print("  (tmux is not installed: skipped)")
        return
    for _ in range(ctx.warmup):
        _abort_times(ctx.bin("decode"), ctx.tmp)
    times = [_abort_times(ctx.bin("decode"), ctx.tmp) for _ in range(RUNS)]
    note = f"median of {RUNS}, in a tmux pane"
    yield Figure("Esc: process group gone", statistics.median(t for t, _ in times), "s", limit=1.0, note=note)
    yield Figure("Esc: REPL ready", statistics.median(t for _, t in times), "s", limit=1.0, note=note)
