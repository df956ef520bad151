# %% [markdown]
# # Lesson 04 — File tools
#
# Lesson 02's agent could only talk. Now it gets hands: five tools to look at and change a project.
#
# | tool | what it does |
# |---|---|
# | `read(path, offset?, limit?)` | a text file's lines, numbered, a page (2,000 lines / 50 KB) at a time |
# | `write(path, content)` | create or replace a file, atomically |
# | `edit(path, old_string, new_string, replace_all?)` | replace an exact, unique piece of a file |
# | `glob(pattern, path?)` | find files by name, newest first, skipping what git ignores |
# | `grep(pattern, path?, glob?, output_mode?, context?, ignore_case?)` | search contents (ripgrep) |
#
# A tool is a Python function whose first argument is pydantic-ai's `RunContext`, sync or async
# (lesson 02's were sync; these are async because the executor they go through is); its
# docstring is what the model reads, and its declaration (`ToolSpec`) sits beside it. We first
# write a file tool of our own, in ten lines, and give it to an agent on the scripted model. Then
# we read the package's `read` and see what it adds: paths confined to the **Workspace**, pages
# instead of whole files, binary files refused, and the **Read Ledger** that `edit` relies on.
# Every tool reaches the disk through `ctx.deps.executor`, the **executor seam**: the Workspace may
# one day be a container or another machine. The lesson ends with an exercise: a `head` tool of
# your own, through the executor.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 04's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `resolve_path` in `decode/tools/paths.py`
# - `ReadLedger.check` in `decode/entities/ledger.py`
# - `edit` in `decode/tools/edit.py`
#
# `make lesson-start N=04` writes your copy into `build/04/`, and `make lesson-check N=04`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch project to work on: a small git repository with a bug in it. (`show` and `show_diff`,
# from `lessons/course.py`, render the package's source.)

# %%
import os
import subprocess
import tempfile
from pathlib import Path

from course import show, show_diff

project = Path(tempfile.mkdtemp(prefix="decode-lesson04-")).resolve()
os.chdir(project)
subprocess.run(["git", "init", "-q"], check=True)
Path("calc.py").write_bytes(b"def add(a, b):\r\n    return a - b\r\n\r\n\r\ndef sub(a, b):\r\n    return a - b\r\n")
Path("README.md").write_text("# calc\n\nTODO: document add and sub\n")
Path(".gitignore").write_text("*.log\n")
Path("debug.log").write_text("TODO this log is ignored\n")
Path("logo.png").write_bytes(  # a real PNG: 2×2 grey pixels
    bytes.fromhex("89504e470d0a1a0a0000000d494844520000000200000002080000000057dd52f8")
    + bytes.fromhex("0000000e49444154789c6368686068680000060602012cc150d70000000049454e44ae426082")
)
Path("tool.bin").write_bytes(bytes(range(256)))
for age, name in enumerate(["calc.py", "README.md", ".gitignore"]):  # fixed times: calc.py is the newest
    os.utime(name, (1_750_000_000 - age * 60,) * 2)
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. A file tool, by hand
#
# What a tool receives is `ctx.deps`, decode's `AgentDeps`. This lesson adds two things to it: the
# **executor** (the Workspace's one door) and the **Read Ledger**. It also adds a `search_filter`
# that hides nothing yet (`ShowAll`): it is where the permission gate of lesson 06 plugs in, so
# that `grep` and `glob` do not show files the rules keep from reads.

# %%
show_diff(4, "decode/entities/deps.py")

# %% [markdown]
# The filter is a protocol of its own module, so the gate can be one without `deps.py` knowing it:

# %%
show("decode.entities.search_filter", "SearchFilter")

# %% [markdown]
# The smallest useful file tool: numbered lines (so the model can say `calc.py:2`), and a check
# that the path stays inside the Workspace — a model asked to "look around" will happily try
# `../../.ssh/id_rsa`. Our refusal is a `ModelRetry`: pydantic-ai sends its message back to the model,
# which can try something else.

# %%
from pydantic_ai import ModelRetry, RunContext

from decode.entities.deps import AgentDeps


