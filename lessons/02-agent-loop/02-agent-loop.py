# %% [markdown]
# # Lesson 02 — The agent loop
#
# An agent is a model in a loop: it reads the task, answers or asks for a tool, sees the tool's
# result, and goes again until it answers without asking for anything. This lesson builds that loop:
#
# 1. **The model gateway** (`decode/models/`): one string such as `google-gla:gemini-flash-latest`
#    or `script:turns.json` in, a ready pydantic-ai model out, or a one-line error before any request.
# 2. **The loop by hand**: a dozen lines over a list of messages, to see there is no magic.
# 3. **What the model sees**: the exact instructions, tool schemas and messages of each request.
# 4. **The agent and the Agent Loop** (`decode/agent/`): `build_agent()` with tools declared as
#    `ToolSpec`s, and `AgentLoop`, which turns a pydantic-ai run into the typed events of lesson 01,
#    keeping the history and the usage.
# 5. **The composition root** (`decode/agent/compose.py`) and **`decode run "TASK"`**
#    (`decode/runtime/`): the loop wired once, and run as a headless command through the **Turn
#    Runner** (`decode/harness/runner.py`), the one turn driver every front end uses.
#
# No key and no network: you will play the model yourself, with a **scripted model**. (One cell
# near the end asks a real model, if you give it a key.)

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 02's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `split_model_string` in `decode/models/gateway.py`
# - `AgentLoop._walk` in `decode/agent/loop.py`
# - `AgentLoop._finish` in `decode/agent/loop.py`
#
# `make lesson-start N=02` writes your copy into `build/02/`, and `make lesson-check N=02`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# decode works on the folder it is started in. For this lesson that is a scratch project folder
# with one file in it.

# %%
import os
import tempfile
from pathlib import Path

from course import show

project_dir = tempfile.TemporaryDirectory(prefix="decode-lesson02-")  # removed when the kernel stops
project = Path(project_dir.name).resolve()
os.chdir(project)
Path("notes.txt").write_text("The agent reads, acts and checks.\n")
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. A model is a string
#
# `provider:name`, from `--model`, `DECODE_MODEL` or the default. The gateway splits it and knows
# each provider. A bare name such as `sonnet` is an alias, looked up in one table of the settings
# (`decode models` lists them, with the keys you have set).

# %%
from decode.config.settings import MODEL_ALIASES
from decode.models.errors import MissingKeyError, ModelConfigError
from decode.models.gateway import PROVIDERS, split_model_string

print(PROVIDERS)
print(split_model_string("openrouter:qwen/qwen3-coder"))
print(split_model_string("test"))
print(MODEL_ALIASES["sonnet"])

try:
    split_model_string("gpt-9")
except ModelConfigError as exc:
    print(exc)

# %% [markdown]
# `resolve_model()` turns the string into a pydantic-ai `Model`. The two offline models come first;
# each provider's SDK is imported only when that provider is used, because each is slow to import.

# %%
show("decode.models.gateway", "resolve_model")

# %%
show("decode.models.gateway", "_network_model")

# %% [markdown]
# A provider that needs a key fails *before* any request, with a one-line message naming the
# variable and the `.env` file. We build settings with no Gemini key, whatever your shell holds.
# (`<project>` stands for the scratch folder, whose path differs on every run.)

# %%
from decode.config.settings import Settings
from decode.models.gateway import resolve_model

settings = Settings(gemini_api_key=None)
try:
    resolve_model("google-gla:gemini-flash-latest", settings)
except MissingKeyError as exc:
    print(exc.variable)
    print(str(exc).replace(str(project), "<project>"))

# %% [markdown]
# ## 2. Be the model
#
# The `script:PATH` model plays a JSON list of responses in order. Each response has `text`,
# `tool_calls`, or both. Here we answer in two steps: first ask for a tool, then, having "seen" its
# result, answer.

# %%
import json

turns = [
    {"text": "Let me count.", "tool_calls": [{"name": "word_count", "args": {"path": "notes.txt"}}]},
    {"text": "notes.txt has 6 words."},
]
Path("turns.json").write_text(json.dumps(turns, indent=2))

