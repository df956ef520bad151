# %% [markdown]
# # Lesson 03 — The terminal UI
#
# `decode run` prints an answer and exits. A coding agent you work *with* needs a conversation:
# type, watch the answer arrive, see each tool it runs, stop it, ask again. This lesson builds
# `decode` with no subcommand — the **REPL** — from four parts:
#
# 1. **The Renderer** (`decode/tui/render.py`): the Agent Loop's events become Rich output — the
#    answer as Markdown, one finished block at a time; thinking dimmed; one compact line per tool
#    call; errors in their own style. What is still being written is the **live area**.
# 2. **The footer** (`footer.py`): one line under the prompt — a spinner while busy, the model, the
#    folder, the session's tokens and cost, how full the context window is.
# 3. **Slash commands** (`commands.py`): `/help`, `/model`, `/clear`, `/cost`, `/quit`, in one
#    registry that later lessons add to.
# 4. **The session** (`app.py`, `input.py`, `terminal.py`, `warmup.py`): a prompt_toolkit input line
#    pinned at the bottom, Rich printing above it, and the agent built in a background thread so the
#    prompt is there before pydantic-ai has finished importing. When the terminal goes away (the
#    window closed, ssh dropped), `hangup.py` ends the session, whatever it was doing.
#
# Each part is shown from the package itself (`show`: the source of this lesson's snapshot), then
# run. Everything runs offline on the scripted model; the REPL itself is driven through a pipe. The
# lesson ends with an exercise: a slash command of your own.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 03's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `split_blocks` in `decode/tui/markdown_blocks.py`
# - `tool_line` in `decode/tui/tool_lines.py`
# - `CommandRegistry.parse` in `decode/tui/commands.py`
#
# `make lesson-start N=03` writes your copy into `build/03/`, and `make lesson-check N=03`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch project folder, as in lesson 02, and `show` from `lessons/course.py`.

# %%
import os
import tempfile
from pathlib import Path

from course import show

project_dir = tempfile.TemporaryDirectory(prefix="decode-lesson03-")
project = Path(project_dir.name).resolve()
os.chdir(project)
Path("notes.txt").write_text("The REPL streams, the footer counts, commands steer.\n")
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. Streaming Markdown, one finished block at a time
#
# A model streams its answer in small pieces. Printing Markdown piece by piece would show raw `**`
# and half-built lists; rendering everything again on each piece would redraw the whole screen. The
# Renderer does neither: it prints a block once it is **finished** — a paragraph at a blank line, a
# code block at its closing fence — and keeps the unfinished rest in the live area. `split_blocks`
# (in `markdown_blocks.py`, beside the Renderer) draws that line:

# %%
show("decode.tui.markdown_blocks", "split_blocks")

# %%
from decode.tui.markdown_blocks import split_blocks

print(split_blocks("First paragraph.\n\nSecond, still being wri"))
print(split_blocks("```python\nx = 1\n\ny = 2\n"))  # a blank line inside code finishes nothing
print(split_blocks("```python\nx = 1\n```\n"))

# %% [markdown]
# The Renderer is a small state machine over the Agent Loop's events. It dispatches on each event's
# `kind` (not its class: the REPL keeps pydantic off the path to its first prompt). Text goes
# through `split_blocks`; a tool call is remembered until its result arrives, then printed as one
# line:

# %%
show("decode.tui.render", "Renderer.event")

# %% [markdown]
# ## 2. What Rich draws
#
# The Renderer needs only a Rich `Console`. In the REPL that console writes above the prompt; in a
# notebook, Rich displays its output as HTML, with the styles a terminal would show. Here is one
# streamed answer, rendered by the real Renderer on a Jupyter console: the heading and the bold word
# rendered, the thinking dimmed, a tool call as one line, the code highlighted.

# %%
from rich.console import Console

from decode.entities.events import TextDelta, ThinkingDelta, ToolCallFinished, ToolCallStarted
from decode.entities.tool_calls import ToolCall, ToolResult
from decode.tui.render import Renderer