async def read_file(ctx: RunContext[AgentDeps], path: str) -> str:
    """Read a text file of the project. Lines come numbered: number, two spaces, text."""
    root = ctx.deps.workspace
    target = (root / path).resolve()  # `..` and symlinks followed, then checked
    if not target.is_relative_to(root):
        raise ModelRetry(f"{path} is outside the project: only files inside it can be read.")
    lines = target.read_text().splitlines()
    return "\n".join(f"{number:>4}  {line}" for number, line in enumerate(lines, start=1))


# %% [markdown]
# An agent with just that tool, on the scripted model (`script:PATH`, lesson 02): it reads
# `calc.py`, tries a file outside the project, then answers. The deps are built by hand here: the
# local executor on the scratch project, the settings (explicit ones, whatever your shell or a
# `.env` file says), the Harness Home.

# %%
import json

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.events import ToolCallFinished, ToolCallStarted, TurnFinished
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.models.gateway import resolve_model
from decode.processes.local import LocalExecutor

settings = Settings(_env_file=None, tool_output_limit=30_000)
deps = AgentDeps(executor=LocalExecutor(project), settings=settings, harness_home=project)
READ_FILE = ToolSpec("read_file", read_file, ToolTraits(ToolKind.READ_ONLY, rules=("Read",), path="path"))

scripts = Path(tempfile.mkdtemp())  # the scripts live outside the project
(scripts / "look.json").write_text(
    json.dumps(
        [
            {"tool_calls": [{"name": "read_file", "args": {"path": "calc.py"}}]},
            {"tool_calls": [{"name": "read_file", "args": {"path": "../secret.txt"}}]},
            {"text": "`add` subtracts (calc.py:2): it should return `a + b`."},
        ]
    )
)


async def run(loop: AgentLoop, prompt: str) -> None:
    """Run one turn, printing each tool call, what came back, and the answer."""
    async for event in loop.run_turn(prompt):
        if isinstance(event, ToolCallStarted):
            print("→", event.call.summary())
        elif isinstance(event, ToolCallFinished):
            print("✗" if event.result.is_error else "✓", event.result.content.replace(str(project), "<project>"))
        elif isinstance(event, TurnFinished):
            print(event.output)


model = resolve_model(f"script:{scripts / 'look.json'}", settings)
await run(AgentLoop(build_agent(model, tools=[READ_FILE]), deps), "is calc.py right?")

# %% [markdown]
# It works, and for a small text file it is all a model needs. But try it on what a real project
# holds. A binary file is not an answer the model can use — it is an exception that ends the whole
# run:

# %%
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

# The context pydantic-ai hands a tool, made by hand so we can call tools directly.
ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
try:
    await read_file(ctx, "logo.png")
except UnicodeDecodeError as exc:
    print(type(exc).__name__, "-", exc.reason)

# %% [markdown]
# And the rest is missing too: a 200 MB log would be read whole into memory and pasted into the
# context; `open()` reaches only this machine's disk, so the day the Workspace is a container the
# tool cannot see it; and nothing remembers what was read, so an `edit` tool could not tell whether
# the model knows the file as it is now.
#
# ## 2. The package's `read`
#
# Each tool module declares its tool beside the function: `decode/tools/read.py` ends with `READ`,
# the name the model calls, the function, and its traits — read-only, governed by `Read` rules,
# its path in the `path` argument. The agent and (from lesson 06) the permission gate read only that.

# %%
show("decode.tools.read", "READ")

# %% [markdown]
# The tool function is its docstring (what the model reads) and one call: `read_page` does the
# work from the deps alone, so the REPL can read a file for the user too (section 10). It does what
# ours did, and more: it goes through the executor (`locate`, `stat_path`, `read_bytes`), refuses
# what is not a regular text file *before* reading it, reads a page of lines one at a time, and
# records the file in the Read Ledger at the end.

# %%
show("decode.tools.read", "read")
show("decode.tools.read", "read_page")

# %% [markdown]
# When `read` will not do what was asked it raises one of two exceptions. A `ModelRetry` says the
# arguments were malformed (an empty path, a NUL byte in it): pydantic-ai counts it against the
# tool's retries. A `Refusal` is an *answer*: the path is fine as text, but outside the Workspace,
# missing, not read yet… The model reads it as a failed result, and it never counts as a failed
# attempt, so a model that keeps asking for wrong files does not end the run. It is a `ModelRetry`
# too, so `except ModelRetry` catches both.

