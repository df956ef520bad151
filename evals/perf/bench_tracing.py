"""Tracing: nothing added when it is off, little when it is on.

- `decode run` with tracing off against the same run of the package before lesson 16 (its
  snapshot, `scripts/lesson snapshot 15`): unconfigured, opik is never imported (target 1.1x).
- A turn of 20 tool steps traced to a loopback Opik collector against the same turn untraced, in
  process (the composition root, a scripted model): the cost per tool step (target 1.2x).
- The exit of a traced `decode run` whose collector is gone: bounded (decode waits at most
  `CLOSE_TIMEOUT_S`, opik alone would wait ~11 s), as a figure.
"""

import asyncio
import importlib.util
import json
import subprocess
import sys
import time
from collections.abc import Iterator
from pathlib import Path
from types import ModuleType

from perf import Comparison, Context, Figure, Subject, command, steady_state_environment

STEPS = 20


def _collector(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_collector", root / "lessons/16-observability/collector.py")
    assert spec is not None
    assert spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


def _turn_subject(ctx: Context, label: str, url: str | None) -> Subject:
    """One turn of `STEPS` tool calls (glob), then an answer, built and run in process."""
    from decode.agent.compose import LoopOptions, build_loop
    from decode.config.settings import Settings

    script = ctx.tmp / "steps.json"
    steps = [{"tool_calls": [{"name": "glob", "args": {"pattern": "*.json"}}]} for _ in range(STEPS)]
    script.write_text(json.dumps([*steps, {"text": "done"}]), encoding="utf-8")
    home = ctx.tmp / "home"
    home.mkdir(exist_ok=True)
    settings = Settings(opik_url_override=url, lsp=False, _env_file=None)  # type: ignore[call-arg]

    async def turn() -> None:
        conversation = build_loop(LoopOptions(home=home, settings=settings, model=f"script:{script}", mcp=False))
        async for _ in conversation.loop.run_turn("step through"):
            pass

    return Subject(label, lambda: asyncio.run(turn()))


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    python = ctx.bin("python")
    before = ctx.tmp / "before"
    subprocess.run(
        [python, ctx.root / "scripts/lesson", "snapshot", "15", before], check=True, capture_output=True, cwd=ctx.root
    )
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    run = [python, "-m", "decode", "run", "--model", f"script:{script}", "say hello"]
    yield Comparison(
        "decode run, tracing off, vs before lesson 16",
        command(run, label="decode run (lesson 16, off)", cwd=ctx.tmp, env={"PYTHONPATH": str(ctx.root)}),
        command(run, label="decode run (lesson 15)", cwd=ctx.tmp, env={"PYTHONPATH": str(before)}),
        target=1.1,
        runs=10,
    )

    collector_module = _collector(ctx.root)
    with collector_module.Collector() as collector:
        yield Comparison(
            f"a turn of {STEPS} tool steps, traced to a loopback collector",
            _turn_subject(ctx, "traced", collector.url),
            _turn_subject(ctx, "untraced", None),
            target=1.2,
            runs=10,
        )
        from decode.config.settings import Settings
        from decode.observability.sink import open_sink

        sink = open_sink(Settings(opik_url_override=collector.url, _env_file=None))  # type: ignore[call-arg]
        if sink is not None:
            sink.close(5)  # what the traced turns queued, sent now rather than at this process's exit

    env = steady_state_environment({"OPIK_URL_OVERRIDE": collector_module.closed_url(), "PYTHONPATH": str(ctx.root)})
    started = time.monotonic()
    subprocess.run(run, cwd=ctx.tmp, env=env, capture_output=True, check=True, timeout=120)
    yield Figure(
        "decode run, traced, collector gone (wall time)",
        time.monotonic() - started,
        "s",
        limit=12.0,
        note="opik alone waits ~11 s at exit for a server that is gone",
    )


if __name__ == "__main__":
    sys.exit("run it through evals/perf/run.py tracing")
