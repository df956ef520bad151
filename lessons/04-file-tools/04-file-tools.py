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
# A tool is an async Python function whose first argument is pydantic-ai's `RunContext`; its
# docstring is what the model reads, and its declaration (`ToolSpec`) sits beside it. Around the
# five tools sit the rules that make them safe: paths stay inside the **Workspace**, `edit` only
# changes files the agent has read and that did not change since (the **Read Ledger**), and long
# outputs are **truncated** with the full text saved.
#
# The tools reach the disk through `ctx.deps.executor`, the **executor seam**, and await it: the
# Workspace may one day be a container or another machine. Lesson 05 opens the seam; for now it is
# simply "this machine".

# %% [markdown]
# A scratch project to work on: a small git repository with a bug in it.

# %%
import os
import subprocess
import tempfile
from pathlib import Path

project = Path(tempfile.mkdtemp(prefix="decode-lesson04-")).resolve()
os.chdir(project)
subprocess.run(["git", "init", "-q"], check=True)
Path("calc.py").write_bytes(b"def add(a, b):\r\n    return a - b\r\n\r\n\r\ndef sub(a, b):\r\n    return a - b\r\n")
Path("README.md").write_text("# calc\n\nTODO: document add and sub\n")
Path(".gitignore").write_text("*.log\n")
Path("debug.log").write_text("TODO this log is ignored\n")
Path("logo.png").write_bytes(b"\x89PNG\r\n\x1a\n" + bytes(64))
for age, name in enumerate(["calc.py", "README.md", ".gitignore"]):  # fixed times: calc.py is the newest
    os.utime(name, (1_750_000_000 - age * 60,) * 2)
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# A tool receives a `RunContext` whose `deps` is decode's `AgentDeps`: the executor, the settings,
# the Harness Home, the Read Ledger. The composition root of lesson 02 builds them, with the local
# executor (lesson 05 opens it). We take the deps of a loop it built and call the tools directly,
# as the agent would.

# %%
from pydantic_ai import ModelRetry, RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings

deps = build_loop(LoopOptions(home=project, settings=Settings(), model="test")).loop.deps
ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())
print(deps.workspace == project, deps.harness_home == project)


def show_retry(exc: ModelRetry) -> None:
    """What the model is told (the scratch folder's path differs on every run)."""
    print("ModelRetry:", str(exc).replace(str(project), "<project>"))


# %% [markdown]
# ## 1. `read`: numbered lines, one page at a time
#
# Each tool module declares its tool beside the function: `decode/tools/read.py` ends with `READ`,
# the name the model calls, the function, and its traits — read-only, governed by `Read` rules,
# its path in the `path` argument. The agent and the permission gate read only that.

# %%
from decode.tools.read import READ, read

print(READ.name, READ.function is read)
print(READ.traits)

# %% [markdown]
# The tool is async (it awaits the executor), so we `await` it. Numbered lines let the model (and
# you) refer to `calc.py:2`. The `\r\n` endings of this file are not shown: the model sees plain lines.

# %%
print(await read(ctx, "calc.py"))

# %% [markdown]
# A big file comes a page at a time, with a note saying how to continue. Memory stays bounded:
# lines are read one by one, each at most a few KB, however large the file.

# %%
Path("big.txt").write_text("".join(f"row {n}\n" for n in range(1, 5001)))
page = await read(ctx, "big.txt", offset=1990, limit=3)
print(page)

# %% [markdown]
# Images and binary files are refused with a clear message instead of a screen of garbage.
# Mistakes the model can fix are a `ModelRetry`: pydantic-ai sends the message back to the model,
# which tries again.

# %%
print(await read(ctx, "logo.png"))
try:
    await read(ctx, "calc.pyy")
except ModelRetry as exc:
    show_retry(exc)