# %%
show("decode.tools.paths", "Refusal")

# %% [markdown]
# The tool is async (it awaits the executor), so we `await` it. The `\r\n` endings of this file are
# not shown: the model sees plain lines.

# %%
from decode.tools.read import read


def show_retry(exc: ModelRetry) -> None:
    """Which kind of refusal, and what the model is told (the scratch folder's path differs on every run)."""
    print(f"{type(exc).__name__}:", str(exc).replace(str(project), "<project>"))


print(await read(ctx, "calc.py"))

# %% [markdown]
# A big file comes a page at a time, with a note saying how to continue. Memory stays bounded:
# lines are read one by one, each at most a few KB, however large the file.

# %%
Path("big.txt").write_text("".join(f"row {n}\n" for n in range(1, 5001)))
page = await read(ctx, "big.txt", offset=1990, limit=3)
print(page)

# %% [markdown]
# Binary files are refused with a clear message instead of a screen of garbage (or an
# exception). A file that is not there is a `Refusal`, with a hint when there is one.

# %%
print(await read(ctx, "tool.bin"))
try:
    await read(ctx, "calc.pyy")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# An image is different: Claude and the other vision models can *look* at a PNG, JPEG, GIF or WebP.
# `read` knows one by its first bytes (its magic number, not its name: a text file named `notes.png`
# is text) and answers with a line and the image itself, pydantic-ai's `BinaryImage`, which the
# provider receives as an image part. Bounded like the rest: past `DECODE_IMAGE_MAX_BYTES` (5 MiB)
# it is refused in one line, and a model that takes no images gets the line alone (`accepts_images`).

# %%
show("decode.tools.images", "read_image")

# %%
from decode.tools.images import accepts_images

line, image = await read(ctx, "logo.png")
print(line)
print(type(image).__name__, image.media_type, len(image.data), "bytes")
print(accepts_images("openai:gpt-4o"), accepts_images("openai:gpt-3.5-turbo"))

# %% [markdown]
# ## 3. Paths stay inside the Workspace
#
# Every tool resolves the model's paths with `resolve_path`: lexically first (`..`, an absolute path
# elsewhere), then with every symlink followed by the executor — the same function the permission
# gate will resolve with.

# %%
show("decode.tools.paths", "resolve_path")

# %% [markdown]
# `..`, absolute paths elsewhere and symlinks that lead out are refused. (Lesson 06, permissions,
# may allow chosen outside paths.)

# %%
Path("sneaky").symlink_to("/etc")
for path in ["../outside.txt", "/etc/passwd", "sneaky/hostname"]:
    try:
        await read(ctx, path)
    except ModelRetry as exc:
        show_retry(exc)

# %% [markdown]
# ## 4. The executor seam
#
# The tools never call `open()` or `subprocess`: they ask `ctx.deps.executor`. A backend implements
# `run` (a program to completion, its output streamed to callbacks) and `spawn`; every file
# operation has a default built on `run`, which a local backend overrides with direct I/O.
#
# `run` takes one `ExecRequest`: the program, its timeout, the callbacks its output goes to, and
# optionally a working directory, an environment and stdin. As httpx hands one `Request` through its
# transports, the same object goes down through every backend below the executor, so a later lesson
# adds a field to it (lesson 17: may this command reach the network?) instead of a parameter to each.

# %%
show("decode.entities.executor", "ExecRequest")

# %%
show("decode.entities.executor", "CommandExecutor.run")

# %% [markdown]
# The local executor is the first backend: the Workspace is a folder on this machine. In this
# lesson its `run` is a plain asyncio subprocess (grep uses it to run `rg`). Lesson 05 shows why that
# is not enough for a shell — a command that starts a background process outlives the kill — and
# gives it process groups.

# %%
show("decode.processes.local", "LocalExecutor.run")

# %% [markdown]
# ## 5. `edit`: exact, unique, and only on files read as they are
#
# `edit` replaces text the model *believes* is in the file. So the file must have been read in
# this session and not changed since: the Read Ledger keeps a stamp (size, modification time)
# of every file read, and `edit` (or `write` over an existing file) asks it first.

