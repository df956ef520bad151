# %% [markdown]
# # Lesson 23 — Recording and replay with Kitaru
#
# A trace (lesson 22) tells you what a run did. Sometimes you need more: to *run it again*.
#
# - **Reproduce a bad run.** The agent deleted the wrong file on Tuesday. The model will not give
#   the same answers twice, and the repository has moved on since. To debug it you want Tuesday's
#   run, step by step: the same model responses, the same tool results.
# - **Compare a what-if.** Would a better system prompt, another model, or a clearer task have
#   done better *on that same situation*? Change one thing, keep the rest as recorded, and compare.
#
# Both need a **recording**: every model request (messages in, response out, model, tokens, cost)
# and every tool call (arguments, result) of a run, kept somewhere. decode records to
# [Kitaru](https://kitaru.ai), whose pydantic-ai adapter wraps an agent and records each run as a
# **session**, and whose server can **replay** a recorded session (its *baseline*) with a policy:
# tool calls answered from the recording or run again, and an override (prompt, model…).
#
# This lesson adds `decode/recording/`:
#
# 1. the **Recording Seam**: the built agent, wrapped in Kitaru's `KitaruAgent` when
#    `KITARU_API_URL` and `KITARU_AGENT_ID` are set, and left alone (kitaru not even imported) when not;
# 2. what an **unreachable server** means: a user's run goes on unrecorded, a Kitaru Worker's fails;
# 3. `decode replay SESSION`: a **Baseline Replay**, or a **what-if** with `--model` / `--prompt`;
# 4. `make kitaru-local`: the Kitaru server on this machine, without Docker.
#
# First, the idea in a dozen lines. No key, no network: every model here is scripted.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 23's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `recorded` in `decode/recording/seam.py`
# - `FallbackAgent.iter` in `decode/recording/fallback.py`
# - `session_model` in `decode/recording/replay.py`
#
# `make lesson-start N=23` writes your copy into `build/23/`, and `make lesson-check N=23`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import logging
import os
import sys
import tempfile
import uuid
from pathlib import Path

from course import show, show_diff

LESSON_DIR = Path.cwd()
sys.path.insert(0, str(LESSON_DIR))  # the exercises live beside this notebook
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson23-")).resolve()
os.environ["HOME"] = str(scratch / "home")
for name in [n for n in os.environ if n.startswith("KITARU_")]:
    del os.environ[name]  # this notebook decides what is configured
project = scratch / "project"
project.mkdir(parents=True)
_ = (project / "notes.txt").write_text("buy milk\n")
os.chdir(project)

# %% [markdown]
# ## 1. Record, then replay, in a dozen lines
#
# A pydantic-ai `FunctionModel` is a model whose responses a Python function makes. `live` stands in
# for a real model: it reads a note, then answers with what the tool returned. `recording` calls it
# and keeps every response on a **tape**.

# %%
from pydantic_ai import Agent
from pydantic_ai.messages import ModelResponse, TextPart, ToolCallPart
from pydantic_ai.models.function import FunctionModel


def live(messages, info):
    if len(messages) == 1:
        return ModelResponse(parts=[ToolCallPart("read_note", {"name": "notes.txt"})])
    return ModelResponse(parts=[TextPart(f"The note says: {messages[-1].parts[0].content}")])


tape: list[ModelResponse] = []


def recording(messages, info):
    response = live(messages, info)
    tape.append(response)
    return response


agent = Agent(FunctionModel(recording))


@agent.tool_plain
def read_note(name: str) -> str:
    return (project / name).read_text().strip()


result = await agent.run("What does the note say?")
print(result.output, "|", len(tape), "model responses recorded")

# %% [markdown]
# A replay plays the tape back instead of asking the model. The note has changed since; the model
# responses are the recorded ones, so the run is the recorded run, answer included. (The tool ran
# again, live: it read "buy bread". Kitaru records tool results too, and a replay can answer from
# them: that is its `history` tool policy, and this lesson's exercise.)


# %%
def replaying(tape: list[ModelResponse]) -> FunctionModel:
    responses = iter(tape)
    return FunctionModel(lambda messages, info: next(responses))


(project / "notes.txt").write_text("buy bread\n")
baseline = await agent.run("What does the note say?", model=replaying(tape))
what_if = await agent.run("What does the note say?", model=FunctionModel(live))
print("baseline replay:", baseline.output)
print("what-if (the live model, on today's note):", what_if.output)
_ = (project / "notes.txt").write_text("buy milk\n")