# Colours and width fixed, so the display is the same on every machine (it is checked too).
jupyter = Console(force_jupyter=True, width=72, color_system="truecolor", no_color=False)
demo = Renderer(jupyter)
with jupyter:  # one display for the whole turn, instead of one per printed block
    demo.user("How do I add two numbers here?")
    demo.event(ThinkingDelta(text="Look for an add function first."))
    demo.event(ToolCallStarted(call=ToolCall(id="1", name="grep", args={"pattern": "def add"})))
    demo.event(ToolCallFinished(result=ToolResult(call_id="1", name="grep", content="calc.py", duration_s=0.1)))
    demo.event(TextDelta(text="## Adding\n\nUse **`add`** from `calc.py`:\n\n```python\nadd(2, 3)  # 5\n```\n"))
    demo.end_turn()

# %% [markdown]
# The rest of the lesson checks what the Renderer prints as plain text, so a change to it shows up
# when the notebook is tested. That console writes into a string; the kernel asks for colours
# (FORCE_COLOR) and would display HTML, so both are switched off.

# %%
import io


def recording_console(screen: io.StringIO) -> Console:
    """A console writing plain text into `screen`, 72 columns wide."""
    return Console(file=screen, width=72, force_jupyter=False, force_terminal=False)


def recording_renderer() -> tuple[Renderer, io.StringIO]:
    """A Renderer whose console writes into a string."""
    screen = io.StringIO()
    return Renderer(recording_console(screen)), screen


def shown(screen: io.StringIO) -> str:
    """What is on the 'screen' so far, without Rich's padding at the ends of lines."""
    return "\n".join(line.rstrip() for line in screen.getvalue().splitlines())


# %% [markdown]
# ## 3. The live area
#
# The events are the ones of lesson 02; here we make them by hand.

# %%
renderer, screen = recording_renderer()
renderer.user("What does the REPL do?")
renderer.event(ThinkingDelta(text="The user wants a summary of the REPL."))
renderer.event(TextDelta(text="## The REPL\n\nIt **streams** the answer"))
print(shown(screen))

# %% [markdown]
# The heading is printed (its block ended with a blank line) and rendered: no `##`. Thinking was
# printed when the answer began. The unfinished paragraph is not printed yet: it is in the **live
# area**, which the REPL draws just above the prompt and redraws as pieces arrive:

# %%
print(renderer.live())

# %% [markdown]
# More pieces finish the paragraph; it moves from the live area to the screen, rendered.

# %%
renderer.event(TextDelta(text=" as it arrives.\n\n- one block at a time\n- never redrawn\n"))
renderer.end_turn()
print(shown(screen))
print(repr(renderer.live()))

# %% [markdown]
# ## 4. A scripted turn, rendered
#
# Now real events from the Agent Loop of lesson 02, built by its composition root: a scripted model
# that reads a file with a small tool, then answers. Each tool call becomes one compact line — a
# mark (✓ or ✗), the tool and its key argument, the outcome, the time (`tool_lines.py`):

# %%
show("decode.tui.tool_lines", "tool_line")

# %%
import json
import re

from pydantic_ai import RunContext

from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits


def word_count(ctx: RunContext[AgentDeps], path: str) -> int:
    """Count the words in a file of the workspace."""
    return len((ctx.deps.workspace / path).read_text().split())


turns = [
    {"text": "Let me count.", "tool_calls": [{"name": "word_count", "args": {"path": "notes.txt"}}]},
    {"text": "`notes.txt` has **8** words:\n\n```text\nThe REPL streams, the footer counts, commands steer.\n```"},
]
Path("turns.json").write_text(json.dumps(turns))
settings = Settings(gemini_api_key=None)
tools = [ToolSpec("word_count", word_count, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))]
loop = build_loop(LoopOptions(home=project, model="script:turns.json", tools=tools), settings).loop

renderer, screen = recording_renderer()
renderer.user("How many words are in notes.txt?")
async for event in loop.run_turn("How many words are in notes.txt?"):
    renderer.event(event)

# %% [markdown]
# The screen after the turn. The tool's time differs from run to run, so it is written `<time>`
# here:

# %%
print(re.sub(r"\d+\.\ds$", "<time>", shown(screen), flags=re.MULTILINE))