# %%
show("decode.entities.ledger", "require_fresh")

# %%
from decode.tools.edit import edit

Path("notes.md").write_text("The user's notes.\n")
try:
    await edit(ctx, "notes.md", "notes", "NOTES")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# `calc.py` was read above, so it can be edited. `return a - b` appears twice, so the quote is
# ambiguous: the model is told where, and must quote more.

# %%
try:
    await edit(ctx, "calc.py", "return a - b", "return a + b")
except ModelRetry as exc:
    show_retry(exc)
print(await edit(ctx, "calc.py", "def add(a, b):\n    return a - b", "def add(a, b):\n    return a + b"))

# %% [markdown]
# The model wrote `\n`; the file keeps its `\r\n` (and a byte-order mark would be kept too), so
# the user's diff shows one changed line, not a whole rewritten file.

# %%
print(Path("calc.py").read_bytes()[:50])

# %% [markdown]
# A quote that matches nowhere gets the closest lines of the file, numbered: usually the model
# remembered the text slightly wrong.

# %%
try:
    await edit(ctx, "calc.py", "def sub(a,b):\n  return a-b", "def sub(a, b):\n    return a - b  # checked")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# If the file changes on disk after the read (the user saved it, a formatter ran), the edit is
# refused until the model reads it again.

# %%
Path("calc.py").write_bytes(Path("calc.py").read_bytes() + b"# edited by the user\r\n")
try:
    await edit(ctx, "calc.py", "def sub", "def subtract")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# ## 6. `write`: atomic, with parents
#
# The new content goes to a temporary file beside the target, then a rename swaps it in: a crash
# never leaves half a file. Replacing an existing file needs a read first, like `edit`.

# %%
from decode.tools.write import write

print(await write(ctx, "src/calc/__init__.py", '"""The calc package."""\n'))
try:
    await write(ctx, "notes.md", "overwritten\n")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# ## 7. `glob` and `grep`: finding things
#
# `glob` lists files by pattern, newest first (what was touched last is likely what matters), and
# skips what `.gitignore` ignores.

# %%
from decode.tools.glob import glob

print(await glob(ctx, "**/*.md"))
print(await glob(ctx, "**/*.log"))

# %% [markdown]
# `grep` runs ripgrep (the `ripgrep` package puts `rg` in the virtual environment) through
# `executor.run`. Three output modes: `files` (the default), `content` (`path:line:text`, context
# lines as `path-line-text`) and `count`.

# %%
from decode.tools.grep import grep

print(await grep(ctx, "TODO"))
print(await grep(ctx, "return", output_mode="content", context=1))
print(await grep(ctx, "return", output_mode="count"))

# %% [markdown]
# Without ripgrep a pure-Python search takes over, following the same rules (hidden files in,
# `.git` out, `.gitignore` inside git repositories) so the answers are the same.

# %%
from decode.tools.grep import Query, find_matches, render

query = Query("a [-+] b", mode="content")
with_rg = await find_matches(deps.executor, project, query, use_rg=True)
in_python = await find_matches(deps.executor, project, query, use_rg=False)
print(await render(deps.executor, in_python, "content"))
print(await render(deps.executor, with_rg, "content") == await render(deps.executor, in_python, "content"))

# %% [markdown]
# ## 8. Long outputs: head, tail, and the rest in a file
#
# A grep over a big tree can return megabytes. Past the limit (`DECODE_TOOL_OUTPUT_LIMIT`, 30,000
# characters) the model gets the head and the tail, and the name of a file under
# `.decode/tool-output/` holding everything.

# %%
show("decode.tools.truncate", "shorten")

# %%
from decode.tools.truncate import shorten

long_text = "".join(f"match {n}\n" for n in range(10_000))
short = shorten(long_text, 200, harness_home=project, label="demo")
saved = short.split("the full output is in ")[1].split(" ")[0]
print(short.replace(saved.removeprefix("harness:tool-output/"), "<name>"))

