# %% [markdown]
# # Lesson 10 — The harness
#
# A turn used to be all or nothing: what you typed while the agent worked waited for the end, and
# Ctrl-C threw the turn away. The **Harness** sits between the front end and the Agent Loop:
#
# 1. the **Priority Gate**: a message sent mid-turn is a **steer** (read before the model's next
#    request) or a **follow-up** (read when the turn would end) — pydantic-ai's own message queue;
# 2. the **Turn Runner**: one turn at a time, and **abort**;
# 3. **abort**: the running command dies with its whole process group, every **orphan tool call**
#    gets a synthetic result, and the partial turn stays in the conversation;
# 4. the **Decision Channel** of lesson 06 (approvals, and later the model's questions, one at a
#    time), now asked from inside a turn that can be steered and aborted.
#
# First we steer a running turn by hand, with nothing but pydantic-ai and the scripted model, and
# see what goes wrong at the edges. Then the package's version, the code that does it, and what
# it adds. Everything runs offline on the scripted model, in a scratch folder.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 10's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `PriorityGate.send` in `decode/harness/priority.py`
# - `PriorityGate.take_back` in `decode/harness/priority.py`
# - `close_interrupted_turn` in `decode/harness/abort.py`
#
# `make lesson-start N=10` writes your copy into `build/10/`, and `make lesson-check N=10`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# ## 1. Steering by hand
#
# A turn is one pydantic-ai run: `agent.iter()` walks it node by node (lesson 02). While it walks,
# the run has a message queue: `run.enqueue(text, priority="asap")` adds `text` to the *next* model
# request. That is all a steer needs. To see what the model receives, we give the scripted model
# ears: a subclass that prints the parts of the last message of every request it gets.

# %%
import asyncio
import json
import os
import tempfile
from pathlib import Path

from course import show, show_diff
from pydantic_ai import Agent

from decode.models.script import ScriptedModel

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson10-")).resolve()
os.chdir(scratch)


class Listening(ScriptedModel):
    """The scripted model, printing what each request brings it (the end of the conversation)."""

    async def _respond(self, messages, info):
        news = [f"{part.part_kind}: {getattr(part, 'content', '')}" for part in messages[-1].parts]
        print(f"request {self.played + 1} brings", news)
        return await super()._respond(messages, info)


def scripted(name: str, responses: list[dict]) -> Path:
    """Write a script (lesson 02's `script:PATH` model) into the scratch folder."""
    path = scratch / name
    path.write_text(json.dumps(responses))
    return path


# %% [markdown]
# A minimal agent: one tool, `shell`, that takes its time, like `npm install`. The script says
# what the model answers: first it calls the tool, then (a little slowly, `delay_s`) it answers.

# %%
tool_started = asyncio.Event()
by_hand = Agent(
    Listening.from_file(
        scripted(
            "by-hand.json",
            [
                {"text": "Installing.", "tool_calls": [{"name": "shell", "args": {"command": "npm install"}}]},
                {"text": "Right, pnpm it is.", "delay_s": 0.1},
            ],
        )
    )
)


@by_hand.tool_plain
async def shell(command: str) -> str:
    """Run a shell command."""
    tool_started.set()
    await asyncio.sleep(0.2)
    return f"ran {command}"


# %% [markdown]
# The turn runs; "the user" is a second coroutine that waits until the tool runs, then types a
# correction. Nothing reads it yet: the model is not being asked anything while the tool runs. The
# run holds it until it builds the next request, and puts it there, after the tool's result.


# %%
async def user_types(run, text: str) -> None:
    await tool_started.wait()
    print("user steers:", text, "->", type(run.enqueue(text, priority="asap")).__name__, "(an id)")


async with by_hand.iter("install the dependencies") as run:
    typing = asyncio.create_task(user_types(run, "use pnpm, not npm"))
    async for _node in run:
        pass
    await typing
print("answer:", run.result.output)

# %% [markdown]
# The second request brought the tool's result *and* the steer: the model changed course before
# its next step, not after the turn. That is the whole mechanism (ADR-0026): no surgery on the
# message history, pydantic-ai builds the request and keeps it valid.
#
# Two edges remain. A message typed just as the run ends finds the queue closed:

# %%
from pydantic_ai.exceptions import UserError

try:
    run.enqueue("and run the tests", priority="asap")
except UserError as error:
    print("UserError:", error)