# %% [markdown]
# The transcript keeps each call short; the renderer keeps every call of the session whole
# (`renderer.calls`). Ctrl+O opens them in a pager (`pager.py`), a full-screen prompt_toolkit
# application on the terminal's alternate screen: it opens on the last call, ↑/↓ (or p/n) go to
# an earlier or later one, q or Esc leave, and nothing it shows lands in the scrollback. A page
# is `full_call()` at the terminal's width (the time written `<time>` again):

# %%
from decode.tui.pager import call_page

page = "\n".join(call_page(renderer.calls[-1], 70, color_system=None))
print(re.sub(r"\d+\.\ds$", "<time>", page, flags=re.MULTILINE))

# %% [markdown]
# Errors have their own style and never end the session; notices (a retry, a warning) have theirs.

# %%
renderer, screen = recording_renderer()
renderer.notice("model error (HTTP 503 from gemini); retry 1 in 1.0s", "warning")
renderer.error("model request failed: HTTP 503 from gemini")
print(shown(screen))

# %% [markdown]
# A long paste is kept out of sight the same way: the terminal sends a paste as one piece, and one
# of more than `COLLAPSE_LINES` lines goes into the input line as a placeholder (`pastes.py`). The
# line sent gets the text back, so the model reads all of it; the transcript shows the placeholder.

# %%
from decode.tui.pastes import Pastes

pastes = Pastes()
typed = "why does this fail? " + pastes.collapse("".join(f"line {n}\n" for n in range(95)))
print(typed)
print(len(pastes.expand(typed).splitlines()), "lines go to the model")

# %% [markdown]
# ## 5. The footer
#
# The REPL keeps a `SessionStatus` up to date from the events (`UsageUpdated` carries the session's
# totals and the size of the last request). `footer()` is a pure function of that status and the
# clock, so it is easy to test:

# %%
show("decode.tui.footer", "footer")

# %% [markdown]
# Here the clock is fixed and HOME is `/home/ada`:

# %%
from decode.tui.footer import SessionStatus, footer, plain

status = SessionStatus(
    workspace=Path("/home/ada/src/app"), home=Path("/home/ada"), model="google-gla:gemini-flash-latest"
)
status.context_window = 128_000
print(plain(footer(status, now=0.0)))

status.phase = "ready"
status.record_usage(requests=3, input_tokens=21_500, output_tokens=1_900, cost_usd=0.0042, context_tokens=23_400)
print(plain(footer(status, now=0.0)))

status.start_turn(now=100.0)
status.queued = 1
print(plain(footer(status, now=112.3)))

# %% [markdown]
# Starting (the agent is warming up), ready, then working for 12 seconds with one prompt queued.
# The spinner frame comes from the clock: prompt_toolkit redraws ten times a second while busy.
# On a narrow terminal the folder is shortened first, from the left:

# %%
deep = SessionStatus(workspace=Path("/home/ada/work/clients/acme/backend"), home=Path("/home/ada"), model="test")
print(plain(footer(deep, now=0.0)))
print(plain(footer(deep, now=0.0, width=60)))

# %% [markdown]
# ## 6. Slash commands
#
# One registry holds them. `/help`, autocompletion and dispatch all read it, so they cannot
# disagree. A command is a name, a summary, a coroutine that gets the running REPL and the text
# after the name, and whether it may run while a turn is busy:

# %%
show("decode.tui.commands", "SlashCommand")

# %% [markdown]
# The registry adds commands (refusing a name twice), finds them by name or alias, and decides what
# a line is. A line is a command only if it starts with `/word`: a path is still a prompt. Its lists
# (`status_lines`, `start_checks`, `on_ready`, `on_leave`…) are empty in this lesson: they are where
# later lessons' REPL parts plug in, from the same function that adds their commands.

# %%
show("decode.tui.commands", "CommandRegistry")

# %%
from decode.tui.commands import builtin_commands

commands = builtin_commands()
for command in commands:
    print(f"{command.usage:15} {command.summary}")

invocation = commands.parse("/model openrouter:qwen/qwen3-coder")
print(invocation.command.name, "|", invocation.argument)
print(commands.parse("/etc/hosts looks wrong"))  # None: a prompt for the agent
print(commands.closest("hlep"))  # what the REPL suggests for a typo