# %% [markdown]
# That file belongs to decode, not to the project: it lives in the Harness Home, and once a sandbox
# holds the Workspace the executor cannot even see it. So the note names it
# `harness:tool-output/NAME`, and `read` and `grep` open `harness:` paths on decode's side
# (`decode/tools/harness_files.py`), confined to that folder.

# %%
print((await read(ctx, saved, offset=9999, limit=2)).replace(saved, "<saved>"))
print((await grep(ctx, "^match 4242$", path=saved, output_mode="content")).replace(saved, "<saved>"))

# %% [markdown]
# ## 9. The agent uses them
#
# The tool catalog (`decode/tools/catalog.py`) lists the declarations; each kind (read-only or
# file-edit) and rule name is what the permissions lesson will use. The composition root now gives
# them to every agent it builds (`decode run`, the REPL): `LoopOptions.tools` None now means the
# catalog's `default_tools()`, and the deps get an executor, a `LocalExecutor` in the launch
# directory unless a front end passes another. Both are steps, in a module of this lesson's own;
# the composition root lists them among its steps:

# %%
show("decode.agent.steps.executor")

# %%
show_diff(4, "decode/agent/compose.py")

# %%
show_diff(4, "decode/agent/steps/core.py")

# %% [markdown]
# Here the scripted model plays the agent checking `sub`.

# %%
from decode.tools.catalog import FILE_TOOLS

for spec in FILE_TOOLS:
    print(f"{spec.name:6} {spec.traits.kind:10} {spec.traits.rules}")

(scripts / "fix.json").write_text(
    json.dumps(
        [
            {"tool_calls": [{"name": "grep", "args": {"pattern": "def sub", "output_mode": "content"}}]},
            {"tool_calls": [{"name": "read", "args": {"path": "calc.py", "offset": 5}}]},
            {
                "tool_calls": [
                    {
                        "name": "edit",
                        "args": {
                            "path": "calc.py",
                            "old_string": "def sub(a, b):\n    return a - b",
                            "new_string": "def sub(a, b):\n    return a - b  # correct",
                        },
                    }
                ]
            },
            {"text": "`sub` was already right; I marked it as checked (calc.py:6)."},
        ]
    )
)
model = resolve_model(f"script:{scripts / 'fix.json'}", settings)
await run(AgentLoop(build_agent(model, tools=FILE_TOOLS), deps), "check sub in calc.py")

# %% [markdown]
# ## 10. `@path`: the user hands the agent a file
#
# Claude Code users type `fix add in @calc.py`: the file goes with the prompt, so the model need
# not ask for it. In decode it goes *as `read` would show it*, with the same page and the same
# refusals, and it is recorded in the Read Ledger like any read: the model may `edit` it at once.
# `decode/tools/mentions.py` attaches what the mentions of a prompt name; a path that names
# nothing (`@alice`) or an `@` inside a word (`me@calc.py`) stays text, and a file that cannot
# be read is one line for the user, and nothing of it is sent.

# %%
show("decode.tools.mentions", "attach")

# %%
from decode.tools.mentions import attach_mentions

Path("todo.md").write_text("- fix sub\n")
mentioned = await attach_mentions(deps, "tick off @todo.md (not @tool.bin), see @logo.png, ask @alice or me@calc.py")
print(mentioned.text)
print(mentioned.refused)
print([image.media_type for image in mentioned.images])  # sent after the text, as image parts
print(await edit(ctx, "todo.md", "- fix sub", "- [x] fix sub"))  # no read first: the mention was one

# %% [markdown]
# The model gets the prompt exactly as typed, then one `<mentions>` element, then each image; the
# transcript shows only what was typed (`typed_part`), and `[image: logo.png]` under it. A pasted
# absolute path of an image (`/tmp/shot.png`, dropped into the terminal) attaches it too. A terminal
# pastes text only, so Ctrl+V asks the clipboard itself (`wl-paste`, else `xclip`): its PNG is kept
# in `.decode/clipboard/` under its hash and mentioned in the line, `@.decode/clipboard/….png`
# (`decode/tui/clipboard.py`; neither program installed is one line saying which to install).
# In the REPL, typing `@` completes the Workspace's files and
# folders from a listing that respects `.gitignore` and is bounded in size and time
# (`decode/tools/listing.py`), ranked by `rank`: the typed characters in order, names that start
# with them first.