# %% [markdown]
# That is all recording is: a wrapper around the model (and the tools) that writes down what went
# through. What a real recorder adds is where the tape goes (a server, with sessions you can
# search and compare), the tool results, the cost, and replay policies.
#
# ## 2. The Recording Seam
#
# kitaru-pydantic-ai's `KitaruAgent(agent, agent_id=…, session_name=…)` is a pydantic-ai
# `WrapperAgent`: each `iter()` adds a capability that opens a Kitaru session, records every model
# request and tool call, and closes the session with the output. decode wraps its agent in one
# place, the composition root (a step of its own, just before the loop is made), and only when
# recording is configured:

# %%
show("decode.recording.seam", "recorded")

# %%
show("decode.agent.steps.recording", "record")

# %%
show_diff(23, "decode/agent/compose.py")

# %% [markdown]
# The session name is the decode session id, so every turn of a REPL conversation (and of a resumed
# `decode run`) lands under one name. Unconfigured, the agent comes back as it was, and kitaru is
# not imported: decode starts as fast as before.

# %%
from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.permissions.types import Mode
from decode.recording.seam import recorded

plain = Agent(FunctionModel(live))
print("unconfigured, the same agent:", recorded(plain, Settings(_env_file=None), "s1") is plain)
print("kitaru imported:", "kitaru_pydantic_ai" in sys.modules)

# %% [markdown]
# The settings are guarded like lesson 16's: `KITARU_API_URL` is `user_only` (a repository's `.env`
# must not send your conversation to its server), and `KITARU_API_KEY` is a secret, so no command
# the agent runs, and no sandbox, ever sees it.

# %%
from decode.agent.steps.executor import command_environment_for
from decode.config.project_env import user_only_names

print("user-only:", sorted(n for n in user_only_names(Settings) if n.startswith("kitaru")))
os.environ["KITARU_API_KEY"] = "kitaru-secret"
print("a command's environment has KITARU_API_KEY:", "KITARU_API_KEY" in command_environment_for(Settings()))
del os.environ["KITARU_API_KEY"]

# %% [markdown]
# ## 3. When the server is not there
#
# Where does kitaru notice that its server is down? Not when the agent is wrapped (that does no
# I/O), but when a run starts: the capability opens its session before the first model request,
# and `agent.iter()` raises `httpx.ConnectError` on entry, after about 4 s of retries. So decode
# handles it there, in a `FallbackAgent` around the recorded one:

# %%
show("decode.recording.fallback", "FallbackAgent.iter")

# %% [markdown]
# A run *you* launched goes on unrecorded, with one warning line, and the rest of the conversation
# does not try again. Here is a real turn against a port nothing listens on:

# %%
import socket

# Bound, never listening: a connection is refused, and no other program can take the port while
# this cell and the next use it (a port merely released could be, on a busy machine).
refusing = socket.socket()
refusing.bind(("127.0.0.1", 0))
closed = refusing.getsockname()[1]
warnings: list[str] = []
handler = logging.Handler()
handler.emit = lambda record: warnings.append(record.getMessage().replace(str(closed), "<port>"))
logging.getLogger("decode.recording").addHandler(handler)

down = f"http://127.0.0.1:{closed}"
settings = Settings(lsp=False, _env_file=None, kitaru_api_url=down, kitaru_agent_id=uuid.uuid4())
turns = f"script:{LESSON_DIR / 'turns.json'}"
options = LoopOptions(home=project, model=turns, permission_mode=Mode.BYPASS, mcp=False)
conversation = build_loop(options, settings)
events = [event async for event in conversation.loop.run_turn("What does the note say?")]
print("answer:", events[-1].output)
print("warnings:", warnings)

# %% [markdown]
# A run a Kitaru **Worker** launched (it sets `KITARU_TASK_ID`) exists to be recorded: a replay
# that records nothing is no replay. It fails, and `decode run` exits 1 with this message:

# %%
from decode.recording.fallback import RecordingUnavailable

worker = Settings(
    lsp=False, _env_file=None, kitaru_api_url=down, kitaru_agent_id=uuid.uuid4(), kitaru_task_id=uuid.uuid4()
)
conversation = build_loop(LoopOptions(home=project, model=turns, permission_mode=Mode.BYPASS, mcp=False), worker)
try:
    [event async for event in conversation.loop.run_turn("What does the note say?")]
except RecordingUnavailable as exc:
    print("RecordingUnavailable:", str(exc).replace(str(closed), "<port>"))
