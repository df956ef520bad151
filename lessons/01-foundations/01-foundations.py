# %% [markdown]
# # Lesson 01 — Foundations
#
# Before an agent can think, it needs a floor to stand on. This lesson builds four small pieces
# every later lesson uses:
#
# 1. **Settings** (`decode/config/settings.py`): one object that knows every knob, read from
#    arguments, the environment and a `.env` file, with keys that never show.
# 2. **Logging** (`decode/logging.py`): library code logs, it never prints; stdout stays free for answers.
# 3. **Entities** (`decode/entities/`): the shared vocabulary — tool calls, results, usage — and the
#    **event stream** the agent loop will speak.
# 4. **The CLI** (`decode/cli.py`): the `decode` command, fast because it imports almost nothing.
#
# Each section shows the real code, from the package as it stands after this lesson (`show()`
# reads it from the files that run), then uses it. The lesson ends with two exercises.
#
# This lesson is about where settings come from, so it starts from an environment with no decode
# variables or keys in it (this only changes this notebook's own process).

# %%
import os

from course import show

for name in list(os.environ):
    if name.startswith("DECODE_") or name.endswith("_API_KEY"):
        del os.environ[name]

# %% [markdown]
# ## 1. Settings: one object, four layers
#
# `Settings` is a pydantic-settings model: a class whose fields are the settings. Where the values
# come from is configured once, in `model_config`: a `.env` file in the launch directory, unknown
# variables ignored, and fields settable by their own names too (`Settings(model="test")`).

# %%
show("decode.config.settings", "Settings.model_config")

# %% [markdown]
# Each field is a type, a default, a constraint and the environment variable that sets it. The
# docstring under each field is its documentation. Two fields, as they are written:

# %%
show("decode.config.settings", "Settings.max_requests")

# %%
show("decode.config.settings", "Settings.gemini_api_key")

# %% [markdown]
# `ge=1` means "at least 1": pydantic refuses anything else before decode can run with it.
# `AliasChoices` (through the small helper `_env`) lets one field answer to several variable names —
# Google's own tools call the Gemini key `GOOGLE_API_KEY`. Every field of this lesson's settings,
# with the variable that sets it and its default:

# %%
from decode.config.settings import DEFAULT_MODEL, Settings

for name, field in Settings.model_fields.items():
    variables = ", ".join(field.validation_alias.choices)
    default = field.default if field.default_factory is None else field.default_factory()
    print(f"{name:20} {variables:34} {default!r}")

# %% [markdown]
# With nothing set, you get the defaults. (`_env_file=None` tells it not to read any `.env` file.)

# %%
defaults = Settings(_env_file=None)
print(defaults.model)
print(defaults.max_requests)

# %% [markdown]
# A `.env` file in the launch directory is the next layer up. We write one in a scratch folder:

# %%
import tempfile
from pathlib import Path

scratch_dir = tempfile.TemporaryDirectory(prefix="decode-lesson01-")  # removed when the kernel stops
scratch = Path(scratch_dir.name)
env_file = scratch / ".env"
env_file.write_text("DECODE_MODEL=openrouter:from-the-dotenv-file\nDECODE_MAX_REQUESTS=7\n")

from_dotenv = Settings(_env_file=env_file)
print(from_dotenv.model)
print(from_dotenv.max_requests)

# %% [markdown]
# An environment variable beats the `.env` file, and an argument beats everything.
# The order is **init > env > .env > defaults**: a one-off `--model` flag wins over your shell,
# which wins over the project's `.env`.

# %%
os.environ["DECODE_MODEL"] = "openrouter:from-the-environment"

print(Settings(_env_file=env_file).model)
print(Settings(_env_file=env_file, model="test").model)
print(Settings(_env_file=env_file).max_requests)  # not in the environment: .env still supplies it

del os.environ["DECODE_MODEL"]

# %% [markdown]
# A value that breaks a constraint is refused with a `ValidationError` that names the field and the
# rule. Text from the environment is converted too: `DECODE_MAX_REQUESTS=lots` is not a number.
# (Lesson 02 turns this error into the one line `decode` prints.)

# %%
from pydantic import ValidationError

for raw in ("0", "lots"):
    os.environ["DECODE_MAX_REQUESTS"] = raw
    try:
        Settings(_env_file=None)
    except ValidationError as exc:
        problem = exc.errors()[0]
        print(f"DECODE_MAX_REQUESTS={raw}: {problem['msg']}")
del os.environ["DECODE_MAX_REQUESTS"]

# %% [markdown]
# Keys are `SecretStr`. Printing the settings, logging them or serialising them shows stars;
# the one place that truly needs the key asks for it with `.get_secret_value()`.

# %%
with_key = Settings(_env_file=None, gemini_api_key="AIza-not-a-real-key")

