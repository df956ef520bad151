# %% [markdown]
# # Lesson 14 — MCP servers
#
# decode's tools so far are its own: files, bash, the web. Every team has more: an issue tracker, a
# database, a docs search, a deploy button. Writing each into decode would never end, and the same
# tools would be written again for every other agent. The **Model Context Protocol** (MCP) is the
# agreement that ends this: a program (an **MCP server**) lists its tools and runs them when asked,
# and any agent that speaks the protocol can use them. Claude Code, Cursor, Codex and others read
# the same `.mcp.json`, so a project's servers, once configured, work in decode too.
#
# This lesson builds decode's side of it (`decode/mcp/`):
#
# 1. the protocol itself, by hand, against a 20-line server;
# 2. the configuration files, with `${VAR:-default}` expansion and errors that cost one server only;
# 3. the tools' names (`mcp__server__tool`) and how the Permission Gate governs them;
# 4. **Project Trust**: a cloned repository's `.mcp.json` starts nothing until you say so;
# 5. servers started in the background, hung or crashing ones reported once;
# 6. the tools in a real conversation, on the scripted model;
# 7. **Tool Search**, for servers with many tools;
# 8. what `decode mcp list` and `/mcp` show.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 14's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `sanitise` in `decode/mcp/names.py`
# - `tool_name` in `decode/mcp/names.py`
# - `expand` in `decode/mcp/config.py`
#
# `make lesson-start N=14` writes your copy into `build/14/`, and `make lesson-check N=14`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# We work in a scratch folder with its own `HOME`, so your own `~/.decode/` stays out of it. Paths
# print as `<scratch>/…`. Warnings decode logs (a server that fails, a bad file) are collected into a
# list, to print where they teach.

# %%
import json
import logging
import os
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show, show_diff

LESSON = Path.cwd()  # the notebook runs in its lesson's folder
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson14-")).resolve()
os.environ["HOME"] = str(scratch / "home")
project = scratch / "project"
project.mkdir()
os.chdir(project)


def shown(text: object) -> str:
    """Text with the scratch folder's path (different on every run) replaced by `<scratch>`, the
    lesson's folder by `<lesson>`."""
    return (
        str(text).replace(str(scratch), "<scratch>").replace(sys.executable, "python").replace(str(LESSON), "<lesson>")
    )


class Collect(logging.Handler):
    def emit(self, record: logging.LogRecord) -> None:
        logged.append(shown(record.getMessage()))


logged: list[str] = []
logging.getLogger("decode").addHandler(Collect())
logging.getLogger("decode").propagate = False

# %% [markdown]
# ## 1. The protocol, by hand
#
# An MCP server over **stdio** is a program that reads JSON-RPC messages on its stdin, one per line,
# and writes its answers on stdout. Its stderr is its own (decode keeps it in a log file). Here is a
# whole server, without any SDK: it answers `initialize`, lists one tool, and runs it.

# %%
print((LESSON / "tiny_server.py").read_text())

# %% [markdown]
# A client starts it, introduces itself (`initialize`, then the `notifications/initialized`
# notification, which has no `id` and gets no answer), asks for the tools, and calls one. Each
# request carries an `id`; the answer with the same `id` is its result:

# %%
server = subprocess.Popen(
    [sys.executable, str(LESSON / "tiny_server.py")], stdin=subprocess.PIPE, stdout=subprocess.PIPE, text=True
)


def send(message: dict) -> None:
    print("→", json.dumps(message))
    server.stdin.write(json.dumps(message) + "\n")
    server.stdin.flush()
    if "id" in message:
        print("←", server.stdout.readline().strip())


hello = {"protocolVersion": "2025-06-18", "capabilities": {}, "clientInfo": {"name": "by-hand", "version": "1"}}
send({"jsonrpc": "2.0", "id": 1, "method": "initialize", "params": hello})
send({"jsonrpc": "2.0", "method": "notifications/initialized"})
send({"jsonrpc": "2.0", "id": 2, "method": "tools/list"})
send({"jsonrpc": "2.0", "id": 3, "method": "tools/call", "params": {"name": "shout", "arguments": {"text": "hi"}}})
server.stdin.close()
_ = server.wait()

# %% [markdown]
# That is the whole idea. A real client adds what this one skips: timeouts, a server that never
# answers or dies mid-call, notifications that the tool list changed, HTTP servers. decode uses
# pydantic-ai's MCP client (`MCPToolset`, on fastmcp's transports) for the protocol, and adds what an
# agent in your terminal needs around it: where servers come from, who may start them, what their
# tools are called, and what happens when they misbehave.