# %%
from decode.tools.listing import list_files
from decode.tui.mentions import rank, with_folders

listing = await list_files(deps.executor, project)
print(rank("calc", with_folders(listing.paths)))

# %% [markdown]
# The REPL adds two lines to lesson 03's: its input line gets the completer, and `submit` sends the
# message with what its mentions attached (`mentioned` says each refusal, and the transcript shows a
# line per attachment under the prompt):

# %%
show_diff(4, "decode/tui/dispatch.py")

# %% [markdown]
# Try it yourself with this lesson's `decode`, not the one on your PATH (that is the finished
# package, whose permission gate, lesson 06, asks before an edit). `make lesson-snapshot N=04`
# writes this lesson's package to `.lessons/04` in the repository; then, in a scratch project with
# a copy of this folder's `look.json`, run
# `PYTHONPATH=REPO/.lessons/04 REPO/.venv/bin/python -m decode run --model script:look.json "fix add in calc.py"`
# (the README's "Try it afterwards" has the whole session). The progress lines on stderr show each
# tool call. (`make lesson-repl N=04` starts this lesson's REPL, on the repository itself.)
#
# ## Exercise: a `head` tool
#
# Write `HEAD`, a `ToolSpec` named `head` for an async tool `head(ctx, path, n=10) -> str`: the
# first `n` lines of a text file of the Workspace (all of them when it has fewer), as they are in
# the file, each with its newline (`splitlines(keepends=True)` keeps them; a last line without one
# stays without). Declare its traits: read-only, answering to `Read` rules only, its path in the
# `path` argument. Like the package's tools it must refuse a path outside the Workspace — `..`, an
# absolute path elsewhere, a symlink that leads out — (`resolve_path` from `decode.tools.paths`
# does it), and read **through `ctx.deps.executor`**, never with `open()` or `Path.read_text()`.
#
# The check gives your tool a Workspace that lives somewhere else than the local disk says, as it
# will in a container: its executor reads one folder while the local disk holds other files at the
# Workspace's path. It calls the tool on files inside and outside that Workspace, and runs it
# through an agent on the scripted model. A solution is in `solutions.py` of this folder.

# %%
from exercises import check_head


async def head(ctx: RunContext[AgentDeps], path: str, n: int = 10) -> str:
    """The first lines of a text file of the project, as they are in the file."""
    raise NotImplementedError  # your code here


HEAD = ToolSpec("head", head, ToolTraits(ToolKind.OTHER))  # your traits here

# %%
check_head(HEAD)

# %% [markdown]
# ## Recap
#
# **What you built:** five file tools (`read`, `write`, `edit`, `glob`, `grep`) and the executor
# seam they all go through.
#
# - A tool is a function, its docstring what the model reads, its `ToolSpec` declared beside it.
# - Paths stay inside the Workspace; `read` pages through big files and refuses binary ones.
# - `edit` replaces an exact, unique piece of a file, and only of a file the Read Ledger says was
#   read as it is now; `write` is atomic.
# - A long output becomes head + note + tail, the whole of it saved to a file the model can read.
# - `@path` in the REPL attaches a file as `read` shows it, and counts as its read.
# - Every tool reaches the disk through `deps.executor`, the Executor Seam: the Workspace may be a
#   container or another machine (lessons 17 and 18).
#
# **The key idea:** a tool's refusal is an answer the model can act on (read first, be more
# precise), not a crash; the checks live in the tool, where no model can skip them.
#
# **Glossary:** [Workspace](../../docs/glossary.md#workspace),
# [Executor Seam](../../docs/glossary.md#executor-seam),
# [Exec Request](../../docs/glossary.md#exec-request),
# [Local Executor](../../docs/glossary.md#local-executor),
# [Read Ledger](../../docs/glossary.md#read-ledger), [Refusal](../../docs/glossary.md#refusal),
# [Output Truncation](../../docs/glossary.md#output-truncation),
# [Tool Catalog](../../docs/glossary.md#tool-catalog),
# [Harness Path](../../docs/glossary.md#harness-path), [Mention](../../docs/glossary.md#mention).
