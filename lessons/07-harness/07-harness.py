# %% [markdown]
# # Lesson 07 — The harness
#
# A turn used to be all or nothing: what you typed while the agent worked waited for the end, and
# Ctrl-C threw the turn away. The **Harness** sits between the front end and the Agent Loop:
#
# 1. the **Priority Gate**: a message sent mid-turn is a **steer** (read before the model's next
#    request) or a **follow-up** (read when the turn would end) — pydantic-ai's own message queue;
# 2. the **Turn Runner**: one turn at a time, and **abort**;
# 3. **abort**: the running command dies with its whole process group, every **orphan tool call**
#    gets a synthetic result, and the partial turn stays in the conversation;
# 4. the **Decision Channel**: approvals (and later the model's questions), one at a time.
#
# Everything runs offline on the scripted model, in a scratch folder.

# %%
import asyncio
import json
import os
import subprocess
import tempfile
from pathlib import Path

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.models.gateway import resolve_model
from decode.tools.catalog import default_tools
from decode.tools.local import LocalExecutor

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson07-")).resolve()
os.chdir(scratch)
settings = Settings(gemini_api_key=None)


def agent_loop(responses: list[dict]) -> AgentLoop:
    """An Agent Loop on a scripted model playing `responses`, with decode's tools (no permission hook)."""
    script = scratch / f"script-{len(list(scratch.glob('script-*')))}.json"
    script.write_text(json.dumps(responses))
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
# ## 1. The Turn Runner
#
# `TurnRunner(agent_loop, on_event)` runs turns one at a time. `agent_loop` is awaited at the start
# of each turn (the REPL's waits for its warm-up); every event goes to `on_event`: the Agent Loop's
# own, plus `turn_started` and `turn_ended`. `send()` hands it a `Message`; `work()` runs the turns.

# %%
from decode.harness.priority import Message, Priority, PriorityGate
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
# ## 2. Steer: the model reads it before its next request
#
# While a turn runs, the loop exposes its pydantic-ai run (`loop.run`), and the gate hands a steer
# to `run.enqueue(text, priority="asap")`. pydantic-ai adds it to the next model request, after the
# tool results, and the loop reports `message_delivered`. Here "the user" types a correction the
# moment the agent starts a command.

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
# ## 3. Follow-up: read when the turn would end
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


# %%
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
for _ in range(100):  # SIGKILL is immediate; give a loaded machine a moment to let them go
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
# `TurnEnded.returned`; the REPL puts it into your input line.

# %% [markdown]
# ## 5. The Decision Channel: one question at a time
#
# Parallel tool calls can ask for approval at the same moment, and lesson 10's `ask_user` tool
# will ask questions too. Every question goes through one `DecisionChannel`: `ask()` waits its
# turn, `current` is the one on screen, `answer(line)` answers it. A `Question` has options (a key
# and a label) and, unless `free_text` is None, takes an answer of your own.

# %%
from decode.harness.decisions import DecisionChannel, Option, Question

shown = asyncio.Event()  # set whenever a question comes on screen
channel = DecisionChannel(on_change=lambda: channel.current is not None and shown.set())


async def on_screen() -> Question:
    await shown.wait()
    shown.clear()
    return channel.current


approve = Question("allow bash(npm install)?", (Option("y", "yes"), Option("a", "always"), Option("n", "no")))
database = Question("Which database?", (Option("1", "postgres"), Option("2", "sqlite")), free_text=None)
first = asyncio.create_task(channel.ask(approve))
second = asyncio.create_task(channel.ask(database))
question = await on_screen()
print("on screen:", question.text, "|", question.hint())
print(channel.answer("no, use pnpm"))
question = await on_screen()
print("on screen:", question.text, "|", question.hint())
print(channel.answer("mysql"), "(not an option: the question stays)")
print(channel.answer("2"))
print(await first, await second)

# %% [markdown]
# In the REPL the Permission Gate's `ask` is one such question (`decode/tui/approvals.py`), drawn
# above the prompt (`decode/tui/questions.py`); Esc aborts the turn and the question goes with it.
#
# ## 6. In the REPL
#
# `decode` now runs its turns on the harness: **Enter** while the agent works steers it, **Alt+Enter**
# queues a follow-up, waiting messages are listed above the prompt, **Esc** (or Ctrl-C) aborts,
# and **Ctrl-C twice** leaves. The README has a scripted session to try it.

# %% [markdown]
# ## Check yourself

# %%
from decode.harness.abort import INTERRUPTED_NOTE, INTERRUPTED_RESULT, close_interrupted_turn, orphan_calls

worker.cancel()
assert running(group) == 0
assert f"result: {INTERRUPTED_RESULT}" in said(loop)
assert f"user:   {INTERRUPTED_NOTE}" in said(loop)
assert orphan_calls(loop.history) == []
assert said(loop)[-1] == "model:  Understood: I will not start it again."
assert close_interrupted_turn(loop.history[:1])[0].parts[-1].content == INTERRUPTED_NOTE
assert PriorityGate().send(Message("hi", Priority.STEER), None).priority is Priority.TURN
assert database.parse("postgres").choice == "1"
assert approve.parse("whatever I like").choice is None
