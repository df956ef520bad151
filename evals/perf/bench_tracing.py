"""Tracing: nothing added when it is off, little when it is on.

- `decode run` with tracing off against the same run of the package before lesson 22 (its
  snapshot, `scripts/lesson snapshot 21`): unconfigured, opik is never imported (target 1.1x).
- A turn of 20 tool steps traced to a loopback Opik collector against the same turn untraced, in
  process (the composition root, a scripted model): the cost per tool step (target 1.2x).
- A scripted `decode run` (a tool call, then an answer) with tracing off, and traced to a loopback
  collector that is healthy, slow (answers each request 1 s late), failing (HTTP 500) or gone
  (connection refused), all five interleaved round by round: each traced side's median against
  the untraced one (target 1.2x, the issue's; ADR-0098).
"""

import asyncio
import importlib.util
import json
import statistics
import subprocess
import sys
from collections.abc import Iterator
from contextlib import ExitStack
from pathlib import Path
from types import ModuleType

from perf import Comparison, Context, Figure, Sample, Subject, command, seconds, timed

STEPS = 20
ROUNDS = 10
"""Samples of each side of the traced `decode run`s (every side once per round, the order rotated)."""


def _collector(root: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location("bench_collector", root / "lessons/22-observability/collector.py")
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
        conversation = build_loop(LoopOptions(home=home, model=f"script:{script}", mcp=False), settings)
        async for _ in conversation.loop.run_turn("step through"):
            pass

    return Subject(label, lambda: asyncio.run(turn()))


def benchmarks(ctx: Context) -> Iterator[Comparison | Figure]:
    python = ctx.bin("python")
    before = ctx.tmp / "before"
    subprocess.run(
        [python, ctx.root / "scripts/lesson", "snapshot", "21", before], check=True, capture_output=True, cwd=ctx.root
    )
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    run = [python, "-m", "decode", "run", "--model", f"script:{script}", "say hello"]
    yield Comparison(
        "decode run, tracing off, vs before lesson 22",
        command(run, label="decode run (lesson 22, off)", cwd=ctx.tmp, env={"PYTHONPATH": str(ctx.root)}),
        command(run, label="decode run (lesson 21)", cwd=ctx.tmp, env={"PYTHONPATH": str(before)}),
        target=1.1,
        runs=10,
        issue=27,
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

    yield from _traced_runs(ctx, collector_module)


def _traced_runs(ctx: Context, collectors: ModuleType) -> Iterator[Figure]:
    """`decode run` untraced and traced to four collectors, interleaved; a ratio figure for each."""
    script = ctx.tmp / "glob.json"
    steps = [{"tool_calls": [{"name": "glob", "args": {"pattern": "*.json"}}]}, {"text": "done"}]
    script.write_text(json.dumps(steps), encoding="utf-8")
    run = [ctx.bin("python"), "-m", "decode", "run", "--model", f"script:{script}", "list them"]
    env = {"PYTHONPATH": str(ctx.root)}
    with ExitStack() as stack:
        urls = {
            "healthy": stack.enter_context(collectors.Collector()).url,
            "slow (1 s per answer)": stack.enter_context(collectors.Collector(delay_s=1.0)).url,
            "failing (HTTP 500)": stack.enter_context(collectors.Collector(status=500)).url,
            "gone (connection refused)": collectors.closed_url(),
        }
        sides = {"off": command(run, label="off", cwd=ctx.tmp, env=env)}
        for name, url in urls.items():
            sides[name] = command(run, label=name, cwd=ctx.tmp, env={**env, "OPIK_URL_OVERRIDE": url})
        samples = _interleaved(list(sides.values()), ROUNDS, ctx.warmup)
    off = samples["off"]
    for name in urls:
        traced = samples[name]
        ratio = statistics.median(s.wall for s in traced) / statistics.median(s.wall for s in off)
        cpu = statistics.median(s.cpu for s in traced) / statistics.median(s.cpu for s in off)
        note = (
            f"median {seconds(statistics.median(s.wall for s in traced))} vs off "
            f"{seconds(statistics.median(s.wall for s in off))}; CPU ratio {cpu:.2f}x; {ROUNDS} rounds"
        )
        yield Figure(f"decode run traced, collector {name}, vs tracing off", ratio, "x", limit=1.2, note=note)


def _interleaved(subjects: list[Subject], rounds: int, warmup: int) -> dict[str, list[Sample]]:
    """Samples of every subject, one each per round, the starting subject rotated round by round."""
    for _ in range(warmup):
        for subject in subjects:
            timed(subject)
    samples: dict[str, list[Sample]] = {subject.label: [] for subject in subjects}
    for round_ in range(rounds):
        shift = round_ % len(subjects)
        for subject in subjects[shift:] + subjects[:shift]:
            samples[subject.label].append(timed(subject))
    return samples


if __name__ == "__main__":
    sys.exit("run it through evals/perf/run.py tracing")