print(with_key.gemini_api_key)
print("AIza" in repr(with_key), "AIza" in with_key.model_dump_json())
print(with_key.gemini_api_key.get_secret_value())

# %% [markdown]
# `DECODE_ENV` (`dev`, `test` or `prod`) only *names* what decode deploys (lesson 21's Modal app);
# it never changes behaviour. An environment that behaves differently is an environment you can't test.

# %%
print(defaults.env, Settings(_env_file=None, env="prod").env)

# %% [markdown]
# The rest of decode imports one ready-made object: `from decode.config.settings import settings`.
# Nothing reads `os.environ` deep in the code. The object is built the first time someone asks
# for it, not when the module is imported — a module-level `__getattr__` does that — so importing
# `Settings` never fails, and a bad value fails where a front end can report it:

# %%
show("decode.config.settings", "__getattr__")

# %%
from decode.config.settings import settings

print(type(settings).__name__, settings.model == DEFAULT_MODEL)

# %% [markdown]
# ## 2. Logging: library code never prints
#
# Every module logs through `logging.getLogger(__name__)`. Entrypoints call `init_logger()` once,
# which sends the `decode` logger's records to **stderr** in a short format. stdout stays free for
# the answer, which is what makes `decode run "…" > answer.md` work (lesson 02). The handler has a
# name, so a second call finds it instead of adding another: no line is ever printed twice.

# %%
show("decode.logging", "init_logger")

# %% [markdown]
# In the notebook, stderr shows up as the shaded output below.

# %%
import logging

from decode.logging import init_logger

init_logger("INFO")
log = logging.getLogger("decode.lesson01")
log.info("settings loaded: model %s", defaults.model)
log.debug("below the level: not shown")

# %%
decode_logger = init_logger("WARNING")
log.info("not shown any more")
print(len(decode_logger.handlers))

# %% [markdown]
# ## 3. Entities: the shared vocabulary
#
# The agent loop and the front ends (the REPL, `decode run`, notebooks) exchange plain pydantic
# models. A tool call the model asked for carries an `id`, which pairs it with its result:

# %%
show("decode.entities.tool_calls", "ToolCall")

# %%
from decode.entities.tool_calls import ToolCall, ToolResult

call = ToolCall(id="call_1", name="read", args={"path": "README.md"})
result = ToolResult(call_id="call_1", name="read", content="# decode\n…", duration_s=0.02)

print(call.summary())
print(result)

# %% [markdown]
# Usage counts tokens and, where a price is known, dollars. Usages add up with `+`; the one
# subtle rule is the price: unknown (`None`) only while every part is unknown, so one priced
# request in a run gives the run a price.

# %%
show("decode.entities.usage", "Usage.__add__")

# %%
from decode.entities.usage import Usage

first = Usage(requests=1, input_tokens=1200, output_tokens=80)
second = Usage(requests=1, input_tokens=1500, output_tokens=40, cost_usd=0.0004)

total = first + second
print(total)
print(total.total_tokens, (first + first).cost_usd)

# %% [markdown]
# ## 4. The event stream
#
# Everything the agent loop tells the outside world is one of a few typed events: text as it
# streams, a tool call starting and finishing (and its output as it comes, from lesson 05's
# `bash` on), usage after each model request, the end of the turn.
# Each is a small model whose `kind` is a `Literal` — a constant string, fixed per class:

# %%
show("decode.entities.events", "TextDelta")

# %% [markdown]
# `AgentEvent` is the union of them all, with `kind` as its **discriminator**: given a JSON
# object, pydantic reads its `kind` and knows at once which class to build.

# %%
show("decode.entities.events", "AgentEvent")

# %% [markdown]
# Here is a turn written by hand — in lesson 02 the loop produces exactly this kind of list.

# %%
from decode.entities.events import (
    AgentEvent,
    TextDelta,
    ToolCallFinished,
    ToolCallStarted,
    TurnFinished,
    UsageUpdated,
)

turn = [
    TextDelta(text="Let me read it."),
    UsageUpdated(request=first, total=first),
    ToolCallStarted(call=call),
    ToolCallFinished(result=result),
    TextDelta(text="It is a coding agent."),
    UsageUpdated(request=second, total=total),
    TurnFinished(output="It is a coding agent.", usage=total),
]
print([event.kind for event in turn])

# %% [markdown]
# So a turn serialises to JSON lines and reads back into the same typed objects: `TypeAdapter`
# validates against the union, not one class. That is how a front end in another process (or a
# log file) can replay a turn.

# %%
from pydantic import TypeAdapter

event_adapter = TypeAdapter(AgentEvent)
lines = [event_adapter.dump_json(event).decode() for event in turn]
for line in lines[:3]:
    print(line)

