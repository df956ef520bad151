"""The first process of the verifier's sandbox: runs test.sh, then tells whether anything outlived it.

    bwrap --unshare-pid --as-pid-1 ... python3 verifier_init.py REWARD_DIR bash test.sh

As process 1 of its own pid namespace it adopts every process test.sh's tree orphans (a
`setsid` daemon included), and when it exits the kernel kills whatever is left. That is not
enough alone: a daemon that waits for test.sh's last write to `reward.txt`, writes 1 over it and
exits would win the race. So it records when each adopted process ended, and refuses the run
(exit `OUTLIVED`) if one was still alive when test.sh ended, or ended after the reward was last
changed: only such a process could have written it last. Otherwise it exits with test.sh's status.

Before it starts test.sh it closes the files under `/proc` with Landlock, for itself and
everything it starts: workspace code has the verifier's uid and could otherwise read or write
the memory of test.sh's shell through `/proc/<pid>/mem` (a nonce in it, or its decision); the
grader's seccomp filter shuts `ptrace`.

Stdlib only: it runs under the machine's `python3`, not decode's.
"""

from __future__ import annotations

import ctypes
import os
import struct
import sys
import time

OUTLIVED = 86
"""The exit status that says a process test.sh started outlived it or wrote after it."""


def main(argv: list[str]) -> int:
    reward_dir, command = argv[0], argv[1:]
    if (why := close_proc()) is not None:
        print(f"verifier_init: /proc stays open ({why})", file=sys.stderr)
    child = os.posix_spawnp(command[0], command, os.environ)
    adopted_ends: list[int] = []  # when each adopted process ended (ns, CLOCK_REALTIME)
    while True:
        pid, status = os.wait()
        if pid == child:
            break
        adopted_ends.append(time.time_ns())
    # Until this process is alone in the namespace: reap what has ended (a process is stamped
    # when reaped, which is after anything it wrote); anything else left is still running, or
    # is the ended child of a process still running.
    while True:
        adopted_ends += _reap_finished()
        if not _anyone_else():
            break
        if not _an_adopted_process_has_ended():
            print("verifier_init: a process test.sh started outlived it", file=sys.stderr)
            return OUTLIVED
    last_change = _last_change(reward_dir)
    if last_change is not None and any(end >= last_change for end in adopted_ends):
        print("verifier_init: a process test.sh started ended after the reward was written", file=sys.stderr)
        return OUTLIVED
    code = os.waitstatus_to_exitcode(status)
    return code if code >= 0 else 128 - code  # killed by a signal: as a shell reports it


LANDLOCK_CREATE_RULESET, LANDLOCK_ADD_RULE, LANDLOCK_RESTRICT_SELF = 444, 445, 446
"""Landlock's system call numbers (the same on every architecture)."""
READ_AND_WRITE_FILE = 1 << 1 | 1 << 2  # LANDLOCK_ACCESS_FS_WRITE_FILE, _READ_FILE
PATH_BENEATH = 1  # LANDLOCK_RULE_PATH_BENEATH
PR_SET_NO_NEW_PRIVS = 38


def close_proc() -> str | None:
    """Allow reading and writing files everywhere but under `/proc`, from now on; None, or why not.

    Landlock rules grant, they cannot exclude: so access is granted beneath every top-level
    folder but `/proc`. Folders stay listable, and pipes (`/dev/fd/N`, which bash's `<(…)` uses)
    usable: they are not paths to Landlock.
    """
    libc = ctypes.CDLL(None, use_errno=True)

    def call(*args: int | bytes) -> int:  # every argument a full machine word, as the kernel reads it
        return libc.syscall(*(arg if isinstance(arg, bytes) else ctypes.c_long(arg) for arg in args))

    ruleset = call(LANDLOCK_CREATE_RULESET, struct.pack("<Q", READ_AND_WRITE_FILE), 8, 0)
    if ruleset < 0:
        return f"no Landlock: {os.strerror(ctypes.get_errno())}"
    try:
        for entry in os.listdir("/"):
            if entry == "proc":
                continue
            try:
                beneath = os.open(f"/{entry}", os.O_PATH | os.O_CLOEXEC)
            except OSError:
                continue  # a dangling link: nothing beneath it to write
            rule = struct.pack("<Qi", READ_AND_WRITE_FILE, beneath)  # struct landlock_path_beneath_attr (packed)
            added = call(LANDLOCK_ADD_RULE, ruleset, PATH_BENEATH, rule, 0)
            os.close(beneath)
            if added != 0:
                return f"a Landlock rule for /{entry}: {os.strerror(ctypes.get_errno())}"
        no_new_privs = libc.prctl(PR_SET_NO_NEW_PRIVS, *(ctypes.c_ulong(arg) for arg in (1, 0, 0, 0)))
        if no_new_privs != 0 or call(LANDLOCK_RESTRICT_SELF, ruleset, 0) != 0:
            return f"Landlock refused: {os.strerror(ctypes.get_errno())}"
    finally:
        os.close(ruleset)
    return None


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


def _anyone_else() -> bool:
    """Whether any other process, a zombie included, is left in this pid namespace.

    From process 1 of a namespace, `kill(-1, 0)` asks every process in it but itself, at once:
    no scan of `/proc` that a process can slip past while it forks.
    """
    try:
        os.kill(-1, 0)
    except ProcessLookupError:
        return False
    except PermissionError:  # one it may not signal is still one
        return True
    return True


def _an_adopted_process_has_ended() -> bool:
    """Whether a child of this process has ended and waits to be reaped."""
    try:
        return os.waitid(os.P_ALL, 0, os.WEXITED | os.WNOHANG | os.WNOWAIT) is not None
    except ChildProcessError:
        return False


def _last_change(reward_dir: str) -> int | None:
    """When the reward folder or a reward file in it last changed (ns), from ctime, which no one can set back."""
    times = []
    for path in (reward_dir, *(os.path.join(reward_dir, name) for name in ("reward.txt", "reward.json"))):
        try:
            times.append(os.stat(path).st_ctime_ns)
        except OSError:
            continue
    return max(times, default=None)


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
