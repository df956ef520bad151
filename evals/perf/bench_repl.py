"""The REPL's start: its prompt must be on screen long before the agent is warm.

`decode` draws its prompt with only prompt_toolkit and Rich imported, while a background thread
imports pydantic-ai and builds the Agent Loop (lesson 03). Measured in a real terminal (a tmux
pane, polled with `capture-pane`):

- time to prompt: from starting `decode` until `❯` is on screen;
- time to warm: until the footer says `● ready` (settings read, pydantic-ai imported, model built).

Both are compared with `python -c "import pydantic_ai"`, the floor any agent on pydantic-ai pays:
the prompt should appear in less than half of it. Warm means decode's settings, tools and model
too, after the prompt's own start-up, and sharing the interpreter with the prompt being drawn; it
should come as soon as `decode run`'s first request: within half of the import too (issue 27;
pydantic-ai loads without its MCP client stack, ADR-0102). The tmux start (a few milliseconds) is
included in the REPL's figures.

"Warm as fast" (issue 27) is also measured against `decode run` itself, in the same rounds: the
REPL's time to warm over the time `decode run` with the same scripted model takes to print its
answer (its first request, answered at once, and the answer written): at most 1x.
"""

import json
import shutil
import statistics
import subprocess
import time
import uuid
from collections.abc import Iterator
from pathlib import Path

from perf import Context, Figure, command, sample

POLL_S = 0.005
TIMEOUT_S = 60.0
RUNS = 10


def _start_times(decode: Path, script: Path, cwd: Path) -> tuple[float, float]:
    """Seconds until the prompt shows, and until the footer says ready, for one start of decode."""
    socket = f"decode-bench-{uuid.uuid4().hex[:8]}"
    tmux = ["tmux", "-L", socket]
    started = time.perf_counter()
    subprocess.run(
        [*tmux, "new-session", "-d", "-x", "120", "-y", "30", "-c", str(cwd), f"{decode} --model script:{script}"],
        check=True,
    )
    prompt, screen = None, ""
    try:
        while time.perf_counter() - started < TIMEOUT_S:
            screen = subprocess.run([*tmux, "capture-pane", "-p"], capture_output=True, text=True).stdout
            now = time.perf_counter() - started
            if prompt is None and "❯" in screen:
                prompt = now
            if "● ready" in screen:
                return prompt or now, now
            time.sleep(POLL_S)
        raise RuntimeError(f"decode did not start within {TIMEOUT_S:g} s; the terminal shows:\n{screen}")
    finally:
        subprocess.run([*tmux, "kill-server"], capture_output=True)


def _run_answer(decode: Path, script: Path, cwd: Path) -> float:
    """Seconds from starting `decode run` with the scripted model until its answer's first byte."""
    started = time.perf_counter()
    process = subprocess.Popen(
        [str(decode), "run", "--model", f"script:{script}", "hi"],
        cwd=cwd, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.DEVNULL,
    )  # fmt: skip
    assert process.stdout is not None
    first = process.stdout.read(1)
    answered = time.perf_counter() - started
    process.stdout.read()
    if process.wait(timeout=TIMEOUT_S) != 0 or not first:
        raise RuntimeError("decode run failed")
    return answered


def benchmarks(ctx: Context) -> Iterator[Figure]:
    if shutil.which("tmux") is None:
        print("  (tmux is not installed: skipped)")
        return
    script = ctx.tmp / "hello.json"
    script.write_text(json.dumps([{"text": "Hello."}]), encoding="utf-8")
    baseline_subject = command([ctx.bin("python"), "-c", "import pydantic_ai"], cwd=ctx.tmp)
    for _ in range(ctx.warmup):
        _start_times(ctx.bin("decode"), script, ctx.tmp)
        sample(baseline_subject)
    starts, baselines, answers = [], [], []
    for _ in range(RUNS):
        starts.append(_start_times(ctx.bin("decode"), script, ctx.tmp))
        baselines.append(sample(baseline_subject))
        answers.append(_run_answer(ctx.bin("decode"), script, ctx.tmp))
    baseline = statistics.median(baselines)
    to_prompt = statistics.median(prompt for prompt, _ in starts)
    to_warm = statistics.median(warm for _, warm in starts)
    note = f'median of {RUNS}; `python -c "import pydantic_ai"` takes {baseline:.2f} s here'
    yield Figure("REPL: time to prompt", to_prompt, "s", limit=0.5 * baseline, note=note + " (limit: half of it)")
    yield Figure("REPL: time to warm", to_warm, "s", limit=0.5 * baseline, note=note + " (limit: half of it)")
    yield Figure("REPL: time to warm / import pydantic_ai", to_warm / baseline, "x", 0.5, note=note, issue=27)
    answer = statistics.median(answers)
    note = f"median of {RUNS}; `decode run` printed its answer after {answer:.2f} s"
    yield Figure("REPL: time to warm / decode run's answer", to_warm / answer, "x", 1.0, note=note, issue=27)