refusing.close()

# %% [markdown]
# ## 4. Replays
#
# Kitaru replays a session by running the agent again as a **task**: a Worker runs the agent
# version's command with `KITARU_TASK_ID` and `KITARU_REPLAY_ID` set, and the same capability,
# already in the Recording Seam, gives that run the baseline's input, applies the override, and
# answers tool calls by the replay's tool policy. decode's part is small: the command
# (`decode run --model MODEL …` in the launch directory, registered once as an agent version) and
# the choice of policy.
#
# - **Baseline Replay** (`decode replay SESSION`): the same input, the same model, every tool call
#   answered with the result the baseline recorded (policy `history`, scope `baseline`).
# - **What-if** (`--model M`, `--prompt P`, `--live-tools`): the same with one thing changed. The
#   model goes into decode's command rather than Kitaru's override, because Kitaru resolves models
#   with pydantic-ai, which does not know decode's providers (`script:` among them).

# %%
show("decode.recording.replay", "start_replay")

# %% [markdown]
# With a local server (next section) it goes like this; the output is one JSON line per replay:
#
# ```sh
# make kitaru-local                          # prints KITARU_API_URL=…, KITARU_AGENT_ID=…, KITARU_API_KEY=…
# export KITARU_API_URL=http://127.0.0.1:PORT KITARU_AGENT_ID=… KITARU_API_KEY=…   # or put them in .env
# decode run "what does the note say?"       # recorded: session 3f2a9c1e
# decode replay 3f2a9c1e                     # Baseline Replay: recorded tool results
# decode replay 3f2a9c1e --model script:other.json --prompt "summarise it"   # a what-if
# make kitaru-stop
# ```
#
# Each replay is itself a recorded run: a new decode session, and a Kitaru session of origin
# `replay` beside its baseline, which Kitaru's evaluators and UI compare.
#
# ## 5. A Kitaru server without Docker
#
# `kitaru login --local` wants Docker Compose. `make kitaru-local` (`scripts/kitaru-local`) does
# without: it initialises a PostgreSQL cluster from the system's packages under `.decode/kitaru/`
# (as the `postgres` user when run as root: `initdb` refuses root), on a loopback port with a
# generated password, migrates (`python -m kitaru.server.database.main`), starts the server
# (`python -m kitaru.server.api.main`) and a Worker, registers the `decode` agent once, and prints
# the `.env` lines. Its keys are generated once and kept in `.decode/kitaru/secrets.env` (0600).
#
# Measured here: a first start takes 13.1 s (a new cluster), a restart 8.0 s, a second
# `make kitaru-local` while it runs 0.35 s (it says so and reuses the agent). That is too slow for
# a notebook cell, so this notebook runs none; the integration tests
# (`tests/integration/recording/`) start one, record a real `decode run` through it, read it back,
# and run a Baseline Replay and a what-if through its Worker.
#
# ## Exercise
#
# A Baseline Replay answers each tool call with the result the baseline recorded for *that* call.
# The same call can happen twice with different results (the agent ran the tests, fixed the code,
# ran them again): the second identical call must get the second result, not the first again.
# Write `recorded_results(history, miss)`: from a recording's tool calls `(name, args, result)`,
# return `lookup(name, args)`, which answers each call with the next recorded result of the same
# name and arguments, and `miss` for a call the baseline never made (or made fewer times).

# %%
from exercises import check_recorded_results


def recorded_results(history, miss):
    raise NotImplementedError  # your code here


# %%
check_recorded_results(recorded_results)

# %% [markdown]
# ## Recap
#
# **What you built:** recording runs with Kitaru, and replaying them: as they were, or with one
# thing changed.
#
# - The Recording Seam wraps the built agent in `KitaruAgent` only when Kitaru is configured;
#   otherwise kitaru is never imported.
# - An unreachable server: a user's run goes on unrecorded, a Kitaru Worker's fails.
# - `decode replay SESSION` is a Baseline Replay (the recorded tool results answer the calls) or a
#   What-if Replay with `--model`, `--prompt` or `--live-tools`.
# - `make kitaru-local` runs the Kitaru server on this machine, without Docker.
#
# **The key idea:** to debug a run you need the run again: the same model responses and tool
# results, with exactly one thing changed when you ask a what-if.
#
# **Glossary:** [Recording Seam](../../docs/glossary.md#recording-seam),
# [Baseline Replay](../../docs/glossary.md#baseline-replay),
# [What-if Replay](../../docs/glossary.md#what-if-replay).