model = resolve_model("script:turns.json", settings)
print(type(model).__name__, model.model_name)

# %% [markdown]
# ## 3. The loop by hand
#
# A conversation with a model is a **list of messages**, and pydantic-ai spells them the way every
# provider's API does: a `ModelRequest` (what we send: the user's prompt, tool results) and a
# `ModelResponse` (what comes back: text, tool calls), alternating. One call of `model.request()`
# is one HTTP request to a real provider; it gets the whole list every time, because the model
# remembers nothing between requests.
#
# The model also needs to know which tools exist: a name, a description and a JSON schema of the
# arguments each. pydantic-ai's `Tool` reads them off a function's signature and docstring:

# %%
from pydantic_ai import Tool


def word_count(path: str) -> str:
    """Count the words in a file."""
    return str(len(Path(path).read_text().split()))


print(json.dumps(Tool(word_count, takes_ctx=False).tool_def.parameters_json_schema))

# %% [markdown]
# ### An aside: asyncio, as much as this course needs
#
# A model request is a network call that takes seconds; while it waits, an agent has other work
# (stream text to the screen, notice the user pressing Esc, run a tool's subprocess). Python's
# `asyncio` lets one thread do all of it: functions that can pause where they wait, and an
# **event loop** that runs another one meanwhile. Four pieces, used in every lesson from here on:
#
# - `async def f()` makes a **coroutine function**: calling `f()` runs nothing yet, it returns a
#   coroutine object.
# - `await x` runs a coroutine (or waits for a task, a future) to its end and gives its result;
#   while it waits, the event loop runs others. `await` is only allowed inside an `async def`,
#   and in a notebook cell.
# - An `async def` with `yield` in it is an **async generator**: it hands out values one at a time,
#   pausing between them, and is read with `async for` (the Agent Loop yields its events this way).
# - Something has to run the event loop. A script calls `asyncio.run(main())` once, at the top (so
#   does `decode run`: `decode/runtime/run.py`). A notebook's kernel already runs a loop, so a cell
#   may `await` at the top level, and `asyncio.run()` there is an error.

# %%
import asyncio


async def fetch(name: str, seconds: float) -> str:
    """Pretend to fetch something: wait `seconds` (the loop runs others meanwhile), then answer."""
    await asyncio.sleep(seconds)
    return f"{name} fetched"


async def countdown(start: int):  # an async generator
    for number in range(start, 0, -1):
        await asyncio.sleep(0)  # a pause: the loop may run something else here
        yield number


pending = fetch("a", 0)
print(type(pending).__name__)  # a coroutine: nothing has run yet
print(await pending)  # top-level await: the kernel's loop runs it
print(await asyncio.gather(fetch("slow", 0.02), fetch("quick", 0.01)))  # both at once; results in call order
print([number async for number in countdown(3)])
again = fetch("b", 0)
try:
    asyncio.run(again)  # what a script does; inside a running loop it refuses
except RuntimeError as error:
    again.close()  # never run: closed, so Python does not warn that it was never awaited
    print("RuntimeError:", error)

# %% [markdown]
# Now the loop. **ReAct**: *reason* (the model answers), *act* (run each tool it asked for),
# *observe* (append the results as the next request), and go again — until a response asks for
# no tool. That response's text is the answer.

# %%
from collections.abc import Callable

from pydantic_ai.messages import ModelMessage, ModelRequest, ToolCallPart, ToolReturnPart, UserPromptPart
from pydantic_ai.models import Model, ModelRequestParameters


