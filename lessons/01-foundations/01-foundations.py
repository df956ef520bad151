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
# This lesson is about where settings come from, so it starts from an environment with no decode
# variables or keys in it (this only changes this notebook's own process).

# %%
import os

for name in list(os.environ):
    if name.startswith("DECODE_") or name.endswith("_API_KEY"):
        del os.environ[name]

# %% [markdown]
# ## 1. Settings: one object, four layers
#
# `Settings` is a pydantic-settings model. Each field has a default and an environment variable
# (`DECODE_MODEL`, `GEMINI_API_KEY`, …). With nothing set, you get the defaults.
# (`_env_file=None` tells it not to read any `.env` file.)

# %%
from decode.config.settings import DEFAULT_MODEL, Settings

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
# Keys are `SecretStr`. Printing the settings, logging them or serialising them shows stars;
# the one place that truly needs the key asks for it with `.get_secret_value()`.

# %%
with_key = Settings(_env_file=None, gemini_api_key="AIza-not-a-real-key")

print(with_key.gemini_api_key)
print("AIza" in repr(with_key), "AIza" in with_key.model_dump_json())
print(with_key.gemini_api_key.get_secret_value())

# %% [markdown]
# `DECODE_ENV` (`dev`, `test` or `prod`) only *names* what decode deploys (lesson 15's Modal app);
# it never changes behaviour. An environment that behaves differently is an environment you can't test.

# %%
print(defaults.env, Settings(_env_file=None, env="prod").env)

# %% [markdown]
# The rest of decode imports one ready-made object, built once when the module is first imported:
# `from decode.config.settings import settings`. Nothing reads `os.environ` deep in the code.

# %%
from decode.config.settings import settings

print(type(settings).__name__, settings.model == DEFAULT_MODEL)

# %% [markdown]
# ## 2. Logging: library code never prints
#
# Every module logs through `logging.getLogger(__name__)`. Entrypoints call `init_logger()` once,
# which sends the `decode` logger's records to **stderr** in a short format. stdout stays free for
# the answer, which is what makes `decode run "…" > answer.md` work. In the notebook, stderr shows
# up as the shaded output below.

# %%
import logging

from decode.logging import init_logger

init_logger("INFO")
log = logging.getLogger("decode.lesson01")
log.info("settings loaded: model %s", defaults.model)
log.debug("below the level: not shown")

# %% [markdown]
# `init_logger()` is safe to call again (each entrypoint does): it sets the level and never adds a
# second handler, so no line is printed twice.

# %%
decode_logger = init_logger("WARNING")
log.info("not shown any more")
print(len(decode_logger.handlers))

# %% [markdown]
# ## 3. Entities: the shared vocabulary
#
# The agent loop and the front ends (the REPL, `decode run`, notebooks) exchange plain pydantic
# models. A tool call the model asked for, and its result:

# %%
from decode.entities.tools import ToolCall, ToolResult

call = ToolCall(id="call_1", name="read", args={"path": "README.md"})
result = ToolResult(call_id="call_1", name="read", content="# decode\n…", duration_s=0.02)

print(call.summary())
print(result)

# %% [markdown]
# Usage counts tokens and, where a price is known, dollars. Usages add up; an unknown price stays
# unknown only while every part is unknown.

# %%
from decode.entities.usage import Usage

first = Usage(requests=1, input_tokens=1200, output_tokens=80)
second = Usage(requests=1, input_tokens=1500, output_tokens=40, cost_usd=0.0004)

total = first + second
print(total)
print(total.total_tokens)

# %% [markdown]
# ## 4. The event stream
#
# Everything the agent loop tells the outside world is one of a few typed events: text as it
# streams, a tool call starting and finishing, usage after each model request, the end of the turn.
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
# Each event carries its `kind`, so a turn serialises to JSON lines and reads back into the same
# typed objects. `AgentEvent` is the union of every event type; pydantic's `TypeAdapter` reads any
# of them back, picking the class by `kind`. That is how a front end in another process (or a log
# file) can replay a turn.

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
# `decode/cli.py` is a click group. Its subcommands are listed in `SUBCOMMANDS` as
# `"module:attribute"` strings and imported only when used, so `decode --version` and
# `decode --help` load nothing but click. Here is the real command, run as a separate process:

# %%
# NBVAL_IGNORE_OUTPUT
# (the version number changes with each release)
import subprocess
import sys

decode_command = Path(sys.executable).with_name("decode")
version = subprocess.run([decode_command, "--version"], capture_output=True, text=True)
print(version.returncode, version.stdout)

# %% [markdown]
# In-process, click's `CliRunner` invokes the same group. `--help` lists `run`, yet the module
# that implements `run` is still not imported: the one-line help came from `SUBCOMMANDS`.
# (The list of commands grows with each lesson, so this output is not checked.)

# %%
# NBVAL_IGNORE_OUTPUT
# (later lessons add commands)
from click.testing import CliRunner

from decode.cli import SUBCOMMANDS, cli

runner = CliRunner()
help_result = runner.invoke(cli, ["--help"], prog_name="decode")
print(help_result.output)

# %%
print(SUBCOMMANDS["run"][0])
print("decode.runtime.run" in sys.modules)

# %% [markdown]
# ## Check yourself
#
# These asserts restate the lesson. They run in CI with every notebook.

# %%
assert Settings(_env_file=env_file).model == "openrouter:from-the-dotenv-file"
assert Settings(_env_file=env_file, model="test").model == "test"
assert "AIza" not in repr(with_key)
assert "AIza" not in with_key.model_dump_json()
assert Settings(_env_file=None).env == "dev"
assert len(init_logger().handlers) == 1
assert (first + second).total_tokens == 2820
assert (first + second).cost_usd == 0.0004
assert (first + first).cost_usd is None
assert [event_adapter.validate_json(event_adapter.dump_json(e)) for e in turn] == turn
assert version.returncode == 0
assert version.stdout.startswith("decode ")
assert help_result.exit_code == 0
assert "run" in help_result.output
assert "decode.runtime.run" not in sys.modules
print("all checks passed")
