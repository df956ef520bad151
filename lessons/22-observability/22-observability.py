# %% [markdown]
# # Lesson 22 — Observability: tracing with Opik
#
# An agent run is a black box once it is over: the answer is there, but what did the agent *do* to
# get it? Which files did it read, which commands did it run, which one failed? What did it cost,
# request by request? Where did the time go: the model, or a slow test suite?
#
# A **trace** answers all three. One trace per turn, holding one **span** per step: a span for each
# model request (model, tokens, dollars) and one for each tool call (name, arguments, outcome,
# duration), nested the way they happened: a subagent's work sits under the `agent` call that
# started it. decode sends traces to [Opik](https://www.comet.com/docs/opik/), when you ask it to.
#
# This lesson adds `decode/observability/`:
#
# 1. a **Tracing Seam** that watches the Agent Loop's event stream and turns it into spans;
# 2. the **Opik backend**, loaded only when tracing is configured (`OPIK_API_KEY` or
#    `OPIK_URL_OVERRIDE`): it posts records to Opik's REST API from a background queue, so a traced
#    run costs little more than an untraced one, whatever the server does;
# 3. a **loopback collector**, a real HTTP server on 127.0.0.1 that speaks enough of Opik's API
#    to receive traces: how this notebook and the tests see what decode sends.
#
# No key and no network beyond 127.0.0.1: every model here is scripted.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 22's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `TurnObserver.watch` in `decode/observability/observer.py`
# - `TurnObserver._see` in `decode/observability/observer.py`
# - `outcome` in `decode/observability/observer.py`
#
# `make lesson-start N=22` writes your copy into `build/22/`, and `make lesson-check N=22`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import json
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show, show_diff

LESSON_DIR = Path.cwd()
sys.path.insert(0, str(LESSON_DIR))  # the collector lives beside this notebook
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson22-")).resolve()
os.environ["HOME"] = str(scratch / "home")
project = scratch / "project"
project.mkdir(parents=True)
(project / "notes.txt").write_text("buy milk\n")
os.chdir(project)


def shown(text: object) -> str:
    """Text with the scratch folder's path (different on every run) replaced by `<scratch>`."""
    return str(text).replace(str(scratch), "<scratch>").replace(str(LESSON_DIR), "<lesson>")


# %% [markdown]
# ## 1. A trace in a dozen lines
#
# The loop already tells the outside world everything a trace needs, in order: `UsageUpdated` ends
# each model request, `ToolCallStarted` / `ToolCallFinished` bracket each tool call, `TurnFinished`
# carries the answer. So a tracer need not reach inside the loop: it can *watch its events*. We run
# one turn on the scripted model (`turns.json`: it reads the note, counts its lines, answers) and
# keep the events.

# %%
from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.permissions.types import Mode

settings = Settings(lsp=False, _env_file=None)
turns = f"script:{LESSON_DIR / 'turns.json'}"
conversation = build_loop(LoopOptions(home=project, model=turns, permission_mode=Mode.BYPASS, mcp=False), settings)
events = [event async for event in conversation.loop.run_turn("What does the note say?")]
print([event.kind for event in events if event.kind not in {"text"}])

# %% [markdown]
# Now the inline tracer: a span opens at each step's start and closes at its end; a model request
# starts when the previous step ended. Printed as an indented tree:

# %%
from decode.entities.events import ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated


def span_tree(prompt: str, events: list) -> list[str]:
    lines, open_calls, n = [f"turn {prompt!r}"], {}, 0
    for event in events:
        if isinstance(event, UsageUpdated):
            n += 1
            u = event.request
            lines.append(f"  llm request {n}: {u.input_tokens} in, {u.output_tokens} out, ${u.cost_usd}")
        elif isinstance(event, ToolCallStarted):
            open_calls[event.call.id] = event.call
        elif isinstance(event, ToolCallFinished):
            call = open_calls.pop(event.result.call_id)
            outcome = "error" if event.result.is_error else "ok"
            lines.append(f"  tool {call.name}({json.dumps(call.args)}) → {outcome}")
        elif isinstance(event, TurnFinished):
            lines.append(f"  answer: {event.output!r}")
    return lines