# %% [markdown]
# Later lessons add their commands to the same registry, with the decorator. A command gets the
# running REPL (its `workspace`, its `renderer`, its `status`…) and the text after its name:

# %%
from decode.tui.app import Repl


@commands.command("words", "Count the words of a file", argument="PATH")
async def words(repl: Repl, argument: str) -> None:
    count = len((repl.workspace / argument).read_text().split())
    repl.renderer.notice(f"{argument}: {count} words")


print([command.name for command in commands])

# %% [markdown]
# Typing `/` offers every command with its summary; the completer reads the registry too.

# %%
from prompt_toolkit.completion import CompleteEvent
from prompt_toolkit.document import Document

from decode.tui.input import SlashCommandCompleter

completer = SlashCommandCompleter(commands, arguments=lambda name: [])
for completion in completer.get_completions(Document("/c"), CompleteEvent()):
    print(completion.text, "—", completion.display_meta_text)

# %% [markdown]
# ## 7. The session
#
# `Repl` is the real session: it holds the state (the input line, the Turn Runner, the renderer,
# the footer's status, the conversation once the warm-up thread has built it) and hands the work
# to a module per concept: `dispatch.py` for a line typed, `prompt_loop.py` for reading prompts
# and leaving, `screen.py` for what is drawn around the input line, `launch.py` for `run_repl`.
# Later lessons add to these through small lists: a start check, a panel above the prompt, a
# command set. Each line typed goes to `submit`: a slash command runs at once, anything else is a
# prompt for the agent.

# %%
show("decode.tui.dispatch", "submit")

# %% [markdown]
# A prompt goes to the **Turn Runner** (`decode/harness/runner.py`), the driver `decode run` used in
# lesson 02 for its one turn. The REPL uses all of it: its worker takes one message
# at a time from a queue (`queue.py`: what is sent while a turn runs waits there, and the footer
# counts it) and runs it as a turn. A turn never takes the REPL down: a model error becomes a
# `failed` outcome with one line to show, and Ctrl-C cancels the turn's task, not the worker.

# %%
show("decode.harness.runner", "TurnRunner.run_turn")

# %% [markdown]
# The slow part of start-up (settings, pydantic-ai, the model, the Agent Loop) runs in a
# background thread, so the prompt is on screen before pydantic-ai has finished importing. The
# REPL awaits the future only when a turn needs the loop. What it builds is what the command line
# asked for: the REPL holds a `LoopOptions` from the start (its module imports nothing heavy), adds
# its own callbacks, and the warm-up hands it to `build_loop` once the settings are read.

# %%
show("decode.tui.warmup", "start_warm_up")

# %% [markdown]
# Its keyboard can be prompt_toolkit's **pipe input** and its screen a recording console — which is
# how its tests run too. We type a prompt, a slash command and `/quit`.

# %%
import asyncio

from prompt_toolkit.input import create_pipe_input
from prompt_toolkit.output import DummyOutput

Path("chat.json").write_text(json.dumps([{"text": "Hello! Ask me about this project."}]))


async def wait_for(text: str, screen: io.StringIO) -> None:
    """Wait (up to 120 s: a busy machine imports slowly) until `text` is on the recording screen."""
    async with asyncio.timeout(120):
        while True:
            if text in screen.getvalue():
                return
            await asyncio.sleep(0.01)


with create_pipe_input() as keyboard:
    screen = io.StringIO()
    repl = Repl(
        # wide enough that the first line, which names the (temporary) project folder, never wraps
        console=Console(file=screen, width=200, force_jupyter=False, force_terminal=False),
        options=LoopOptions(project, model="script:chat.json"),  # what `decode --model …` asks for
        settings=settings,
        commands=commands,
        input=keyboard,
        output=DummyOutput(),
    )
    session = asyncio.ensure_future(repl.run())
    await wait_for("/help lists the commands", screen)  # the first line, once the warm-up is done
    keyboard.send_text("hi there\r")  # \r is Enter
    await wait_for("Hello!", screen)
    keyboard.send_text("/words notes.txt\r")
    await wait_for("8 words", screen)
    on_screen = shown(screen).replace(str(project), "<project>")
    keyboard.send_text("/quit\r")
    exit_code = await session

