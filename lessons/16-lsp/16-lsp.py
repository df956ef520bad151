# %% [markdown]
# # Lesson 16 — Code intelligence over LSP
#
# Ask decode where `size` is defined and it greps for `def size`: fine until there are three of
# them, or the call goes through an import alias, or "where is it used" means calls and not the
# word in a comment. grep sees text. A type checker sees *meaning*: which definition this call
# reaches, every reference to it, the type of an expression, and whether the code still
# type-checks.
#
# The **Language Server Protocol** (LSP) is how editors ask a type checker those questions: a
# server process, JSON-RPC messages over its stdin and stdout. This lesson gives decode a small
# client of its own, talks to `ty server` (Astral's type checker), and uses it twice:
#
# 1. the `lsp` tool: `definition`, `references`, `hover`, `symbols`, `workspace_symbols`,
#    `diagnostics`, at a 1-based line and column like `read` shows them;
# 2. after every `write` and `edit`, the type errors **that edit introduced** are appended to
#    its result: the model sees what it broke before it moves on.
#
# The top complaint about the LSP features of other coding agents is *stale* diagnostics: the
# client waits a guessed delay for the server to push errors, and often reads the ones from
# before the edit. decode *pulls* them, after sending the new text: fresh by construction.
#
# No key and no network: the model is scripted; the server is the real `ty server`.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 16's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `read_message` in `decode/lsp/jsonrpc.py`
# - `to_lsp` in `decode/lsp/positions.py`
# - `new_problems` in `decode/lsp/diagnostics.py`
#
# `make lesson-start N=16` writes your copy into `build/16/`, and `make lesson-check N=16`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch project with two files: `lib.py` defines `size`, `app.py` calls it.

# %%
import asyncio
import json
import os
import shutil
import sys
import tempfile
from pathlib import Path

from course import show, show_diff

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson16-")).resolve()
project = scratch / "project"
project.mkdir()
LESSON = Path.cwd()  # the notebook runs in its lesson's folder
for name in ("lib.py", "app.py"):
    shutil.copy(LESSON / name, project / name)
os.chdir(project)
print((project / "lib.py").read_text())
print((project / "app.py").read_text())

# %% [markdown]
# ## 1. The protocol in twenty lines
#
# Every LSP message is a header block and a JSON body: `Content-Length: N`, an empty line, then
# N **bytes** of JSON (bytes, not characters: `é` is two). A request has an `id` and gets one
# response with the same `id`; a notification has none and gets none. We start `ty server`, send
# `initialize` (saying we can *pull* diagnostics), open `app.py`, and pull.

# %%
TY = shutil.which("ty") or str(Path(sys.executable).parent / "ty")


def frame(message: dict) -> bytes:
    body = json.dumps(message).encode()
    return b"Content-Length: %d\r\n\r\n" % len(body) + body


async def receive(stdout: asyncio.StreamReader) -> dict:
    length = 0
    while (line := await stdout.readline()) != b"\r\n":  # headers end at an empty line
        if line.lower().startswith(b"content-length:"):
            length = int(line.split(b":")[1])
    return json.loads(await stdout.readexactly(length))


async def answer_to(server, request_id: int) -> dict:
    while (message := await receive(server.stdout)).get("id") != request_id or "method" in message:
        pass  # a notification, or a request of the server's: not our answer
    return message


