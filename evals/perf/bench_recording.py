"""Recording: nothing added when it is off; a bounded wait when its server is gone.

- `decode run` with recording off against the same run of the package before lesson 23 (its
  snapshot, `scripts/lesson snapshot 22`): unconfigured, kitaru is never imported (target 1.1x).
- A recorded `decode run` whose Kitaru server is gone (a closed loopback port): it goes on
  unrecorded after kitaru's retries, once per conversation, as a figure.
"""

import json
import socket
import subprocess
import sys
import time
import uuid
from collections.abc import Iterator

from perf import Comparison, Context, Figure, command, steady_state_environment


def _closed_url() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return f"http://127.0.0.1:{sock.getsockname()[1]}"


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    python = ctx.bin("python")
    before = ctx.tmp / "before"
    subprocess.run(
        [python, ctx.root / "scripts/lesson", "snapshot", "22", before], check=True, capture_output=True, cwd=ctx.root
    )
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    run = [python, "-m", "decode", "run", "--model", f"script:{script}", "say hello"]
    yield Comparison(
        "decode run, recording off, vs before lesson 23",
        command(run, label="decode run (lesson 23, off)", cwd=ctx.tmp, env={"PYTHONPATH": str(ctx.root)}),
        command(run, label="decode run (lesson 22)", cwd=ctx.tmp, env={"PYTHONPATH": str(before)}),
        target=1.1,
        runs=10,
    )

    gone = {"KITARU_API_URL": _closed_url(), "KITARU_AGENT_ID": str(uuid.uuid4()), "PYTHONPATH": str(ctx.root)}
    env = steady_state_environment({**gone, "KITARU_DISABLE_CLIENT_ANALYTICS": "1"})
    started = time.monotonic()
    subprocess.run(run, cwd=ctx.tmp, env=env, capture_output=True, check=True, timeout=120)
    yield Figure(
        "decode run, recorded, server gone (wall time)",
        time.monotonic() - started,
        "s",
        limit=15.0,
        note="kitaru's transport retries ~4 s before decode goes on unrecorded",
    )


if __name__ == "__main__":
    sys.exit("run it through evals/perf/run.py recording")