print(on_screen)
print("exit code", exit_code)

# %% [markdown]
# The prompt was echoed when its turn began, the answer streamed, `/words` ran at once, and
# `/quit` ended the session. The warm-up built the REPL's `conversation` with `build_loop`, as
# above; it kept the history, and the footer's status kept the usage:

# %%
print(len(repl.conversation.loop.history), "messages;", repl.status.requests, "request;", repl.status.phase)

# %% [markdown]
# ## 8. Run it
#
# In a terminal, in any project folder:
#
# ```bash
# decode                                 # Gemini, with GEMINI_API_KEY set (or in .env)
# decode --model script:turns.json       # be the model yourself
# decode --model openai-compatible:qwen3 # a local server at OPENAI_BASE_URL
# ```
#
# | key | does |
# |---|---|
# | Enter | send |
# | Alt+Enter, or `\` at the end of the line | a new line |
# | Ctrl-C | while a turn runs, stop it; else clear the line; twice quickly: leave |
# | Ctrl-D (empty line), `/quit` | leave |
# | ↑ ↓, Ctrl-R | history, kept in `.decode/history` of the folder you started in |
# | Tab | complete a `/command` (and a model after `/model `) |
# | Ctrl+O | the pager: every tool call of the session, whole (↑ ↓ another call, q back) |
#
# A prompt sent while a turn runs waits in a queue (the footer counts it). Without a key for the
# default model the REPL still starts: it says which variable is missing, and `/model` switches.
# `decode` without a terminal (piped) refuses with exit code 2 and points to `decode run`:

# %%
import subprocess
import sys

piped = subprocess.run([sys.executable, "-m", "decode"], capture_output=True, text=True, stdin=subprocess.DEVNULL)
print("exit", piped.returncode, "|", piped.stderr.strip())

# %% [markdown]
# ## Exercise: a `/files` command
#
# Write `add_files_command(registry)`: it registers `/files [PATTERN]` on the registry. The command
# lists the files (not folders) of the REPL's Workspace (`repl.workspace`, not the current directory:
# the REPL may have been started elsewhere) whose path matches the glob `PATTERN` (`*` when none is
# given), as paths relative to the Workspace, sorted, one per line, with `repl.renderer.info(...)`. When
# nothing matches, it says `no files match PATTERN` with `repl.renderer.notice(...)`. Give it a
# summary and `argument="[PATTERN]"`, so `/help` and completion show it.
#
# The check builds a fresh registry, calls your function, and drives your command through the real
# `Repl.submit` in a Workspace of its own. A solution is in `solutions.py` of this folder.

# %%
from exercises import check_add_files_command


def add_files_command(registry):
    raise NotImplementedError  # your code here


# %%
check_add_files_command(add_files_command)

# %% [markdown]
# ## Recap
#
# **What you built:** `decode` with no subcommand: the REPL, a conversation in the terminal.
#
# - The Renderer turns the Agent Loop's events into Rich output: Markdown one finished block at a
#   time, thinking dimmed, one line per tool call; what is still being written is the Live Area.
# - The Footer shows the spinner, the model, the folder, the session's tokens and cost, and how full
#   the context is.
# - Slash commands live in one registry that `/help`, dispatch and completion all read, and that
#   later lessons add to.
# - The agent is built in a background thread (the Warm-up), so the prompt is there before
#   pydantic-ai has finished importing; a Hang-Up ends the session cleanly.
#
# **The key idea:** the REPL is only a front end: it renders the same events `decode run` prints,
# and drives turns through the same Turn Runner.
#
# **Glossary:** [REPL](../../docs/glossary.md#repl), [Renderer](../../docs/glossary.md#renderer),
# [Live Area](../../docs/glossary.md#live-area), [Footer](../../docs/glossary.md#footer),
# [Slash Command](../../docs/glossary.md#slash-command), [Warm-up](../../docs/glossary.md#warm-up),
# [Turn Runner](../../docs/glossary.md#turn-runner), [Front End](../../docs/glossary.md#front-end),
# [Harness Home](../../docs/glossary.md#harness-home), [Hang-Up](../../docs/glossary.md#hang-up).