# %% [markdown]
# ## 2. Where servers come from
#
# Two files, in the shape every MCP client reads:
#
# | file | whose | note |
# |---|---|---|
# | `~/.decode/mcp.json` | yours | servers you want in every project |
# | `.mcp.json` at the project's root | the project's (Claude Code's file) | shared through git: it needs trust |
#
# An entry is a stdio server (`command`, `args`, `env`, `cwd`) or an HTTP one (`type: "http"` or
# `"sse"`, `url`, `headers`), plus `disabled`, `startup_timeout_sec` and `tool_timeout_sec`. Values
# may name environment variables, `${VAR}` or `${VAR:-default}`, expanded as the shell does:

# %%
show("decode.mcp.config", "expand")

# %% [markdown]
# Each entry is checked by a pydantic model (one per kind, told apart by `type`), so a mistake
# becomes a message naming the key:

# %%
show("decode.mcp.config", "StdioServer")

# %%
from decode.mcp.config import load_mcp_config

servers_file = {
    "mcpServers": {
        "notes": {"command": sys.executable, "args": [str(LESSON / "notes_server.py")]},
        "time": {"command": "mcp-server-time", "args": ["--local-timezone", "${TZ_NAME:-UTC}"]},
        "tracker": {"type": "http", "url": "https://tracker.example/mcp", "headers": {"Authorization": "${TOKEN}"}},
        "broken": {"args": ["--port", "8080"]},
    }
}
(project / ".mcp.json").write_text(json.dumps(servers_file, indent=2))

config = load_mcp_config(project, {"TOKEN": "Bearer abc"})
for server in config.servers:
    print(f"{server.name:8} {server.scope:8} {shown(server.definition.model_dump(exclude_defaults=True))}")
for problem in config.problems:
    print(shown(problem))

# %% [markdown]
# `broken` has no `command`: it is left out with one problem naming the file and the key, and the
# other three still load. (decode expands variables from its environment *without its own keys*: a
# `.mcp.json` cannot hand `${GEMINI_API_KEY}` to a program of its choosing.)

# %% [markdown]
# ## 3. Names and rules
#
# Providers accept tool names of ASCII letters, digits, `_` and `-`, at most 64 characters. Servers
# name their tools as they like, so decode builds `mcp__<server>__<tool>` from sanitised parts. The
# double underscore separates the parts, so it never appears inside one:

# %%
show("decode.mcp.names", "tool_name")

# %%
from decode.mcp.names import tool_name

for server, tool in [("time", "get_current_time"), ("my.server", "search docs"), ("a__b", "c"), ("docs", "x" * 80)]:
    print(f"{server!r:12} {tool[:20]!r:24} → {tool_name(server, tool)}")

# %% [markdown]
# Two servers can still end with the same name (`my.echo` and `my_echo`): the first keeps it, the
# second's tool is left out and reported once. An MCP tool carries **traits** like every decode
# tool: kind `other` (a server's own `readOnlyHint` is its word, not proof, so it is not trusted),
# answering to its own name. The rules of lesson 06 already read such names: `mcp__github` covers
# every tool of the server, `mcp__github__create_issue` one. A deny holds in every mode, bypass too.

# %%
from decode.permissions.rules import parse_rule, tool_matches
from decode.permissions.types import Decision

name = tool_name("github", "create_issue")
for rule in ("mcp__github", "mcp__github__*", "mcp__github__create_issue", "mcp__git"):
    print(f"{rule:28} covers {name}: {tool_matches(parse_rule(rule, Decision.DENY), name)}")

# %% [markdown]
# ## 4. Project Trust
#
# A `.mcp.json` arrives with `git clone`, and its `command` can be any program. Starting it when
# decode starts would run a stranger's code before you typed anything. So a project's servers start
# only once you have trusted them: the REPL asks (through the Decision Channel of lesson 06),
# `decode mcp trust` says yes from the shell, `decode run --trust-project-mcp` for one headless run.
# The yes is kept in *your* home, keyed by the project's path, for a hash of the entries as written:

# %%
show("decode.mcp.trust", "fingerprint")

# %%
from decode.mcp.trust import is_trusted, trust

