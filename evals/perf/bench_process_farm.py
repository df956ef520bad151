"""Processes (lesson 05): a command costs the same on a busy machine.

- `bash('true')` through the tool, as the agent calls it, against `bash -c true`, with 100 and
  then 2,000 extra idle processes on the machine (a farm of `sleep`s): target at most 2x plus
  3 ms at each size, and flat (the ratio at 2,000 at most 1.25 times the ratio at 100). Finding
  what a command left behind must look at decode's own children, never at every process.

Both sides run in one worker process (`python bench_process_farm.py --worker`, decode's side of
the machine) and alternate, one line on its stdin per call; the farm are the benchmark's own
children, so they are on the machine but not below the worker, as other people's processes are.
"""

import asyncio
import os
import signal
import statistics
import subprocess
import sys
from collections.abc import Iterator
from pathlib import Path

from perf import Comparison, Context, Figure, Sample, Subject, measure, seconds

SIZES = (100, 2000)
CALLS = 10
"""Calls per sample: one call is a few milliseconds."""
ROUNDS = 10
PASSES = 3
ALLOWANCE_S = 0.003
"""The "plus a few milliseconds" of the target: the tool's own work (output capture, redaction)."""
FLAT = 1.25


class Worker:
    """The decode side: a process that runs one call per line it reads, and answers when done."""

    def __init__(self, ctx: Context) -> None:
        workspace = ctx.tmp / "workspace"
        workspace.mkdir(exist_ok=True)
        self.process = subprocess.Popen(
            [ctx.bin("python"), __file__, "--worker", str(workspace)],
            cwd=ctx.root,
            env=ctx.environment(PYTHONPATH=str(ctx.root)),
            stdin=subprocess.PIPE,
            stdout=subprocess.PIPE,
            text=True,
        )

    def call(self, what: str) -> None:
        assert self.process.stdin is not None
        assert self.process.stdout is not None
        self.process.stdin.write(what + "\n")
        self.process.stdin.flush()
        if (answer := self.process.stdout.readline()) != "ok\n":
            raise RuntimeError(f"bench_process_farm: the worker answered {answer!r} to {what}")

    def close(self) -> None:
        if self.process.stdin is not None:
            self.process.stdin.close()
        self.process.wait(timeout=30)


def _serve(workspace: Path) -> None:
    """The worker: `tool` runs bash('true') through the tool, `bash` runs `bash -c true`."""
    from pydantic_ai import RunContext
    from pydantic_ai.models.test import TestModel
    from pydantic_ai.usage import RunUsage

    from decode.config.settings import Settings
    from decode.entities.deps import AgentDeps
    from decode.processes.local import LocalExecutor
    from decode.tools.bash import bash

    deps = AgentDeps(LocalExecutor(workspace), Settings(_env_file=None), harness_home=workspace)  # type: ignore[call-arg]
    tool = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
    loop = asyncio.new_event_loop()
    for line in sys.stdin:
        if line == "tool\n":
            answer = loop.run_until_complete(bash(tool, "true"))
            if not answer.startswith("exit code: 0"):
                raise SystemExit(f"bash('true') answered {answer!r}")
        else:
            subprocess.run(["bash", "-c", "true"], check=True)
        print("ok", flush=True)


class Farm:
    """`size` idle processes (`sleep`), children of this process: killed and reaped on `close`."""

    def __init__(self, size: int) -> None:
        self.pids: list[int] = []
        try:
            for _ in range(size):
                self.pids.append(os.posix_spawnp("sleep", ["sleep", "900"], os.environ))
        except BaseException:
            self.close()
            raise

    def close(self) -> None:
        for pid in self.pids:
            os.kill(pid, signal.SIGKILL)
        for pid in self.pids:
            os.waitpid(pid, 0)
        self.pids = []


def _on_machine() -> int:
    return sum(name.isdigit() for name in os.listdir("/proc"))


def benchmarks(ctx: Context) -> Iterator[Figure]:
    if not sys.platform.startswith("linux"):
        return
    worker = Worker(ctx)
    tool = Subject("bash('true')", lambda: worker.call("tool"), inner=CALLS)
    plain = Subject("bash -c true", lambda: worker.call("bash"), inner=CALLS)
    samples: dict[int, tuple[list[Sample], list[Sample]]] = {size: ([], []) for size in SIZES}
    machine: dict[int, int] = {}
    try:
        for _ in range(PASSES):  # the sizes alternate too, so a change of load hits both alike
            for size in SIZES:
                farm = Farm(size)
                try:
                    machine[size] = _on_machine()
                    subject, baseline = measure(Comparison("", tool, plain, 0), ROUNDS, ctx.warmup)
                finally:
                    farm.close()
                samples[size][0].extend(subject)
                samples[size][1].extend(baseline)
    finally:
        worker.close()
    ratios = {}
    for size, (subject, baseline) in samples.items():
        tool_s = statistics.median(sample.wall for sample in subject)
        plain_s = statistics.median(sample.wall for sample in baseline)
        ratios[size] = tool_s / plain_s
        note = f"{seconds(tool_s)} vs {seconds(plain_s)}; {machine[size]:,} processes; {len(subject)}x{CALLS} calls"
        limit = (2 * plain_s + ALLOWANCE_S) / plain_s
        yield Figure(
            f"bash('true') / `bash -c true`, {size:,} idle processes", ratios[size], "x", limit, note, issue=27
        )
    small, large = SIZES[0], SIZES[-1]
    note = f"{ratios[large]:.2f}x at {large:,} / {ratios[small]:.2f}x at {small:,}"
    yield Figure(
        "the same ratio, 2,000 over 100 idle processes", ratios[large] / ratios[small], "x", FLAT, note, issue=27
    )


if __name__ == "__main__" and sys.argv[1:2] == ["--worker"]:
    _serve(Path(sys.argv[2]))