# %% [markdown]
# ## 2. Paths stay inside the Workspace
#
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
# ## 3. `edit`: exact, unique, and only on files read as they are
#
# `edit` replaces text the model *believes* is in the file. So the file must have been read in
# this session and not changed since: the Read Ledger keeps a stamp (size, modification time)
# of every file read.

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
# ## 4. `write`: atomic, with parents
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
# ## 5. `glob` and `grep`: finding things
#
# `glob` lists files by pattern, newest first (what was touched last is likely what matters), and
# skips what `.gitignore` ignores.

# %%
from decode.tools.glob import glob

print(await glob(ctx, "**/*.md"))
print(await glob(ctx, "**/*.log"))

# %% [markdown]
# `grep` runs ripgrep (the `ripgrep` package puts `rg` in the virtual environment). Three output
# modes: `files` (the default), `content` (`path:line:text`, context lines as `path-line-text`)
# and `count`.

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
# ## 6. Long outputs: head, tail, and the rest in a file
#
# A grep over a big tree can return megabytes. Past the limit (`DECODE_TOOL_OUTPUT_LIMIT`, 30,000
# characters) the model gets the head and the tail, and the name of a file under
# `.decode/tool-output/` holding everything.

# %%
from decode.tools.truncate import shorten

long_text = "".join(f"match {n}\n" for n in range(10_000))
short = shorten(long_text, 200, harness_home=project, label="demo")
saved = short.split("the full output is in ")[1].split(" ")[0]
print(short.replace(saved.removeprefix("harness:tool-output/"), "<name>"))

# %% [markdown]
# That file belongs to decode, not to the project: it lives in the Harness Home, and once a sandbox
# holds the Workspace (lesson 05's seam) the executor cannot even see it. So the note names it
# `harness:tool-output/NAME`, and `read` and `grep` open `harness:` paths on decode's side
# (`decode/tools/harness_files.py`), confined to that folder.

# %%
print((await read(ctx, saved, offset=9999, limit=2)).replace(saved, "<saved>"))
print((await grep(ctx, "^match 4242$", path=saved, output_mode="content")).replace(saved, "<saved>"))

# %% [markdown]
# ## 7. The agent uses them
#
# The tool catalog (`decode/tools/catalog.py`) lists the declarations; each kind (read-only or
# file-edit) and rule name is what the permissions lesson will use. Here a scripted model plays the
# agent fixing `sub`. `build_agent` adds no permission hook unless asked (lesson 06 asks).

# %%
import json

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.entities.events import ToolCallFinished, ToolCallStarted, TurnFinished
from decode.models.script import ScriptedModel
from decode.tools.catalog import FILE_TOOLS

for spec in FILE_TOOLS:
    print(f"{spec.name:6} {spec.traits.kind:10} {spec.traits.rules}")
script = Path(tempfile.mkdtemp()) / "turns.json"
script.write_text(
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
loop = AgentLoop(build_agent(ScriptedModel.from_file(script), tools=FILE_TOOLS), deps)
async for event in loop.run_turn("check sub in calc.py"):
    if isinstance(event, ToolCallStarted):
        print("→", event.call.summary())
    elif isinstance(event, ToolCallFinished):
        print("  ", "✗" if event.result.is_error else "✓", event.result.content.splitlines()[0])
    elif isinstance(event, TurnFinished):
        print(event.output)

# %% [markdown]
# Try it yourself: `decode run --model script:turns.json "…"` in a project of yours, with a script
# like the one above; the progress lines on stderr show each tool call.
#
# ## Check yourself

# %%
assert (await read(ctx, "calc.py", limit=1)).startswith("     1\tdef add(a, b):")
assert "offset=1993" in page
assert b"return a + b\r\n" in Path("calc.py").read_bytes()
assert "README.md" in (await glob(ctx, "*.md")).splitlines()
assert "debug.log" not in await grep(ctx, "TODO")
assert "characters not shown" in short
assert len(short) < 400
assert saved.startswith("harness:tool-output/")
assert (await read(ctx, saved, limit=1)).startswith("     1\tmatch 0")
refused = False
try:
    await read(ctx, "../x")
except ModelRetry:
    refused = True
assert refused, "a path outside the workspace was read"
print("all checks passed")
