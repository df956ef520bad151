"""What a command in a cold bubblewrap sandbox left running: ended inside, and said so to decode.

A cold sandbox's pid 1 is bwrap's own. When the command exits, it hands the exit code to bwrap's
outer process at once and then exits, and the kernel ends everything else in the pid namespace.
So the outer bwrap exits, and decode looks below itself (`decode/processes/tracking.py`), before or
after the kernel has ended what the command left, and may find bwrap's pid 1 itself still exiting:
decode alone cannot tell whether the command left anything.

The sandbox can. The command runs under a few lines of `sh` (the host's, which the sandbox shows):
the command in a subshell that `exec`s it (its status is the subshell's, and no "Killed" line is
printed), then `kill -9 -1`, which in the sandbox's pid namespace reaches every process but pid 1
and the shell itself, and succeeds when there was one (the warm sandbox's pid 1 does the same,
ADR-0111). Then `L` goes into a report file decode made and bound in, and that report is the
answer (a timeout is still decode's to end). The command could write there too: it would only lie
about itself.
"""

import contextlib
import os
import tempfile
from collections.abc import Generator, Sequence
from dataclasses import dataclass
from pathlib import Path

WRAPPER = (
    'report=$1; shift; exec 3>&2 2>/dev/null; (exec "$@" 2>&3 3>&-); code=$?; '
    'kill -9 -1 && echo L >"$report"; exit "$code"'
)
"""`sh -c WRAPPER sh REPORT ARGV...`: run ARGV, end what it left, say so in REPORT. Only ever run
inside the sandbox's own pid namespace: anywhere else `kill -9 -1` reaches every process of the user."""


@dataclass(frozen=True)
class LeftReport:
    """The file a cold sandbox's shell writes `L` into when the command left something running."""

    path: Path

    def argv(self, args: Sequence[str]) -> list[str]:
        """bwrap's `args` (options, `--`, the command) with the report bound in and the command wrapped."""
        end = list(args).index("--")  # options before it are names and absolute paths, never `--`
        if "--unshare-pid" not in args[:end]:  # `kill -9 -1` outside a pid namespace of its own: never
            raise ValueError("a cold sandbox's command must run in a pid namespace of its own")
        report = str(self.path)
        wrapper = ["/bin/sh", "-c", WRAPPER, "sh", report]
        return [*args[:end], "--bind", report, report, "--", *wrapper, *args[end + 1 :]]

    def left(self) -> bool:
        """Did the command leave something running (ended since)?"""
        try:
            with self.path.open("rb") as report:
                return report.read(1) == b"L"
        except OSError:
            return False


@contextlib.contextmanager
def left_report() -> Generator[LeftReport]:
    """A fresh, empty report file (the user's alone), removed afterwards."""
    fd, name = tempfile.mkstemp(prefix="decode-left-")
    os.close(fd)
    try:
        yield LeftReport(Path(name))
    finally:
        with contextlib.suppress(OSError):
            os.unlink(name)