# %% [markdown]
# By hand, that message is lost in an exception. And a steer the run took but never delivered (the
# user aborts first) is lost silently. A harness must route a late message into a turn of its
# own, and remember what it handed over until the model really got it. That is the Priority Gate.
#
# ## 2. The Priority Gate
#
# `send()` routes one `Message`: with a running run and a steer or follow-up, into the run
# (pydantic-ai's `asap` or `when_idle`); otherwise, and when the run refuses, into the queue of turns.

# %%
show("decode.harness.priority", "PriorityGate.send")

# %%
show("decode.harness.priority", "_enqueue")

# %% [markdown]
# A message handed over stays *in flight* until the model gets it. pydantic-ai says when: an
# `EnqueuedMessagesEvent` while the next request streams. What this lesson adds to lesson 02's
# Agent Loop is exactly that, and `loop.run`, the live run a steer goes into:

# %%
show_diff(10, "decode/agent/loop.py")

# %% [markdown]
# `delivered()` turns pydantic-ai's event into decode's `MessageDelivered`, with the user's text:

# %%
show("decode.agent.steering", "delivered")

# %% [markdown]
# The gate's `delivered()` forgets a message the loop reports delivered, and `take_back()` returns
# whatever is still in flight when a turn stops early.

# %%
show("decode.harness.priority", "PriorityGate.take_back")

# %% [markdown]
# The gate on its own, with no run: a steer sent while nothing runs becomes a turn.

# %%
from decode.harness.priority import Message, Priority, PriorityGate

gate = PriorityGate()
print(gate.send(Message("hi", Priority.STEER), None))
print(gate.pending())

# %% [markdown]
# ## 3. The Turn Runner
#
# The Turn Runner owns the task of the running turn. `send()` finds the run of that turn
# (`loop.run`, the live pydantic-ai run the Agent Loop exposes) and gives the message to the gate;
# `run_turn()` reports every event and ends each turn with `TurnEnded`: `finished`, `aborted`
# (the partial turn kept) or `failed` (one line saying why), with the messages handed back.

# %%
show("decode.harness.runner", "TurnRunner.send")

# %%
show("decode.harness.runner", "TurnRunner.run_turn")

# %% [markdown]
# From here on the agent is decode's own: `build_agent()` with the real tools, in an Agent Loop, on
# a scripted model. `said()` prints the conversation, one line per part.

# %%
from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.models.gateway import resolve_model
from decode.processes.local import LocalExecutor
from decode.tools.catalog import default_tools

settings = Settings(gemini_api_key=None)


def agent_loop(responses: list[dict]) -> AgentLoop:
    """An Agent Loop on a scripted model playing `responses`, with decode's tools (no permission hook)."""
    script = scripted(f"script-{len(list(scratch.glob('script-*')))}.json", responses)
    agent = build_agent(resolve_model(f"script:{script}", settings), tools=default_tools())
    return AgentLoop(agent, AgentDeps(LocalExecutor(scratch), settings, harness_home=scratch))


def said(loop: AgentLoop) -> list[str]:
    """The conversation as lines: who said what (tool calls and results by name)."""
    lines = []
    for message in loop.history:
        for part in message.parts:
            match part.part_kind:
                case "user-prompt":
                    lines.append(f"user:   {part.content}")
                case "text":
                    lines.append(f"model:  {part.content}")
                case "tool-call":
                    first_argument = next(iter(part.args_as_dict().values()), "")
                    lines.append(f"call:   {part.tool_name}({first_argument})")
                case "tool-return":
                    lines.append(f"result: {str(part.content).splitlines()[0]}")
    return lines


# %% [markdown]
# `TurnRunner(agent_loop, on_event)`: `agent_loop` is awaited at the start of each turn (the REPL's
# waits for its warm-up); every event goes to `on_event`. `work()` runs the turns, in a task.

# %%
from decode.harness.runner import TurnRunner

loop = agent_loop([{"text": "Hello! What shall we build?"}])
events = []


async def provide():
    return loop


runner = TurnRunner(provide, events.append)
worker = asyncio.create_task(runner.work())
runner.send(Message("hi"))
await runner.idle()
print([event.kind for event in events])
print(events[-1])

# %% [markdown]
# ### A steer, through the runner
#
# Section 1 again, on the real pieces: "the user" types a correction the moment the agent starts
# a command. While the tool runs the message is in flight; then the loop reports `message_delivered`.

# %%
loop = agent_loop(
    [
        {"text": "Installing.", "tool_calls": [{"name": "bash", "args": {"command": "echo npm install"}}]},
        {"text": "Right, pnpm it is."},
    ]
)
events.clear()
waiting = []


def user_steers(event):
    events.append(event)
    if event.kind == "tool_call":
        runner.send(Message("use pnpm, not npm", Priority.STEER))
        waiting.extend(runner.pending())  # in flight: handed to the run, not yet read by the model