project_servers = load_mcp_config(project, {}).project_servers()
print("before:", is_trusted(project, project_servers))
print("trusted in", shown(trust(project, project_servers)))
print("after:", is_trusted(project, project_servers))

changed = json.loads((project / ".mcp.json").read_text())
changed["mcpServers"]["notes"]["args"].append("--and-something-else")
(project / ".mcp.json").write_text(json.dumps(changed))
print("after a change:", is_trusted(project, load_mcp_config(project, {}).project_servers()))
_ = (project / ".mcp.json").write_text(json.dumps(servers_file))  # back as it was: trusted again

# %% [markdown]
# ## 5. Started in the background
#
# Each server gets a task of its own: connect, `initialize`, list the tools, then wait to be stopped.
# Nothing waits for it to start: the REPL draws its prompt at once. Before each model request, the
# servers still starting are given until their `startup_timeout_sec`; one that misses it keeps
# starting and its tools join the first request after it is ready. One that fails (or hangs past six
# start-up timeouts) is reported once, with the tail of its stderr, and its tools are withdrawn.

# %%
show("decode.mcp.servers", "McpServer._run")

# %% [markdown]
# For this section, just the `notes` server (the lesson's `notes_server.py`, written with the `mcp`
# SDK) and a "server" that exits at once, writing why on its stderr. `notes` is given two minutes
# to start, not the default's 30 s: the wait ends the moment it is ready, and on a machine busy
# enough to start Python slowly this notebook still shows it ready, never "did not answer".

# %%
from decode.mcp.config import ServerConfig, parse_server
from decode.mcp.servers import build_servers

entries = {
    "notes": {"command": sys.executable, "args": [str(LESSON / "notes_server.py")], "startup_timeout_sec": 120},
    "crashy": {"command": "sh", "args": ["-c", "echo 'cannot open the database' >&2; exit 3"]},
}
configs = [ServerConfig(n, parse_server(n, e, {}), project / ".mcp.json", "project", e) for n, e in entries.items()]
servers = build_servers(configs, project, {"PATH": os.environ["PATH"]}, trusted_project=True)
servers.start()
print([(server.name, server.state) for server in servers.servers])  # at once: both starting

await servers.wait_for_starting()
for server in servers.servers:
    print(f"{server.name:7} {server.state:8} {[tool.name for tool in server.tools]}")
print(logged[0].split(":")[0], "| its stderr ended with:", servers.by_name("crashy").stderr_tail())
logged.clear()

# %% [markdown]
# The failure's report carries the last lines the server wrote to stderr, read from its log,
# `.decode/logs/mcp/NAME.log`, which is where all of a server's stderr goes, never your screen.
# A server whose connection breaks during a call is a crash: the call comes back to the model as a
# failed result, the tools are withdrawn, and decode reconnects once.

# %%
await servers.close()
print(sorted(path.name for path in (project / ".decode" / "logs" / "mcp").iterdir()))

# %% [markdown]
# ## 6. The tools in a conversation
#
# `McpTools` is a pydantic-ai toolset whose `get_tools` runs before every model request: it offers
# the tools of the servers ready at that moment, named and with their traits. A call has the server's
# `tool_timeout_sec` (past it, a result saying so: the model can act), and its output is capped like
# every tool's (lesson 04).

# %%
show("decode.mcp.toolset", "McpTools.get_tools")

# %% [markdown]
# The composition root builds the servers with the conversation, in a step of their own, and adds
# the toolset as a capability; the front end starts them on its event loop (or the first request does):

# %%
show("decode.agent.steps.mcp", "load_mcp")

# %%
show_diff(14, "decode/agent/compose.py")

# %% [markdown]
# A whole turn on the scripted model (`notes.json`): it adds a note with the `notes` server's tool,
# then lists them. The project's `.mcp.json` now names `notes` alone, a change, so it is trusted
# again; a rule allows the server's tools (`mcp__notes`).

# %%
from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.entities.events import ToolCallFinished
from decode.permissions.settings_files import add_allow_rules

(project / ".mcp.json").write_text(json.dumps({"mcpServers": {"notes": entries["notes"]}}))
trust(project, load_mcp_config(project, {}).project_servers())
add_allow_rules(project, ["mcp__notes"])  # as an "always" answer saves it, in your local file

conversation = build_loop(LoopOptions(project, model=f"script:{LESSON / 'notes.json'}"), Settings(_env_file=None))
async for event in conversation.loop.run_turn("Remember where the login bug is."):
    if isinstance(event, ToolCallFinished):
        print(f"{event.result.name}: {event.result.content}")