print("\n".join(span_tree("What does the note say?", events)))

# %% [markdown]
# That is the whole idea. What the real one adds: times (each span's start and end), ids and parents
# (so a backend can nest them), a turn that fails or is cancelled still ending its trace, subagents
# nested under their call, and a backend to send it all to, loaded only when wanted.
#
# ## 2. The Tracing Seam
#
# `TurnObserver.watch()` passes every event on unchanged and records as they go; however the events
# end (an answer, an exception, a cancellation), the trace is written:

# %%
show("decode.observability.observer", "TurnObserver.watch")

# %% [markdown]
# Each event becomes a record (`records.py`: plain dataclasses, whatever the backend). A record is
# sent once, complete, when its step ends: the backend sends in batches, in the background, and an
# "update" sent after a "create" can arrive first.

# %%
show("decode.observability.observer", "TurnObserver._see")

# %% [markdown]
# Who calls it? A `TracedLoop` is an `AgentLoop` whose `run_turn` goes through the observer. The
# composition root builds one only when tracing is configured; otherwise the loop is exactly the
# one from before this lesson:

# %%
show("decode.agent.traced_loop", "TracedLoop")

# %% [markdown]
# The composition root's last step, `make_loop`, asks `agent_loop()` for the loop:

# %%
show_diff(22, "decode/agent/steps/core.py")

# %%
show("decode.agent.traced_loop", "agent_loop")

# %% [markdown]
# `open_sink` opens the backend only if `OPIK_API_KEY` or `OPIK_URL_OVERRIDE` is set *by you* (a
# project's `.env` cannot set them: a repository you cloned must not choose where your
# conversations go), and closes it at exit.

# %%
show("decode.observability.sink", "open_sink")

# %% [markdown]
# The backend turns each record into the JSON Opik's REST API takes. It does not use the opik SDK:
# `import opik` alone took as long as the rest of a tiny `decode run` (ADR-0098), and two HTTP
# calls are all decode needs.

# %%
show("decode.observability.opik_tracer", "OpikSink.write_span")

# %% [markdown]
# `put()` only queues: one thread posts the batches, in order, and never waits for the server's
# answer before the next (a slow server answers on the side). At exit, `close()` waits for what is
# queued to be *written*, at most `CLOSE_TIMEOUT_S`, then a quarter of a second for the answers: a
# server that refuses, fails or never answers at all costs one warning line; a slow one, nothing.

# %%
show("decode.observability.sender", "BatchSender.close")

# %% [markdown]
# ## 3. A real traced run, into a collector on 127.0.0.1
#
# The collector (`collector.py` beside this notebook) is a small real HTTP server: it answers
# Opik's health check (`/api/is-alive/ping`) and keeps the batches posted to
# `/api/v1/private/traces/batch` and `/spans/batch`. We point `OPIK_URL_OVERRIDE` at it and run
# `decode run`, a real process, with the same scripted turn.

# %%
from collector import Collector, tree

collector = Collector().__enter__()
env = {**os.environ, "OPIK_URL_OVERRIDE": collector.url}
done = subprocess.run(
    [sys.executable, "-m", "decode", "run", "--output-format", "json", "--permission-mode", "bypass",
     "--model", turns, "What does the note say?"],
    env=env, capture_output=True, text=True, timeout=120,
)  # fmt: skip
result = json.loads(done.stdout)  # lesson 20's result object: the answer, and the session's id
print("exit", done.returncode, "·", result["result"])
collector.wait_for(traces=1, spans=4)
health_check = "GET /api/is-alive/ping"  # the opik SDK pings first; decode's backend does not
print(sorted(set(collector.paths()) - {health_check}))