runner.on_event = user_steers
runner.send(Message("install the dependencies"))
await runner.idle()
print("waiting while the tool ran:", [(m.priority.value, m.text) for m in waiting])
print([event.kind for event in events])
print(*said(loop), sep="\n")

# %% [markdown]
# ### A follow-up: read when the turn would end
#
# A follow-up (`priority="when_idle"`, Alt+Enter in the REPL) does not interrupt: the model
# finishes what it was doing, and only when it would stop does it get the message — in the same turn.

# %%
loop = agent_loop(
    [
        {
            "text": "Writing the test.",
            "tool_calls": [
                {"name": "write", "args": {"path": "test_a.py", "content": "def test_a():\n    assert True\n"}}
            ],
        },
        {"text": "Test written."},
        {"text": "Ran it: 1 passed."},
    ]
)
events.clear()


def user_follows_up(event):
    events.append(event)
    if event.kind == "tool_call":
        runner.send(Message("then run it", Priority.FOLLOW_UP))


runner.on_event = user_follows_up
runner.send(Message("write a test"))
await runner.idle()
print(*said(loop), sep="\n")

# %% [markdown]
# ## 4. Abort: stop now, keep what happened
#
# `runner.abort()` cancels the turn's task. pydantic-ai tears the run down: the model stream is
# closed and the running tool is cancelled — `bash` kills its whole **process group**, so the
# background `sleep` dies too. Cancelled, the history would end with a tool call that has no
# result (an *orphan*): a provider rejects the next request. `close_interrupted_turn()` gives each
# orphan a synthetic result and adds a note from the user, and the loop keeps that partial turn.
#
# The runner catches the cancellation in `run_turn()` (above); pydantic-ai attaches what the run
# had done to it (`RunCancelled.from_cancellation`), and `_keep_partial_turn` keeps that, with a
# note for the model at the end (the user's interruption, unless the front end says otherwise):

# %%
show("decode.harness.runner", "TurnRunner._keep_partial_turn")

# %% [markdown]
# An orphan is a call of the last model response that no later request answers. Closing the turn
# keeps the results that did come back (pydantic-ai hands them over in a request marked
# `interrupted`), answers every orphan, and ends with a note from the user:

# %%
show("decode.harness.abort", "close_interrupted_turn")

# %% [markdown]
# Now for real: a `bash` call that starts a background `sleep` and waits on another. We wait until
# all three processes run, abort, and count what is left of the command's process group.


# %%
import subprocess


def running(pgid: str) -> int:
    """How many processes of group `pgid` still run (a killed one waiting to be reaped does not)."""
    listed = subprocess.run(["ps", "-eo", "pgid=,stat="], capture_output=True, text=True).stdout
    return sum(line.split()[0] == pgid and not line.split()[1].startswith("Z") for line in listed.splitlines())


loop = agent_loop(
    [
        {
            "text": "Starting the server.",
            "tool_calls": [{"name": "bash", "args": {"command": "echo $$ > group.pid; sleep 300 & sleep 300"}}],
        },
        {"text": "Understood: I will not start it again."},
    ]
)
events.clear()
runner.on_event = events.append
runner.send(Message("start the dev server"))
pid_file = scratch / "group.pid"
while True:  # until bash and both sleeps run (bash writes its process group's id first)
    if pid_file.exists() and pid_file.read_text().strip() and running(pid_file.read_text().strip()) == 3:
        break
    await asyncio.sleep(0.02)
group = pid_file.read_text().strip()
print("running before:", running(group))
runner.abort()
await runner.idle()
for _ in range(3000):  # SIGKILL is immediate; a loaded machine reaps later (up to a minute)
    if running(group) == 0:
        break
    await asyncio.sleep(0.02)
print("running after: ", running(group))
print(events[-1].outcome)
print(*said(loop), sep="\n")

# %% [markdown]
# The next turn goes on from there: the model sees its interrupted call, closed.

# %%
runner.send(Message("ok, what now?"))
await runner.idle()
print(*said(loop)[-2:], sep="\n")

# %% [markdown]
# A message the model never got — a steer sent just before the abort — is handed back in
# `TurnEnded.returned`; the REPL puts it into your input line. Here the model "thinks" for a
# minute (`delay_s`), the user steers, then aborts before the request is answered.

# %%
loop = agent_loop([{"text": "Thinking hard.", "delay_s": 60}])
events.clear()