replayed = [event_adapter.validate_json(line) for line in lines]
print(replayed == turn, type(replayed[2]).__name__)

# %% [markdown]
# ## 5. The `decode` command
#
# `decode/cli.py` is a click group. Its subcommands are `decode run` (listed in `SUBCOMMANDS` as a
# `"module:attribute"` string with its one-line help) and one module each in `decode/commands/`,
# the front end's room for subcommands: `_commands()` lists them and reads each module's first
# line for its one-liner, without importing it. `LazyGroup` imports a subcommand's module only
# when that subcommand runs; `decode --help` needs just the names and one-liners, so it builds
# placeholder commands instead. Startup stays fast however heavy the subcommands get: `--version`
# and `--help` load nothing but click.

# %%
show("decode.cli", "_commands")
show("decode.cli", "LazyGroup")

# %% [markdown]
# In this lesson there is no subcommand yet: `decode run` arrives in lesson 02, and each later
# lesson that adds a subcommand adds a module to `decode/commands/`, not a line here.

# %%
from decode.cli import SUBCOMMANDS, cli

print(SUBCOMMANDS)

# %% [markdown]
# The real command, run as a separate process (`python -m decode` runs what `decode` runs; the
# version number changes with each release, so this output is not checked):

# %%
# NBVAL_IGNORE_OUTPUT
import subprocess
import sys

version = subprocess.run([sys.executable, "-m", "decode", "--version"], capture_output=True, text=True)
print(version.returncode, version.stdout)

# %% [markdown]
# In-process, click's `CliRunner` invokes the same group, which is how tests drive it:

# %%
from click.testing import CliRunner

runner = CliRunner()
help_result = runner.invoke(cli, ["--help"], prog_name="decode")
print(help_result.exit_code)
print(help_result.output)

# %% [markdown]
# ## Exercises
#
# Write the code, run the check under it; ✓ means it works. The reference solutions are in
# `solutions.py` next to this notebook — try first.
#
# ### Exercise 1: a setting with validation
#
# A setting users ask for: the most one run may spend. (No lesson of this course enforces it; a
# run's usage and cost, lesson 02, are what such a check would read.) Write `BudgetSettings`, a
# subclass of `Settings` with one more field, `max_cost_usd`: a `float | None`, `None` by default
# (no budget), read from `DECODE_MAX_COST_USD`, and refused unless it is greater than 0. The check
# sets the variable to `0.5`, `0`, `-1` and `lots` and sees what your class makes of each.

# %%
from exercises import check_budget_settings, check_turn_cancelled


class BudgetSettings(Settings):
    """Settings with a spending budget per run."""

    # your code here: the `max_cost_usd` field


# %%
check_budget_settings(BudgetSettings)

# %% [markdown]
# ### Exercise 2: a new event
#
# Lesson 10 lets the user cancel a running turn. Write `TurnCancelled`, an event with a `reason`
# (a string) whose `kind` is `"turn_cancelled"`, so that it can join the `AgentEvent` union and
# round-trip through JSON. The check builds that union the way `events.py` spells it,
# `Annotated[TextDelta | … | TurnCancelled, Field(discriminator="kind")]`, and reads your event back.


# %%
from pydantic import BaseModel


class TurnCancelled(BaseModel):
    """The user cancelled the turn before it finished."""

    # your code here: its `kind` and its `reason`


# %%
check_turn_cancelled(TurnCancelled)

# %% [markdown]
# ## Recap
#
# **What you built:** the floor every later lesson stands on: settings, logging, the entities and
# events, and the `decode` command.
#
# - `Settings` is one pydantic-settings object; a value comes from the first of four layers that has
#   it: arguments, then the environment, then `.env`, then the default. Keys are `SecretStr` and
#   never show.
# - Library code logs and never prints: stdout is for answers, progress and logs go to stderr.
# - The entities (tool calls, results, `Usage`) are the vocabulary the loop and the front ends
#   share; the **event stream** (a union of events told apart by `kind`) is all a front end ever
#   sees of a turn.
# - `decode` is a lazy click group: `--version` and `--help` import almost nothing, so they answer
#   at once.
#
# **The key idea:** settle where values come from, where output goes, and what crosses from the
# agent to a front end before there is an agent; every later lesson plugs into these.
#
# **Glossary:** [Settings](../../docs/glossary.md#settings),
# [Settings Group](../../docs/glossary.md#settings-group), [Entity](../../docs/glossary.md#entity),
# [Event](../../docs/glossary.md#event), [Usage](../../docs/glossary.md#usage),
# [Lazy CLI](../../docs/glossary.md#lazy-cli),
# [Paired Notebook](../../docs/glossary.md#paired-notebook),
# [Lesson Snapshot](../../docs/glossary.md#lesson-snapshot).
