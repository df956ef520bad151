"""What a front end installs so a signal (SIGTERM, SIGHUP) ends every program decode started first."""

import asyncio
from collections.abc import Sequence
from dataclasses import dataclass

from decode.processes.tracking import end_all  # what a front end calls on its own exit, too


@dataclass
class SignalStop:
    """Which signal stopped decode, once one has (see `end_all_on`)."""

    signum: int | None = None


def end_all_on(signals: Sequence[int], task: "asyncio.Task[object] | None") -> SignalStop:
    """On any of `signals`, end every tracked program at once (before anything else can go wrong),
    then cancel `task` so the turn stops as an abort stops it."""
    loop, stop = asyncio.get_running_loop(), SignalStop()

    def on_signal(signum: int) -> None:
        end_all()
        if stop.signum is None and task is not None:  # a second signal must not cancel the clean-up
            stop.signum = signum
            task.cancel()

    for signum in signals:
        loop.add_signal_handler(signum, on_signal, signum)
    return stop
