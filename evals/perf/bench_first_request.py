"""Time to the first model request: how soon `decode run` asks the model, against the agent library's import.

`decode run --model openai-compatible:bench "say hello"` talks to an OpenAI-compatible server on
127.0.0.1 (the integration tests' fake provider), which notes when the first request arrives and how
much CPU the decode process had used by then (`/proc/PID/stat`). The baseline is
`python -c "import pydantic_ai"`, the floor any agent built on pydantic-ai pays; the two alternate,
and their medians make the ratio. decode must be asking within half of that import (issue 27): it
imports pydantic-ai without its MCP client stack (no server is configured) and, of the provider
SDKs, only the one in use (here openai). Claude Code's first request takes about a quarter of it.

The CPU ratio is the steadier figure on a busy machine: start-up is CPU-bound once files are cached.

A third command, measured in the same rounds, is the floor under decode's figure: importing
pydantic-ai and its OpenAI model class the way decode does (the deferred parts of ADR-0102 left
out, the SDK's `openai.types` loaded name by name as in ADR-0114), and nothing of decode's. What
decode adds on its way to the request is the difference; the run also makes no garbage collection
on its way (ADR-0114), which the floor's plain import does, so the difference can be near zero.
"""

import os
import statistics
import subprocess
import sys
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from perf import Context, Figure, command, steady_state_environment, timed

RUNS = 10
FLOOR = "import decode.models.deferred_imports as d; d.defer_imports(); import pydantic_ai.models.openai"
"""What any agent on pydantic-ai talking to an OpenAI-compatible server imports, with decode's deferrals."""
TIMEOUT_S = 120.0
TICK_S = 1 / os.sysconf("SC_CLK_TCK")


def _cpu_seconds(pid: int) -> float | None:
    """User + system CPU seconds of process `pid` so far (None once it is gone)."""
    try:
        fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    except OSError:
        return None
    return (int(fields[11]) + int(fields[12])) * TICK_S  # utime, stime: fields 14 and 15 of stat


def _clocked_server(root: Path) -> Any:
    """The fake OpenAI server, noting when (and at what CPU) each run's first request arrived."""
    sys.path.insert(0, str(root))
    from tests.integration.providers.fake_servers import OpenAIServer

    class Clocked(OpenAIServer):
        def __init__(self) -> None:
            super().__init__()
            self.pid = 0
            self.arrived: tuple[float, float | None] | None = None
            self.first = threading.Event()

        def handle(self, handler: Any) -> None:
            if not self.first.is_set():
                self.arrived = (time.perf_counter(), _cpu_seconds(self.pid))
                self.first.set()
            super().handle(handler)

    return Clocked()


def _first_request(decode: Path, server: Any, cwd: Path, env: dict[str, str]) -> tuple[float, float]:
    """Wall and CPU seconds from starting `decode run` until its first model request arrives."""
    from tests.integration.providers.fake_servers import Turn

    server.plan(Turn(text="Hello."))
    server.first.clear()
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(decode), "run", "--model", "openai-compatible:bench", "say hello"],
        cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE,
    )  # fmt: skip
    server.pid = process.pid
    try:
        if not server.first.wait(TIMEOUT_S):
            raise RuntimeError(f"decode run sent no model request within {TIMEOUT_S:g} s")
        _, stderr = process.communicate(timeout=TIMEOUT_S)
    finally:
        if process.poll() is None:
            process.kill()
            process.wait()
    if process.returncode != 0:
        raise RuntimeError(f"decode run failed: {stderr.decode(errors='replace')}")
    at, cpu = server.arrived
    if cpu is None:
        raise RuntimeError("the decode process was gone before its first request was counted")
    return at - started, cpu


def benchmarks(ctx: Context) -> Iterator[Figure]:
    server = _clocked_server(ctx.root)
    home = ctx.tmp / "home"
    home.mkdir()
    env = steady_state_environment({"HOME": str(home), "OPENAI_BASE_URL": f"{server.url}/v1", "OPENAI_API_KEY": "x"})
    baseline = command([ctx.bin("python"), "-c", "import pydantic_ai"], cwd=ctx.tmp)
    floor = command([ctx.bin("python"), "-c", FLOOR], cwd=ctx.root)
    firsts, imports, floors = [], [], []
    try:
        for run in range(ctx.warmup + RUNS):
            if run % 2:  # the order flips each round, so a burst of load hits both alike
                imported = timed(baseline)
                first = _first_request(ctx.bin("decode"), server, ctx.tmp, env)
            else:
                first = _first_request(ctx.bin("decode"), server, ctx.tmp, env)
                imported = timed(baseline)
            floored = timed(floor)
            if run >= ctx.warmup:
                firsts.append(first)
                imports.append(imported)
                floors.append(floored)
    finally:
        server.close()
    wall, cpu = statistics.median(w for w, _ in firsts), statistics.median(c for _, c in firsts)
    base_wall = statistics.median(sample.wall for sample in imports)
    base_cpu = statistics.median(sample.cpu for sample in imports)
    floor_cpu = statistics.median(sample.cpu for sample in floors)
    note = f'median of {RUNS}: {wall:.2f} s to the first request, `python -c "import pydantic_ai"` {base_wall:.2f} s'
    name = "decode run: time to first model request / import pydantic_ai"
    yield Figure(name, wall / base_wall, "x", 0.5, note, issue=27)
    note = f"median of {RUNS}: {cpu:.2f} s of CPU, the import {base_cpu:.2f} s"
    yield Figure(
        "decode run: CPU to first model request / import pydantic_ai", cpu / base_cpu, "x", 0.5, note, issue=27
    )
    note = f"median of {RUNS}: {floor_cpu:.2f} s of CPU; decode's own share is the row above minus this one"
    yield Figure(
        "floor: CPU of importing pydantic-ai's OpenAI model / import pydantic_ai", floor_cpu / base_cpu, "x", 0.5, note
    )