async def react(model: Model, prompt: str, tools: dict[str, Callable[..., str]]) -> list[ModelMessage]:
    """Run the loop until the model answers without a tool call; the whole conversation."""
    parameters = ModelRequestParameters(
        function_tools=[Tool(function, name=name, takes_ctx=False).tool_def for name, function in tools.items()]
    )
    messages: list[ModelMessage] = [ModelRequest(parts=[UserPromptPart(prompt)], instructions="You count words.")]
    while True:
        response = await model.request(messages, None, parameters)  # reason
        messages.append(response)
        calls = [part for part in response.parts if isinstance(part, ToolCallPart)]
        if not calls:
            return messages  # an answer without a tool call: done
        results = [  # act
            ToolReturnPart(call.tool_name, tools[call.tool_name](**call.args_as_dict()), tool_call_id=call.tool_call_id)
            for call in calls
        ]
        messages.append(ModelRequest(parts=results))  # observe


# %% [markdown]
# Each `ToolReturnPart` carries the `tool_call_id` of the call it answers, so a model that asked for
# three tools at once knows which result is which. `react` is a coroutine function, so the cell
# `await`s it (the aside above). A small printer shows the conversation part by part:


# %%
def describe(messages: list[ModelMessage]) -> None:
    """Print a conversation one part per line (leaving out timestamps, which change every run)."""
    for message in messages:
        print(type(message).__name__)
        for part in message.parts:
            if isinstance(part, ToolCallPart):
                print(f"  {part.part_kind}: {part.tool_name}({part.args_as_json_str()}) [{part.tool_call_id}]")
            elif hasattr(part, "tool_call_id"):  # a tool's result, or a retry prompt
                print(f"  {part.part_kind}: {part.tool_name} -> {part.content!r} [{part.tool_call_id}]")
            else:
                print(f"  {part.part_kind}: {part.content!r}")


conversation = await react(model, "How many words are in notes.txt?", {"word_count": word_count})
describe(conversation)

# %% [markdown]
# That is the whole idea. What it lacks is everything around it: nothing streams (you wait for each
# whole response), nobody outside can see a tool start or finish, nothing stops a model that never
# stops calling tools, tokens are not counted, a wrong tool name or bad arguments crash it, and the
# conversation is gone when the function returns. The package's loop adds each of those. (The first
# exercise adds the missing stop.)

# %% [markdown]
# ## 4. What the model sees
#
# Now the same turn through decode's agent. A decode tool is a function whose first argument is
# the run context: its `deps` (an `AgentDeps`) say where to work. Beside the function sits its
# declaration, a `ToolSpec`: the name the model calls it by and its **traits** (`ToolTraits`) — what
# kind of tool it is, which rules govern it, which argument holds a path. Lesson 06's permissions
# decide by those traits alone.

# %%
show("decode.entities.tools", "ToolSpec")

# %% [markdown]
# A tool's **kind** is one of four, from "only reads" to "runs anything"; the traits add the names
# of the rules that govern it (lesson 06 writes rules such as `Read(src/**)`) and which argument
# holds the path, URL or command a rule judges. Declaring a path demands naming the rules.

# %%
show("decode.entities.tools", "ToolKind")

# %%
show("decode.entities.tools", "ToolTraits.__post_init__")

# %%
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits


def count_words(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the words in a file of the workspace."""
    return len((ctx.deps.workspace / path).read_text().split())


WORD_COUNT = ToolSpec("word_count", count_words, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))
print(WORD_COUNT.traits.kind, WORD_COUNT.traits.argument({"path": "notes.txt"}))  # what a rule would judge

# %% [markdown]
# `build_agent()` makes the pydantic-ai `Agent`: the model, decode's instructions, the deps type and
# the tools. The agent holds no conversation, so one agent can serve many turns.
#
# The instructions are **fixed** for the session: decode's own, then `environment_instructions`
# (where the agent works, on which system). A provider caches the start of a request it has seen
# before — the instructions, the tool definitions, then the history — and charges far less for
# it, but only if it is byte for byte the same. So what *changes* during a session (today's date in
# this lesson; later the git status, memory, skills, the to-do list) does not go into the
# instructions: `turn_facts()` lists those **Turn Facts**, read again for every request.
#
# `environment_instructions` is a function of the run context, which pydantic-ai calls before each
# request after reading its signature; `@dynamic_instruction` reads that signature once, for a turn
# of many requests.

# %%
show("decode.agent.factory", "environment_instructions")

# %%
show("decode.agent.factory", "turn_facts")

# %% [markdown]
# `TurnFacts` is a pydantic-ai capability (a hook into every run): just before each model request
# it reads the facts and adds them, as one user part, to a *copy* of the newest request. Only the
# model sees the copy; the history the loop keeps never holds them, so every earlier request stays
# exactly as it was sent and the next request begins with it.
#
# Most providers find that repeated start by themselves (OpenAI, Gemini, DeepSeek). Anthropic's
# models cache only up to the *breakpoints* a request marks, at most four: for them the gateway's
# `CachingOpenRouter` (`decode/models/breakpoints.py`) marks the tool definitions, the system message
# and the end of the history just before the facts (and where the previous request's ended), so
# the next request reads everything but the facts from the cache. Other models get nothing new.

# %%
show("decode.agent.facts", "TurnFacts")

# %%
show("decode.agent.facts", "with_facts")

# %% [markdown]
# `ALWAYS_TOOLS` are the tools every agent gets whatever it is given (empty in this lesson; lesson
# 09 adds the skill tool).

# %%
show("decode.agent.factory", "ALWAYS_TOOLS")

# %% [markdown]
# `capabilities` are pydantic-ai's hooks into every run; in this lesson only the Turn Facts use one.
# Lesson 06 plugs the permission gate in there, to judge each tool call before it runs.
# pydantic-ai calls every hook of every capability, before and after each request and tool call;
# `capability_set()` joins decode's plain ones into one, whose hooks reach only the capabilities
# that define them, so a long turn does not pay for hooks that do nothing.

# %%
show("decode.agent.factory", "build_agent")

# %% [markdown]
# To see exactly what a model receives, we *be* the model with pydantic-ai's `FunctionModel`
# (the scripted model is one too): a function that gets the messages and an `AgentInfo` — the
# instructions and the tool definitions — and streams back text or tool calls. Ours records what it
# was given, then plays the same two responses as `turns.json`.

# %%
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

seen: list[tuple[list[ModelMessage], AgentInfo]] = []


async def spy(messages: list[ModelMessage], info: AgentInfo):
    seen.append((list(messages), info))
    if len(seen) == 1:
        yield "Let me count."
        yield {0: DeltaToolCall(name="word_count", json_args='{"path": "notes.txt"}', tool_call_id="call_1")}
    else:
        yield "notes.txt has 6 words."


# %% [markdown]
# `AgentDeps` is what every tool call receives. In this lesson it is the settings and the Harness
# Home — the launch directory, where decode keeps its own files; the agent works there too
# (`deps.workspace`). Lesson 04 adds the executor, the one door to the Workspace's files.

# %%
from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop

deps = AgentDeps(settings=settings, harness_home=project)
spied = AgentLoop(build_agent(FunctionModel(stream_function=spy), tools=[WORD_COUNT]), deps)
events = [event async for event in spied.run_turn("How many words are in notes.txt?")]
print(len(seen), "requests;", events[-1].output)

# %% [markdown]
# The **instructions**: decode's fixed ones, then the environment's. (The scratch folder, the
# platform and the date differ from run to run, so they are masked here.) They are the same for
# every request of the session.

# %%
import re


def masked(text: str) -> str:
    text = text.replace(str(project), "<project>")
    text = re.sub(r"Platform: .*", "Platform: <platform>", text)
    return re.sub(r"\d{4}-\d{2}-\d{2}", "<today>", text)


first_messages, first_info = seen[0]
print(masked(first_info.instructions))
print(first_info.instructions == seen[1][1].instructions)

# %% [markdown]
# The **tools**, exactly as the model gets them: the name, the description (the function's
# docstring) and the JSON schema of the arguments (its annotated parameters; `ctx` is not one: the
# model never sees the deps). A provider's SDK turns this into its own wire format.

# %%
for definition in first_info.function_tools:
    print(
        json.dumps(
            {key: getattr(definition, key) for key in ("name", "description", "parameters_json_schema")}, indent=2
        )
    )

# %% [markdown]
# The **messages** of the first request: the prompt, then the Turn Facts. Of the second: the prompt
# again (without the facts: the history never held them), the model's own first response (its text
# and its tool call), and the tool's result with the facts as they are now — the whole conversation,
# every time. The **response** that ended the turn is the last message of the history.

# %%
import contextlib
import io


def describe_masked(messages: list[ModelMessage]) -> None:
    """`describe`, with the scratch folder and the date masked (the facts carry both)."""
    out = io.StringIO()
    with contextlib.redirect_stdout(out):
        describe(messages)
    print(masked(out.getvalue()), end="")


describe_masked(first_messages)
print("---")
describe_masked(seen[1][0])
print("--- response")
describe(spied.history[-1:])

# %% [markdown]
# ## 5. The Agent Loop, event by event
#
# `AgentLoop.run_turn()` walks pydantic-ai's `agent.iter()` — the same reason/act/observe cycle as
# our `react()`, as a graph of nodes: a *model request* node, then a *call tools* node, again and
# again. What it adds: the **request ceiling** (`UsageLimits`), the conversation kept in
# `self.history` (only when the turn completes, so a failed turn leaves it valid), and the events.

# %%
show("decode.agent.loop", "AgentLoop.run_turn")

# %% [markdown]
# `_finish()` closes the turn: `keep_turn()` first, which in this lesson only replaces the history
# with the run's messages (lesson 11 also saves the turn to the session log, and adds a warning
# when the disk refuses), then the `TurnFinished` event. `valid_text()` replaces a lone surrogate
# a provider's JSON may carry, which no terminal or file could encode.

# %%
show("decode.agent.loop", "AgentLoop._finish")

# %% [markdown]
# `_walk()` streams each node: a model request's text arrives as `TextDelta`s, then a
# `UsageUpdated` with that request's tokens and the running total; a tool node reports each call
# starting and finishing. pydantic-ai validates the arguments against the schema and runs the
# tools; a bad call goes back to the model as a retry prompt instead of crashing the turn. Three
# small helpers translate pydantic-ai's events into decode's: `_model_delta()` keeps the text (and
# thinking) pieces of a streaming response and drops the rest, `_tool_call()` makes a `ToolCall`
# from a call event, and `_tool_result()` a `ToolResult` from a result event.

# %%
show("decode.agent.loop", "AgentLoop._walk")

# %% [markdown]
# A front end only has to render those events. Here is a tiny renderer, and one turn with the
# scripted model:

# %%
from decode.entities.events import AgentEvent, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated


def render(event: AgentEvent) -> None:
    """Render one event as one line."""
    match event:
        case TextDelta():
            print(f"text        {event.text!r}")
        case ToolCallStarted():
            print(f"tool call   {event.call.summary()}")
        case ToolCallFinished():
            print(f"tool result {event.result.name} -> {event.result.content!r}")
        case UsageUpdated():
            print(f"usage       {event.total.requests} request(s) so far")
        case TurnFinished():
            print(f"finished    {event.output!r}")
        case _:
            print(event.kind)


model = resolve_model("script:turns.json", settings)  # a fresh copy: react() played the first one
loop = AgentLoop(build_agent(model, tools=[WORD_COUNT]), deps)
async for event in loop.run_turn("How many words are in notes.txt?"):
    render(event)

# %% [markdown]
# The text streamed in pieces, the tool ran between the two model requests, and the turn ended with
# the final answer. The loop kept the conversation — the prompt, the tool call, its result and the
# answer — for the next turn:

# %%
print([type(message).__name__ for message in loop.history])

# %% [markdown]
# ## 6. Usage and cost
#
# After each model request the loop adds that request's tokens to the running total. The scripted
# model only estimates tokens (the numbers depend on the instructions, so they are not checked here),
# and it has no price: `cost_usd` stays `None`.

# %%
# NBVAL_IGNORE_OUTPUT
print(loop.usage)

# %% [markdown]
# For a model with a public price, `response_usage` prices a response with `genai-prices`. Here is a
# hand-made response of a Gemini model (prices change, so this output is not checked):

# %%
# NBVAL_IGNORE_OUTPUT
from pydantic_ai.messages import ModelResponse, TextPart
from pydantic_ai.usage import RequestUsage

from decode.models.cost import response_usage

priced = response_usage(
    ModelResponse(
        parts=[TextPart("hi")],
        usage=RequestUsage(input_tokens=10_000, output_tokens=1_000),
        model_name="gemini-2.5-flash",
        provider_name="google-gla",
    )
)
print(priced)

# %% [markdown]
# ## 7. When things go wrong
#
# The script holds two responses and both are used. Another turn asks for a third: the run fails
# with an error naming the file, and the history keeps only the turns that completed.

# %%
from decode.models.script import ScriptExhaustedError

try:
    async for _event in loop.run_turn("And now?"):
        pass
except ScriptExhaustedError as exc:
    print(exc)
print(len(loop.history))

# %% [markdown]
# A model that never stops calling tools hits the **request ceiling** (`max_requests`), which
# `decode run` exposes as `--max-requests`:

# %%
from pydantic_ai.exceptions import UsageLimitExceeded

Path("forever.json").write_text(json.dumps(turns[:1] * 10))
looping = AgentLoop(
    build_agent(resolve_model("script:forever.json", settings), tools=[WORD_COUNT]), deps, max_requests=3
)
try:
    async for _event in looping.run_turn("Count forever."):
        pass
except UsageLimitExceeded:
    print("stopped after", looping.usage.requests, "requests")

# %% [markdown]
# ## 8. The composition root
#
# Every front end needs the same wiring: settings, model, deps, agent, loop — and, in later
# lessons, the executor, the permission gate and the saved session. `build_loop(options, settings)`
# does it in one place; `decode run` and the REPL only say what they want, in a `LoopOptions`.
# `on_retry` is the front end's callback for `RetryingModel` (`decode/models/retry.py`): the
# gateway wraps each provider's model so a 429 or a 5xx is tried again, and the callback is told of
# each retry so `decode run` can print a "retry 1 in 2.0s" line on stderr instead of going quiet.
#
# `LoopOptions` lives in a module of its own that imports nothing heavy: the REPL (lesson 03) holds
# one while it draws its prompt, before pydantic-ai is loaded and before the settings are read.

# %%
show("decode.agent.options", "LoopOptions")

# %% [markdown]
# `build_loop()` returns a `Conversation`: the loop, the options it was built from and the
# settings, which is what `switch_model()` (the REPL's `/model`, lesson 03) needs to resolve
# another model with the same settings and callbacks.

# %%
show("decode.agent.options", "Conversation")

# %% [markdown]
# The wiring itself is a list of **steps**, each a small function over one `Build`: the workbench
# where each step reads what the steps before it made and adds its own part. A field no step has
# set yet is simply not there, so a step that runs too early fails at once.

# %%
show("decode.agent.build", "Build")

# %% [markdown]
# This lesson's five steps: the tools, the model, the deps, the agent, the loop. Each later lesson
# that adds to the agent adds a step to `STEPS` (in a module of its own under `decode/agent/steps/`)
# instead of growing one long function.

# %%
show("decode.agent.steps.core")

# %%
show("decode.agent.compose", "STEPS")

# %% [markdown]
# `build_loop()` runs them in order over a fresh `Build` and hands back what they made:

# %%
show("decode.agent.compose", "run_steps")

# %%
show("decode.agent.compose", "build_loop")

# %%
from decode.agent.compose import LoopOptions, build_loop

Path("again.json").write_text(json.dumps(turns))
built = build_loop(LoopOptions(home=project, model="script:again.json", tools=[WORD_COUNT]), settings)
again = [event async for event in built.loop.run_turn("How many words are in notes.txt?")]
print(again[-1].output)
print(built.loop.deps.workspace == project)

# %% [markdown]
# `LoopOptions.tools` None means decode's own tools, and in this lesson decode has none yet:
# `decode run` passes none, so the agent can only talk. Lesson 04 gives it file tools.

# %%
print(build_loop(LoopOptions(home=project, model="script:again.json"), settings).options.tools)

# %% [markdown]
# ## 9. `decode run`
#
# The same loop as a command: the final answer alone on stdout, progress and errors on stderr, and
# an exit code a script can test. `decode/runtime/run.py` is the command (its options, the task);
# `HeadlessRun` in `headless.py` is the run: it builds its loop with `build_loop`, and drives the
# task as one turn through the **Turn Runner** (`decode/harness/runner.py`), the driver the REPL of
# lesson 03 uses too. The runner hands each event to `TurnView` (`view.py`: stderr lines, the
# answer on stdout) and ends with a `TurnEnded`: `finished`, `aborted` (Ctrl-C) or `failed` with
# one line from `decode/agent/failures.py`, the line every front end shows for that failure.

# %%
show("decode.runtime.headless", "HeadlessRun.drive")

# %% [markdown]
# We run the real command in the project folder, with an environment that holds no key.

# %%
import subprocess
import sys

no_keys = {
    name: value for name, value in os.environ.items() if not (name.startswith("DECODE_") or name.endswith("_API_KEY"))
}


def decode(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `decode ARGS…` (as `python -m decode`) in the project folder and capture what it prints."""
    return subprocess.run(
        [sys.executable, "-m", "decode", *args], capture_output=True, text=True, env=no_keys, cwd=project
    )


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one-line error `decode` printed on stderr (with the scratch folder's path shortened)."""
    line = next(line for line in result.stderr.splitlines() if line.startswith("decode: error:"))
    return line.replace(str(project), "<project>")


# %% [markdown]
# stdout holds the answer and nothing else, so `decode run "…" > answer.md` captures just that.

# %%
Path("hello.json").write_text(json.dumps([{"text": "Hello from the script."}]))

ok = decode("run", "--model", "script:hello.json", "Say hello.")
print("exit", ok.returncode)
print("stdout:", repr(ok.stdout))

# %% [markdown]
# With no tools, a model that asks for one is told there is none: pydantic-ai answers the call with
# a retry prompt instead of a result, and the model goes on. stderr shows the refused call (its
# duration masked: it changes from run to run):

# %%
asks_for_a_tool = [
    {"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]},
    {"text": "I have no tool to read files with yet."},
]
Path("asks.json").write_text(json.dumps(asks_for_a_tool))
asks = decode("run", "--model", "script:asks.json", "What does notes.txt say?")
print("exit", asks.returncode, "| stdout:", repr(asks.stdout))
print(re.sub(r"\(\d+\.\ds\)", "(…s)", asks.stderr))

# %% [markdown]
# Exit code 3 means the request ceiling, 2 a usage or configuration error (here: no key for the
# default Gemini model), 1 a failed run. Nothing was sent anywhere.

# %%
ceiling = decode("run", "--model", "script:forever.json", "--max-requests", "1", "Count forever.")
print("exit", ceiling.returncode, "|", error_line(ceiling))

no_key = decode("run", "Say hello.")
print("exit", no_key.returncode, "|", error_line(no_key))

# %% [markdown]
# ## 10. A real model
#
# Everything above ran on a script. The next cell asks a real model the same question through the
# same loop, and prints what came back — if you give it a key. Set `GEMINI_API_KEY` (a free key
# from Google AI Studio) in the shell you start Jupyter from, or choose another model with
# `DECODE_MODEL` and its key (`OPENROUTER_API_KEY`…). Without one, the cell only says so. It is
# skipped when the notebook runs as a test.

# %%
# NBVAL_SKIP
real_settings = Settings()
try:
    real_model = resolve_model(real_settings.model, real_settings)
except MissingKeyError as exc:
    print(f"no key: set {exc.variable} to run this cell")
else:
    real = AgentLoop(
        build_agent(real_model, tools=[WORD_COUNT]), AgentDeps(settings=real_settings, harness_home=project)
    )
    async for event in real.run_turn("How many words are in notes.txt?"):
        if not isinstance(event, TextDelta):
            render(event)
    describe(real.history)
    print(real.usage)

# %% [markdown]
# ## Exercises
#
# Write the code, run the check under it; ✓ means it works. The reference solutions are in
# `solutions.py` next to this notebook — try first.
#
# ### Exercise 1: a stop for the hand-made loop
#
# `react()` above loops for as long as the model calls tools. Write `react_with_ceiling()`: the same
# loop, with a ceiling of `max_requests` model requests per turn. A turn that would need one more
# request raises pydantic-ai's `UsageLimitExceeded` (as the package's loop does) *without* making
# it: `raise UsageLimitExceeded("…")` with any message (it is imported in section 7). The check
# plays scripts that answer at once, after one tool call, and never, and looks at what each request
# sent the model: the whole conversation, every time.

# %%
from exercises import check_line_count_tool, check_react_with_ceiling


async def react_with_ceiling(
    model: Model, prompt: str, tools: dict[str, Callable[..., str]], max_requests: int
) -> list[ModelMessage]:
    """Like `react()`, but raise `UsageLimitExceeded` rather than make request `max_requests + 1`."""
    raise NotImplementedError  # your code here


# %%
check_react_with_ceiling(react_with_ceiling)

# %% [markdown]
# ### Exercise 2: a tool, declared
#
# Write a decode tool `count_lines(ctx, path)` that returns how many lines a file of the workspace
# has, and declare it as `line_count_tool`, a `ToolSpec` the model calls `count_lines`. It only
# reads, so its traits say so: kind `READ_ONLY`, governed by the `Read` rules, its path in the
# argument `path` (and no other rules). The check runs it through decode's loop on a scripted model,
# on two files: one ends with a newline, the other does not.


# %%
def count_lines(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the lines of a file of the workspace."""
    raise NotImplementedError  # your code here


line_count_tool = ToolSpec("count_lines", count_lines, ToolTraits(ToolKind.OTHER))  # and fix its traits

# %%
check_line_count_tool(line_count_tool)

# %% [markdown]
# ## Recap
#
# **What you built:** the agent: a model named by a string, a loop that runs tools until the model
# answers, and `decode run`.
#
# - A Model String (`script:turns.json`, `google-gla:…`) becomes a ready model through the Model
#   Gateway, or a one-line error before any request.
# - The loop by hand is a dozen lines: request, run each tool asked for, send the results back,
#   until a response asks for no tool (ReAct).
# - The Agent Loop does the same over pydantic-ai's `agent.iter()` and turns it into typed events;
#   it keeps the history and the usage, retries a bad tool call with a message the model reads, and
#   stops at the request ceiling.
# - The Composition Root builds the loop for every front end from Build Steps; `decode run "TASK"`
#   drives one turn through the Turn Runner, the answer alone on stdout.
# - asyncio: `async def`, `await`, async generators (`async for`), and `asyncio.run` in a script
#   against top-level `await` in a notebook.
#
# **The key idea:** an agent is a model in a loop; everything else (streaming, limits, usage,
# retries, front ends) is built around that loop, never inside the model.
#
# **Glossary:** [Model String](../../docs/glossary.md#model-string),
# [Model Gateway](../../docs/glossary.md#model-gateway),
# [Scripted Model](../../docs/glossary.md#scripted-model), [Agent](../../docs/glossary.md#agent),
# [Agent Deps](../../docs/glossary.md#agent-deps), [Agent Loop](../../docs/glossary.md#agent-loop),
# [Turn](../../docs/glossary.md#turn), [Tool Declaration](../../docs/glossary.md#tool-declaration),
# [Turn Facts](../../docs/glossary.md#turn-facts),
# [Composition Root](../../docs/glossary.md#composition-root),
# [Build Step](../../docs/glossary.md#build-step),
# [Request Ceiling](../../docs/glossary.md#request-ceiling),
# [Headless Run](../../docs/glossary.md#headless-run).