# %%
session = result["session_id"]
print(shown(tree(collector.traces(), collector.spans())).replace(session, "<session>"))

# %% [markdown]
# One `decode_run` trace (the REPL's are `chat_turn`), its thread the session id, and four spans:
# two model requests and the two tool calls between them. Its metadata:

# %%
(trace,) = collector.traces()
print(shown(json.dumps(trace["metadata"], indent=1)).replace(session, "<session>"))

# %% [markdown]
# A subagent is not a trace of its own: its turn is a span under the `agent` call that ran it. The
# parent (`fanout.json`) asks an `explore` child, which plays `child.json`:

# %%
collector.requests.clear()
fan_env = {**env, "DECODE_SUBAGENT_MODEL": f"script:{LESSON_DIR / 'child.json'}"}
fan = f"script:{LESSON_DIR / 'fanout.json'}"
done = subprocess.run(
    [sys.executable, "-m", "decode", "run", "--output-format", "json", "--model", fan, "What does the note say?"],
    env=fan_env, capture_output=True, text=True, timeout=120,
)  # fmt: skip
collector.wait_for(traces=1, spans=7)
session = json.loads(done.stdout)["session_id"]
print(shown(tree(collector.traces(), collector.spans())).replace(session, "<session>"))
collector.__exit__(None, None, None)

# %% [markdown]
# ## 4. What each request cost
#
# Each llm span carries decode's `Usage` for that request: tokens, and dollars from the price tables
# of `genai-prices` (offline data). The scripted model has no price, so its cost is `None`: unknown,
# not free. A real model's response is priced; here one of Gemini Flash's, priced without a call:

# %%
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.usage import RequestUsage

from decode.models.cost import response_usage

response = ModelResponse(
    parts=[TextPart("…")],
    usage=RequestUsage(input_tokens=12_000, output_tokens=800),
    model_name="gemini-2.5-flash",
    provider_name="google-gla",
)
usage = response_usage(response)
print(f"{usage.input_tokens} in, {usage.output_tokens} out: ${usage.cost_usd:.6f}")

# %% [markdown]
# Measured here (`python evals/perf/run.py tracing`): `decode run` with tracing off takes 0.94x the
# package before this lesson (2.78 s vs 2.96 s: the same, within noise); a turn of 20 tool steps
# traced to the loopback collector takes 1.01x the untraced one (target ≤ 1.2x); a traced run
# whose collector is gone still exits 0, after waiting at most 2 s for it.
#
# ## Exercise
#
# Write `cost_by_model(spans)`: from a trace's spans (dicts as the collector received them), per
# model the input tokens, output tokens and dollars summed over its `llm` spans (`usage` has
# `prompt_tokens` and `completion_tokens`; `total_estimated_cost` the dollars, absent when no price was
# known). A model none of whose requests had a price costs `None`: unknown is not free.

# %%
from exercises import check_cost_by_model


def cost_by_model(spans: list[dict]) -> dict[str, tuple[int, int, float | None]]:
    raise NotImplementedError  # your code here


# %%
check_cost_by_model(cost_by_model)

# %% [markdown]
# ## Recap
#
# **What you built:** tracing with Opik: one trace per turn, a span per model request and per tool
# call.
#
# - A Trace holds spans nested as they happened: a subagent's work sits under its `agent` call.
# - The Tracing Seam watches the Agent Loop's event stream, passes every event on unchanged, and
#   writes the turn's trace however the turn ends.
# - The Opik backend is loaded only when tracing is configured, and posts from a background queue.
# - A Loopback Collector on 127.0.0.1 receives what decode sends, so the notebook and the tests see
#   the traces without a network.
#
# **The key idea:** observe from the event stream the front ends already read, so tracing changes
# nothing of what it watches.
#
# **Glossary:** [Trace](../../docs/glossary.md#trace),
# [Tracing Seam](../../docs/glossary.md#tracing-seam),
# [Loopback Collector](../../docs/glossary.md#loopback-collector).
