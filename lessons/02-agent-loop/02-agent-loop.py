# %% [markdown]
# # Lesson 02 — The agent loop
#
# An agent is a model in a loop: it reads the task, answers or asks for a tool, sees the tool's
# result, and goes again until it answers without asking for anything. This lesson builds that loop:
#
# 1. **The model gateway** (`decode/models/`): one string such as `google-gla:gemini-flash-latest`
#    or `script:turns.json` in, a ready pydantic-ai model out, or a one-line error before any request.
# 2. **The agent** (`decode/agent/`): `build_agent()` with tools declared as `ToolSpec`s, and the
#    **Agent Loop**, which turns a pydantic-ai run into the typed events of lesson 01, keeping the
#    history and the usage (tokens, and dollars where a price is known).
# 3. **The composition root** (`decode/agent/compose.py`): `build_loop()`, the one place that wires
#    a loop together for every front end.
# 4. **`decode run "TASK"`** (`decode/runtime/run.py`): the loop as a headless command.
#
# No key and no network: you will play the model yourself, with a **scripted model**.

# %% [markdown]
# decode works on the folder it is started in. For this lesson that is a scratch project folder
# with one file in it.

# %%
import os
import tempfile
from pathlib import Path

project_dir = tempfile.TemporaryDirectory(prefix="decode-lesson02-")  # removed when the kernel stops
project = Path(project_dir.name).resolve()
os.chdir(project)
Path("notes.txt").write_text("The agent reads, acts and checks.\n")
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. A model is a string
#
# `provider:name`, from `--model`, `DECODE_MODEL` or the default. The gateway splits it and knows
# each provider.

# %%
from decode.models.errors import MissingKeyError, ModelConfigError
from decode.models.gateway import PROVIDERS, split_model_string

print(PROVIDERS)
print(split_model_string("openrouter:qwen/qwen3-coder"))
print(split_model_string("test"))

try:
    split_model_string("gpt-5")
except ModelConfigError as exc:
    print(exc)

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
    missing = exc
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
# ## 3. An agent with one tool
#
# A tool is a plain function. Its first argument is the run context, whose `deps` (an `AgentDeps`)
# say which folder to work in; its docstring and annotated parameters become what the model reads.
# Beside the function sits its declaration, a `ToolSpec`: the name the model calls it by and its
# **traits** (`ToolTraits`) — what kind of tool it is, which rules govern it, which argument holds
# a path. Lesson 06's permissions decide by those traits alone.

# %%
from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits


def word_count(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the words in a file of the workspace."""
    return len((ctx.deps.workspace / path).read_text().split())


WORD_COUNT = ToolSpec("word_count", word_count, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))

definition = WORD_COUNT.to_tool().tool_def  # what the model is shown
print(definition.name, "-", definition.description)
print(definition.parameters_json_schema)
print(WORD_COUNT.traits.kind, WORD_COUNT.traits.argument({"path": "notes.txt"}))  # what a rule would judge

# %% [markdown]
# `build_agent()` makes the pydantic-ai `Agent`: the model, decode's instructions, the deps type and
# the tools. Its `capabilities=` are hooks into every run; there are none here (lesson 06 passes
# the Permission Hook). The agent holds no conversation, so one agent can serve many turns.

# %%
from decode.agent.factory import build_agent

agent = build_agent(model, tools=[WORD_COUNT], capabilities=())
print(type(agent).__name__, agent.deps_type.__name__)

# %% [markdown]
# Each tool call gets the same `AgentDeps(executor, settings, harness_home)`. The **executor** is
# the one door to the Workspace's files and commands (`deps.workspace` is its root); the Harness
# Home is where decode keeps its own files (`.decode/`). The executor seam arrives in lesson 05, and
# `word_count` reads with plain `Path` anyway, so here a stand-in that knows only the Workspace root
# does the job.


# %%
class WorkspaceOnly:
    """Stands in for lesson 05's executor: the Workspace root, and nothing to run."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace


deps = AgentDeps(WorkspaceOnly(project), settings, harness_home=project)
print(deps.workspace == project, deps.harness_home == project)

# %% [markdown]
# ## 4. The loop, event by event
#
# `AgentLoop.run_turn()` walks pydantic-ai's `agent.iter()`: a *model request* node (streamed),
# then a *call tools* node, again and again until the model answers without a tool call. It yields
# lesson 01's events as they happen. A front end only has to render them; here is a tiny one.

# %%
from decode.entities.events import AgentEvent, TextDelta, ToolCallFinished, ToolCallStarted, TurnFinished, UsageUpdated


def show(event: AgentEvent) -> None:
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


# %% [markdown]
# Now one turn. Notebooks run inside an event loop, so we `await` (here `async for`) directly.

# %%
from decode.agent.loop import AgentLoop

loop = AgentLoop(agent, deps)

events = []
async for event in loop.run_turn("How many words are in notes.txt?"):
    events.append(event)
    show(event)

# %% [markdown]
# The text streamed in pieces, the tool ran between the two model requests, and the turn ended with
# the final answer. The loop kept the conversation — the prompt, the tool call, its result and the
# answer — for the next turn:

# %%
print([type(message).__name__ for message in loop.history])

# %% [markdown]
# ## 5. Usage and cost
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
# ## 6. When things go wrong
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
    build_agent(resolve_model("script:forever.json", settings), tools=[WORD_COUNT]),
    deps,
    max_requests=3,
)
try:
    async for _event in looping.run_turn("Count forever."):
        pass