print(conversation.loop.history[-1].parts[0].content)
await conversation.mcp.close()

# %% [markdown]
# ## 7. Many tools: Tool Search
#
# Every tool's schema is sent with every request. A server with a hundred tools can cost tens of
# thousands of characters each time, before the model reads a word of the task. So when the MCP tool
# definitions are larger than `DEFER_OVER` characters, `McpTools` marks them for **deferred
# loading**: the model then sees pydantic-ai's `search_tools` instead, and a tool's full schema
# arrives once a search found it. (The scripted model, like a chat-completions model, has no
# provider-native tool search, so the local `search_tools` is what it gets.)

# %%
from mcp import types

from decode.mcp.toolset import DEFER_OVER, definition, definitions_size

hundred = [
    types.Tool(name=f"lookup_{i:03}", description=f"Look up records of kind {i}.", input_schema={"type": "object"})
    for i in range(100)
]
size = definitions_size([definition(tool_name("catalogue", t.name), t) for t in hundred])
print(f"{size:,} characters of definitions; deferred past {DEFER_OVER:,}: {size > DEFER_OVER}")

# %% [markdown]
# `search_tools` only reads names and descriptions, so its traits say `side-effect-free`: it never
# asks. The benchmark `evals/perf/bench_mcp.py` measures the first request of a real `decode run`
# with a server of 100 tools: under the 20,000-character budget, where sending the schemas whole
# would take over 50,000.

# %% [markdown]
# ## 8. Seeing them: `decode mcp list` and `/mcp`
#
# Both print each server's state (starting, ready, failed and why, disabled, untrusted), its tools
# and the file it came from. A disabled server is listed and never started (nor asked about: trust
# is given for the servers that would start, so `notes` is still trusted from section 6).

# %%
from decode.mcp.loading import load_servers
from decode.mcp.status import describe_servers

(project / ".mcp.json").write_text(
    json.dumps({"mcpServers": {"notes": entries["notes"], "off": {"command": "x", "disabled": True}}})
)
listed = load_servers(project, Settings(_env_file=None))  # what `decode mcp list` does
await listed.wait_for_starting()
print("\n".join(describe_servers(listed, project)))
await listed.close()

# %% [markdown]
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. Expand `${VAR}` and `${VAR:-default}`
#
# Write `expand(text, env)`: `${NAME}` becomes `env[NAME]` (or `''` when it is not set), and
# `${NAME:-default}` becomes the value, or `default` when the variable is unset *or empty* (as the
# shell does). Anything else, `$NAME` without braces included, stays as it is.

# %%
from exercises import check_expand


def expand(text: str, env: dict[str, str]) -> str:
    raise NotImplementedError  # your code here


# %%
check_expand(expand)

# %% [markdown]
# ### 2. A tool name every provider accepts
#
# Write `tool_name(server, tool)`: `mcp__<server>__<tool>`, where in each part every character other
# than ASCII letters, digits, `_` and `-` becomes `_`, runs of `_` become one, and `_` at either end
# is dropped (so a part never holds the `__` that separates them). At most 64 characters.

# %%
from exercises import check_tool_name


def tool_name(server: str, tool: str) -> str:
    raise NotImplementedError  # your code here


# %%
check_tool_name(tool_name)

# %% [markdown]
# ## Recap
#
# **What you built:** decode's side of the Model Context Protocol: MCP servers' tools in decode's
# conversations.
#
# - The protocol is JSON-RPC to a program that lists its tools and runs them; `.mcp.json` files
#   configure the servers, a broken entry costing that server only.
# - An MCP tool is named `mcp__server__tool`, and the Permission Gate's rules govern it like any
#   other.
# - Project Trust: a cloned repository's `.mcp.json` starts nothing until you trust it.
# - Servers start in the background (the prompt never waits); a hung or crashing one is reported
#   once.
# - Tool Search: past a size, the definitions are deferred and the model finds them with
#   `search_tools`.
#
# **The key idea:** a standard protocol turns every team's tools into decode's tools, and the gate
# and trust decide which of them may run.
#
# **Glossary:** [MCP Server](../../docs/glossary.md#mcp-server),
# [MCP Tool Name](../../docs/glossary.md#mcp-tool-name),
# [Project Trust](../../docs/glossary.md#project-trust),
# [Tool Search](../../docs/glossary.md#tool-search).
