"""Answer to exit: how long `decode run` lingers after its answer, with five MCP servers against none.

A scripted `decode run` prints its answer; the clock runs from the first byte of it on stdout to the
process's exit. With five stdio MCP servers configured (the echo test server) decode stops them
after the answer and its result are out (stdin closed, SIGTERM after `servers.LEAVING_GRACE_S`, then kill),
all at once, and waits for nothing else (ADR-0102): the linger should stay within 2x that of a run
with no server. The two alternate; medians. The clock stops at the process's exit (what a shell or
`subprocess.run` waits for); the note also says when stdout ended, which is what a reader of the pipe
(`decode run | jq`) waits for: decode ends it with the result, before it stops its servers.
"""

import json
import statistics
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path

from perf import Context, Figure, steady_state_environment

RUNS = 5
SERVERS = 5


def _linger(decode: Path, script: Path, cwd: Path, home: Path) -> tuple[float, float]:
    """Seconds from the answer's first byte on stdout to the exit of `decode run`, and to its stdout's end."""
    env = steady_state_environment({"HOME": str(home)})
    process = subprocess.Popen(
        [str(decode), "run", "--model", f"script:{script}", "hi"],
        cwd=cwd, env=env, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    process.stdout.read(1)
    answered = time.perf_counter()
    process.stdout.read()
    ended = time.perf_counter()
    if process.wait(timeout=120) != 0:
        raise RuntimeError("decode run failed")
    return time.perf_counter() - answered, ended - answered


def benchmarks(ctx: Context) -> Iterator[Figure]:
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    echo = ctx.root / "tests" / "integration" / "mcp" / "servers" / "echo_server.py"
    none, five = ctx.tmp / "home-none", ctx.tmp / "home-five"
    none.mkdir()
    (five / ".decode").mkdir(parents=True)
    servers = {f"echo{i}": {"command": sys.executable, "args": [str(echo)]} for i in range(SERVERS)}
    (five / ".decode" / "mcp.json").write_text(json.dumps({"mcpServers": servers}), encoding="utf-8")
    project = ctx.tmp / "project"
    project.mkdir()
    with_servers, without = [], []
    for run in range(ctx.warmup + RUNS):
        pair = (_linger(ctx.bin("decode"), script, project, five), _linger(ctx.bin("decode"), script, project, none))
        if run >= ctx.warmup:
            with_servers.append(pair[0])
            without.append(pair[1])
    served, bare = (statistics.median(run[0] for run in runs) for runs in (with_servers, without))
    eof = [statistics.median(run[1] for run in runs) * 1000 for runs in (with_servers, without)]
    note = f"median of {RUNS}: {served:.2f} s with {SERVERS} servers, {bare:.2f} s with none"
    note += f"; stdout ended {eof[0]:.0f} ms / {eof[1]:.0f} ms after the answer"
    yield Figure(f"decode run: answer to exit, {SERVERS} MCP servers / none", served / bare, "x", 2.0, note, issue=27)