except UsageLimitExceeded:
    print("stopped after", looping.usage.requests, "requests")

# %% [markdown]
# ## 7. The composition root
#
# Every front end needs the same wiring: settings, model, executor, deps, agent, loop — and, in
# later lessons, the permission gate and the saved session. `build_loop(LoopOptions(...))` does it
# in one place; `decode run` and the REPL only say what they want (here: this folder, the script,
# our one tool). It brings the real executor of lesson 05, so we do not need a stand-in.

# %%
from decode.agent.compose import LoopOptions, build_loop

Path("again.json").write_text(json.dumps(turns))
conversation = build_loop(LoopOptions(home=project, settings=settings, model="script:again.json", tools=[WORD_COUNT]))
again = [event async for event in conversation.loop.run_turn("How many words are in notes.txt?")]
print(again[-1].output)
print(type(conversation.loop.deps.executor).__name__, conversation.loop.deps.workspace == project)

# %% [markdown]
# ## 8. `decode run`
#
# The same loop as a command: the final answer alone on stdout, progress and errors on stderr, and
# an exit code a script can test. It builds its loop with `build_loop`. We run the real command in
# the project folder, with an environment that holds no key. (Its tools are the defaults of
# `LoopOptions`, the catalog of lessons 04 and 05.)

# %%
import subprocess
import sys

decode_command = Path(sys.executable).with_name("decode")
no_keys = {
    name: value for name, value in os.environ.items() if not (name.startswith("DECODE_") or name.endswith("_API_KEY"))
}


def decode(*args: str) -> subprocess.CompletedProcess[str]:
    """Run `decode ARGS…` in the project folder and capture what it prints."""
    return subprocess.run([decode_command, *args], capture_output=True, text=True, env=no_keys, cwd=project)


def error_line(result: subprocess.CompletedProcess[str]) -> str:
    """The one-line error `decode` printed on stderr (with the scratch folder's path shortened)."""
    line = next(line for line in result.stderr.splitlines() if line.startswith("decode: error:"))
    return line.replace(str(project), "<project>")


# %% [markdown]
# stdout holds the answer and nothing else, so `decode run "…" > answer.md` captures just that.
# (stderr carries progress lines and notices, which later lessons add to.)

# %%
Path("hello.json").write_text(json.dumps([{"text": "Hello from the script."}]))

ok = decode("run", "--model", "script:hello.json", "Say hello.")
print("exit", ok.returncode)
print("stdout:", repr(ok.stdout))

# %% [markdown]
# Exit code 3 means the request ceiling, 2 a usage or configuration error (here: no key for the
# default Gemini model), 1 a failed run. Nothing was sent anywhere.

# %%
ceiling = decode("run", "--model", "script:forever.json", "--max-requests", "1", "Count forever.")
print("exit", ceiling.returncode, "|", error_line(ceiling))

no_key = decode("run", "Say hello.")
print("exit", no_key.returncode, "|", error_line(no_key))

# %% [markdown]
# ## Check yourself

# %%
assert split_model_string("openrouter:qwen/qwen3-coder") == ("openrouter", "qwen/qwen3-coder")
assert missing.variable == "GEMINI_API_KEY"
assert [event.kind for event in events if event.kind != "text"] == [
    "usage",
    "tool_call",
    "tool_result",
    "usage",
    "turn_finished",
]
assert events[-1].output == "notes.txt has 6 words."
assert [event.result.content for event in events if isinstance(event, ToolCallFinished)] == ["6"]
assert loop.usage.requests == 2
assert loop.usage.cost_usd is None
assert priced.cost_usd is not None
assert len(loop.history) == 4
assert looping.usage.requests == 3
assert conversation.loop.deps.workspace == project
assert [spec.name for spec in conversation.options.tools] == ["word_count"]
assert (ok.returncode, ok.stdout) == (0, "Hello from the script.\n")
assert ceiling.returncode == 3
assert no_key.returncode == 2
assert "GEMINI_API_KEY is not set" in error_line(no_key)
print("all checks passed")