def user_steers_then_aborts(event):
    events.append(event)
    if event.kind == "turn_started":
        asyncio.get_running_loop().call_later(0.2, runner.send, Message("actually, stop", Priority.STEER))
        asyncio.get_running_loop().call_later(0.4, runner.abort)


runner.on_event = user_steers_then_aborts
runner.send(Message("think about it"))
await runner.idle()
print(events[-1].outcome, [message.text for message in events[-1].returned])

# %% [markdown]
# A turn that fails is not a crash either: the conversation stays as it was, and `TurnEnded`
# says why in one line (`decode/agent/failures.py`). Here the script runs out of answers.

# %%
loop = agent_loop([{"text": "Starting.", "tool_calls": [{"name": "bash", "args": {"command": "true"}}]}])
events.clear()
runner.on_event = events.append
runner.send(Message("do it"))
await runner.idle()
print(events[-1].outcome, "|", events[-1].error.replace(str(scratch), "<scratch>"))

# %% [markdown]
# ## 5. The Decision Channel, inside a turn
#
# Lesson 06 built the **Decision Channel** (`decode/harness/decisions.py`): every question to the
# user (an approval now, lesson 13's `ask_user` later) waits its turn in one queue, and the user
# answers the one on screen. Under the harness a question is asked from inside a running turn: a
# tool call waits on it while the Turn Runner drives the turn, and what you type meanwhile answers
# the question rather than steering.
#
# In the REPL the Permission Gate's `ask` is one such question (`decode/tui/approvals.py`), drawn
# above the prompt (`decode/tui/questions.py`); Esc aborts the turn, and the question goes with it.
#
# ## 6. In the REPL
#
# `decode` now runs its turns on the harness: **Enter** while the agent works steers it, **Alt+Enter**
# queues a follow-up, waiting messages are listed above the prompt, **Esc** (or Ctrl-C) aborts,
# and **Ctrl-C twice** leaves. The README has a scripted session to try it.

# %%
stopped = worker.cancel()  # the REPL stops its worker like this when you leave

# %% [markdown]
# ## Exercises
#
# The checks run your function on a real pydantic-ai run (the scripted model, a slow `shell`
# tool). The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. A steer that cannot get lost
#
# Write `steer(run, text, waiting)`: hand `text` to the running pydantic-ai `run` so that the
# model reads it in its next request, and return the id `run.enqueue()` gives. When the run has
# ended and takes nothing more, append `text` to `waiting` (the next turns' prompts) and return
# None. (Section 1 showed what a closed run says.)

# %%
from exercises import check_close_turn, check_steer


def steer(run, text: str, waiting: list[str]) -> str | None:
    raise NotImplementedError  # your code here


# %%
check_steer(steer)

# %% [markdown]
# ### 2. Abort, and keep the partial turn
#
# Write `close_turn(messages)`: `messages` are the new messages of a turn aborted while the model
# had two `shell` calls out: `date` had answered, `sleep 300` had not. Return the messages made
# valid for the next request: every tool call of the last response answered exactly once (keep
# the real result; a `ToolReturnPart` saying "interrupted" for the other), ending with a
# `UserPromptPart` note in the last `ModelRequest`. `pydantic_ai.messages` has every part you need.

# %%
from pydantic_ai.messages import ModelMessage


def close_turn(messages: list[ModelMessage]) -> list[ModelMessage]:
    raise NotImplementedError  # your code here


# %%
check_close_turn(close_turn)

# %% [markdown]
# ## Recap
#
# **What you built:** the harness between the front end and the Agent Loop: steering a running turn,
# and aborting it.
#
# - A message sent mid-turn is a Steer (read before the next model request) or a Follow-up (read
#   when the turn would end), through pydantic-ai's own queue: the Priority Gate.
# - The Turn Runner runs one turn at a time and reports how each ended: finished, aborted or failed.
# - Abort kills the running command's whole process group, gives every Orphan Tool Call a synthetic
#   result, and keeps the partial turn.
# - The Decision Channel of lesson 06 asks from inside a running turn; Esc takes its question away
#   with the turn.
#
# **The key idea:** a turn is not all or nothing: what happened before an abort is kept, in a shape
# the provider accepts on the next request.
#
# **Glossary:** [Harness](../../docs/glossary.md#harness),
# [Priority Gate](../../docs/glossary.md#priority-gate), [Steer](../../docs/glossary.md#steer),
# [Follow-up](../../docs/glossary.md#follow-up), [Turn Runner](../../docs/glossary.md#turn-runner),
# [Abort](../../docs/glossary.md#abort),
# [Orphan Tool Call](../../docs/glossary.md#orphan-tool-call).
