"""The first process of the verifier's sandbox: runs test.sh, then tells whether anything outlived it.

    bwrap --unshare-pid --as-pid-1 ... python3 verifier_init.py REWARD_DIR bash test.sh

As process 1 of its own pid namespace it adopts every process test.sh's tree orphans (a
`setsid` daemon included), and when it exits the kernel kills whatever is left. That is not
enough alone: a daemon that waits for test.sh's last write to `reward.txt`, writes 1 over it and
exits would win the race. So it records when each adopted process ended, and refuses the run
(exit `OUTLIVED`) if one was still alive when test.sh ended, or ended after the reward was last
changed: only such a process could have written it last. Otherwise it exits with test.sh's status.

Stdlib only: it runs under the machine's `python3`, not decode's.
"""

from __future__ import annotations

import os
import sys
import time

OUTLIVED = 86
"""The exit status that says a process test.sh started outlived it or wrote after it."""


def main(argv: list[str]) -> int:
    reward_dir, command = argv[0], argv[1:]
    child = os.posix_spawnp(command[0], command, os.environ)
    adopted_ends: list[int] = []  # when each adopted process ended (ns, CLOCK_REALTIME)
    while True:
        pid, status = os.wait()
        if pid == child:
            break
        adopted_ends.append(time.time_ns())
    # Until this process is alone in the namespace: reap what has ended (a zombie is stamped
    # now, which is after it wrote anything), and refuse the run if anything still lives.
    while True:
        adopted_ends += _reap_finished()
        others = _others()
        if any(state != "Z" for state in others.values()):
            print("verifier_init: a process test.sh started outlived it", file=sys.stderr)
            return OUTLIVED
        if not others:
            break
    last_change = _last_change(reward_dir)
    if last_change is not None and any(end >= last_change for end in adopted_ends):
        print("verifier_init: a process test.sh started ended after the reward was written", file=sys.stderr)
        return OUTLIVED
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code  # killed by a signal: as a shell reports it


def _reap_finished() -> list[int]:
    """Reap the adopted processes already finished (without waiting); when each was reaped."""
    ends: list[int] = []
    while True:
        try:
            pid, _ = os.waitpid(-1, os.WNOHANG)
        except ChildProcessError:
            return ends
        if pid == 0:
            return ends
        ends.append(time.time_ns())


def _others() -> dict[int, str]:
    """Every other process in this pid namespace, with its state (`Z` for a zombie)."""
    others = {}
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            with open(f"/proc/{entry}/stat", encoding="utf-8") as stat:
                others[int(entry)] = stat.read().rsplit(")", 1)[1].split()[0]
        except (OSError, IndexError):
            continue  # gone while we looked
    return others


def _last_change(reward_dir: str) -> int | None:
    """When the reward folder or `reward.txt` last changed (ns), from ctime, which no one can set back."""
    times = []
    for path in (reward_dir, os.path.join(reward_dir, "reward.txt")):
        try:
            times.append(os.stat(path).st_ctime_ns)
        except OSError:
            continue
    return max(times, default=None)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