server = await asyncio.create_subprocess_exec(
    TY, "server", stdin=asyncio.subprocess.PIPE, stdout=asyncio.subprocess.PIPE, stderr=asyncio.subprocess.DEVNULL
)
pull = {"textDocument": {"diagnostic": {"dynamicRegistration": False}}}
initialize = {"processId": None, "rootUri": project.as_uri(), "capabilities": pull}
server.stdin.write(frame({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": initialize}))
capabilities = (await answer_to(server, 1))["result"]["capabilities"]
print("ty offers:", sorted(key for key in capabilities if key.endswith("Provider"))[:8])

# %%
app = project / "app.py"
server.stdin.write(frame({"jsonrpc": "2.0", "method": "initialized", "params": {}}))
document = {"uri": app.as_uri(), "languageId": "python", "version": 1, "text": app.read_text()}
server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didOpen", "params": {"textDocument": document}}))
which = {"textDocument": {"uri": app.as_uri()}}
server.stdin.write(frame({"jsonrpc": "2.0", "id": 2, "method": "textDocument/diagnostic", "params": which}))
print("errors now:", (await answer_to(server, 2))["result"]["items"])

# %% [markdown]
# Now the edit: the new text as version 2 (`didChange` with the full text), then pull again. The
# answer describes version 2 at once: no waiting, no guessing whether the server has caught up.

# %%
change = {
    "textDocument": {"uri": app.as_uri(), "version": 2},
    "contentChanges": [{"text": "from lib import size\n\ncount: int = size(3)\n"}],
}
server.stdin.write(frame({"jsonrpc": "2.0", "method": "textDocument/didChange", "params": change}))
server.stdin.write(frame({"jsonrpc": "2.0", "id": 3, "method": "textDocument/diagnostic", "params": which}))
for item in (await answer_to(server, 3))["result"]["items"]:
    print(item["range"]["start"], item["code"], "·", item["message"])
server.kill()
exit_code = await server.wait()

# %% [markdown]
# That is the whole idea. Positions are 0-based, and `character` counts **UTF-16 code units**
# (line 2, character 18 is the `3`: line 3, column 19 as `read` would number it). What the package
# adds around it: a reader that rejects broken frames and stops at the end of the stream (`receive`
# above would spin forever once the server exits), timeouts on every request, the server's own
# requests answered, documents kept in sync, a server that dies or hangs, results the model may
# see, and the comparison that tells new errors from old ones.

# %% [markdown]
# ## 2. The JSON-RPC connection
#
# `read_message` reads one frame, whatever the pipe hands over at a time (a body may come in
# pieces); anything that is not a frame is a `FramingError`, never a hang or a crash of decode.

# %%
show("decode.lsp.jsonrpc", "read_message")

# %% [markdown]
# A `Connection` is one reader task and a future per request: `request()` sends, then waits on
# its future under a timeout; the reader task routes each response to its future, each
# notification to a callback, and answers the server's own requests (`workspace/configuration`,
# `client/registerCapability`…). When the server's output ends, every waiting request fails at
# once with `ConnectionClosed` instead of waiting out its timeout.

# %%
show("decode.lsp.jsonrpc", "Connection.request")

# %% [markdown]
# ## 3. Positions: 1-based code points, 0-based UTF-16
#
# The model counts like `read` numbers lines: line 1, column 1 is the first character. LSP counts
# from 0, in UTF-16 units, where a character outside the Basic Multilingual Plane (an emoji,
# `𝔘`) takes two. Get it wrong and every request after an emoji on a line asks about the wrong name.
# Below, `size` is column 15; its LSP offset is 15 too, not 14: the emoji before it takes two units.

# %%
from decode.lsp.positions import from_lsp, to_lsp

line = 'label = "😀" + size(3)'
column = line.index("size") + 1
print("column", column, "→", to_lsp(line, 1, column), "→ back:", from_lsp(line, to_lsp(line, 1, column)))

# %% [markdown]
# ## 4. The client, and which server
#
# `LspClient.sync` keeps the server's copy of a file equal to what is on disk: `didOpen` the first
# time, then `didChange` with the whole text and a new version whenever it differs. `diagnostics`
# pulls when the server can (ty); pylsp cannot, so for it the client keeps the newest
# `publishDiagnostics` push and waits briefly for one of the current version.

# %%
show("decode.lsp.client", "LspClient.diagnostics")

# %% [markdown]
# Which server handles a file is a table by suffix: `ty server` for Python, unless
# `DECODE_LSP_SERVERS` says otherwise (`{".py": ["pylsp"]}`; `{".rs": ["rust-analyzer"]}` adds one).

# %%
from decode.lsp.servers import server_for

print(server_for(project / "app.py", {}))
print(server_for(project / "app.py", {".py": ["pylsp"]}))
print(server_for(project / "README.md", {}))

# %% [markdown]
# ## 5. The manager: started when needed, restarted once
#
# `deps.lsp` is an `LspManager`. The first request about a Python file starts `ty server` through
# `executor.spawn`: the same seam as `bash`, so with a sandbox (lesson 17) the server runs inside
# it and sees the files the tools see. Every request has a timeout. A server whose output ends is
# started again and the request retried; one that does not answer in time is killed, to be started
# again by the next request. The second time, it stays off, and the model is told to use read and grep.

# %%
show("decode.lsp.manager", "LspManager.run")

# %%
import logging
import signal

from decode.lsp.manager import LspManager
from decode.processes.local import LocalExecutor

logging.getLogger("decode.lsp").setLevel(logging.ERROR)  # each death is logged as a warning: not here
manager = LspManager(LocalExecutor(project), timeout=60)  # generous: a dead server is seen at once, not at it
lib = project / "lib.py"


async def outline(client):
    await client.sync(lib, lib.read_text())
    return [symbol["name"] for symbol in await client.document_symbols(lib)]


print("symbols:", await manager.run(lib, outline))
for death in (1, 2):
    os.kill(manager.pid_of(lib), signal.SIGKILL)  # the server crashes
    try:
        print(f"after death {death}:", await manager.run(lib, outline))
    except Exception as exc:
        print(f"after death {death}:", type(exc).__name__, "·", str(exc).split(" (")[0])
await manager.close()

# %% [markdown]
# ## 6. Which errors are new
#
# After an edit the model should see the errors *it* caused, not the forty the file already had.
# Lines move when an edit adds some above an old error, so an error is known by what it is, not
# where: (file, severity, message). Before and after are two multisets; what the second holds more
# of is new (ADR-0061).

# %%
show("decode.lsp.diagnostics", "new_problems")

# %% [markdown]
# `EditCheck.start()` runs before the write: it syncs the old text and pulls the diagnostics of
# the file and of the other documents the server has open. `finish()` runs after: the new text,
# the pulls again, the difference. `edit` and `write` call it through two lines each; a server
# that fails adds one short note and never fails the edit:

# %%
show_diff(16, "decode/tools/edit.py")

# %% [markdown]
# ## 7. The `lsp` tool
#
# The tool takes a position, or a `symbol` name it finds in the file; its results are
# `path:line:column: line of code`, relative to the Workspace. Results outside the Workspace are
# counted but not shown; those in files the read rules hide (secret files, deny rules) are
# dropped, as grep drops them.

# %%
show("decode.lsp.results", "render")

# %% [markdown]
# ## 8. A scripted model edits, and sees what it broke
#
# `break.json` plays the model: it reads `app.py`, changes the call to `size(3)`, reads the edit's
# result, and puts a string back. Everything is the real composition root: the real tools, the
# real gate (in `accept-edits` mode, so edits run without asking), the real `ty server`. The
# language servers are a step of the composition root, after the deps they join:

# %%
show("decode.agent.steps.lsp", "language_servers")

# %%
from decode.agent.compose import LoopOptions, build_loop, close_conversation
from decode.config.settings import Settings
from decode.permissions.types import Mode

(project / "app.py").write_text('from lib import size\n\ncount: int = size("abc")\n')
options = LoopOptions(project, model=f"script:{LESSON / 'break.json'}", permission_mode=Mode.ACCEPT_EDITS)
conversation = build_loop(options, Settings(_env_file=None))
async for event in conversation.loop.run_turn("call size with 3"):
    if event.kind == "tool_result" and event.result.name == "edit":
        print("the model reads:", event.result.content, sep="\n", end="\n\n")
    elif event.kind == "turn_finished":
        print("answer:", event.output)
await close_conversation(conversation)

# %% [markdown]
# The first edit's result names the error, at the 1-based line and column `read` would show; the
# second edit introduced nothing, so its result is the plain line.
#
# In the REPL and `decode run` it is the same: `DECODE_LSP_SERVERS` picks the servers, `DECODE_LSP=false`
# turns them off, `DECODE_LSP_TIMEOUT` (10 s) bounds each request and `DECODE_LSP_EDIT_TIMEOUT` (2 s)
# the check after an edit. The servers stop when the conversation ends. Because `DECODE_LSP_SERVERS`
# names programs decode starts, a project's `.env` cannot set it (decode warns and ignores it):
# a repository you cloned must not choose what runs on your machine (ADR-0068). Your shell's
# environment still can.

# %% [markdown]
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. Read LSP frames
#
# Write `read_frames(buffer)`: the whole messages at the start of `buffer` (bytes), and the bytes
# left over. A message that has not fully arrived (cut in its header or its body) stays in the
# leftover, whole, for the next read. `Content-Length` counts bytes; other headers may come first.

# %%
from exercises import check_new_errors, check_read_frames, check_to_utf16


def read_frames(buffer: bytes) -> tuple[list[dict], bytes]:
    raise NotImplementedError  # your code here


# %%
check_read_frames(read_frames)

# %% [markdown]
# ### 2. A column in UTF-16
#
# Write `to_utf16(line, column)`: the 0-based UTF-16 offset of the 1-based code-point `column` on
# `line`. A character above U+FFFF takes two units; a column just past the end means the end.


# %%
def to_utf16(line: str, column: int) -> int:
    raise NotImplementedError  # your code here


# %%
check_to_utf16(to_utf16)

# %% [markdown]
# ### 3. Which errors are new
#
# Write `new_errors(before, after)`: each error is `(file, line, message)`; return the errors of
# `after` that are new, known by file and message. An error that only moved is not new; a second
# copy of an old one is. `collections.Counter` helps.


# %%
def new_errors(before: list[tuple[str, int, str]], after: list[tuple[str, int, str]]) -> list[tuple[str, int, str]]:
    raise NotImplementedError  # your code here


# %%
check_new_errors(new_errors)

# %% [markdown]
# ## Recap
#
# **What you built:** a small LSP client, the `lsp` tool, and the type errors an edit introduced,
# appended to its result.
#
# - LSP is JSON-RPC over a Language Server's stdin and stdout; decode talks to `ty server` by
#   default, started through the executor on first use, restarted once.
# - Positions are 1-based code points for the model, 0-based UTF-16 for the server.
# - The `lsp` tool answers definition, references, hover and symbols at a line and column as `read`
#   shows them.
# - After `write` and `edit`, decode pulls the file's diagnostics (Pull Diagnostics) and reports the
#   New Errors: after less before.
#
# **The key idea:** ask for the errors after sending the new text instead of waiting for a push:
# fresh by construction, never a guessed delay.
#
# **Glossary:** [Language Server](../../docs/glossary.md#language-server),
# [Pull Diagnostics](../../docs/glossary.md#pull-diagnostics),
# [New Errors](../../docs/glossary.md#new-errors).
