# %% [markdown]
# # Lesson 05 — Bash and the executor seam
#
# With `bash` the agent can do what you do in a terminal: run the tests, install a package, ask
# git. It is the most powerful tool and the most dangerous, so it comes with rules:
#
# - every call is a fresh `bash -c` in its **own process group**, in the Workspace, stdin closed;
# - past its timeout (120 s, at most 600 s) or on abort, **everything it started** is killed: no orphans;
# - the model gets the exit code, stdout and stderr, each cut to head + tail past 30,000 characters
#   with the full text saved to a file; the front end sees the output **as it comes**;
# - the environment carries **none of decode's secrets**.
#
# Lesson 04 opened the **executor seam** (`decode/entities/executor.py`): tools never start a
# process themselves, they ask `deps.executor`. Its `LocalExecutor.run` was a plain asyncio
# subprocess. This lesson shows why that is not enough for commands a model writes, builds the
# fix by hand, then reads the package's version and the `bash` tool on top of it.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 05's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `bash` in `decode/tools/bash.py`
# - `command_environment` in `decode/processes/environment.py`
# - `OutputCapture.feed` in `decode/tools/capture.py`
#
# `make lesson-start N=05` writes your copy into `build/05/`, and `make lesson-check N=05`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import os
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

from course import show, show_diff

project = Path(tempfile.mkdtemp(prefix="decode-lesson05-")).resolve()
os.chdir(project)
Path("test_math.py").write_text("assert 2 + 2 == 4\nprint('1 passed')\n")


def running(pid: int) -> bool:
    """Alive, and not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def wait_until(condition: Callable[[], object], seconds: float = 60.0) -> bool:
    """Poll `condition` until it holds or `seconds` pass: a process dies a little after its kill (on
    a busy machine, a while after)."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


def pid_in(name: str) -> int:
    """The pid a command wrote to the file `name`, once it has written it."""
    assert wait_until(lambda: Path(name).exists() and Path(name).read_text().strip()), f"no pid in {name}"
    return int(Path(name).read_text())


print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. A timeout is not enough
#
# `subprocess.run(..., timeout=)` is the obvious way to stop a command that runs too long. On
# timeout it kills the process it started: here `bash`. But the command put a `sleep` in the
# background first (`&`), and that child is not `bash`. It writes its pid to `bg.pid` so we can
# look for it afterwards.

# %%
import subprocess

COMMAND = "sleep 100 & echo $! > bg.pid; sleep 100"
try:
    subprocess.run(["bash", "-c", COMMAND], capture_output=True, timeout=2)
except subprocess.TimeoutExpired:
    print("timed out: bash was killed")
background = pid_in("bg.pid")
print("background sleep still running:", running(background))

# %% [markdown]
# The orphan re-parents to init and sleeps on. A test server, a `watch`, a build started with `&`
# would keep running after the agent moved on, and keep holding whatever it held (a port, a lock,
# our output pipe). Clean up by hand this once:

# %%
import signal

os.kill(background, signal.SIGKILL)
print("after kill:", wait_until(lambda: not running(background)))

# %% [markdown]
# ## 2. A process group, killed whole
#
# Every process belongs to a *process group*, and `os.killpg` signals a whole group at once. A
# child inherits its parent's group, so the background `sleep` is in `bash`'s group. But `bash`
# is in *our* group (the notebook kernel's): killing that group would kill the kernel.
# `start_new_session=True` runs `setsid()` in the child before `bash` starts: `bash` leads a
# fresh session and process group whose id is its pid, and everything it starts joins it.

# %%
Path("bg.pid").unlink()
process = subprocess.Popen(["bash", "-c", COMMAND], stdout=subprocess.PIPE, start_new_session=True)
print("bash leads its own group:", os.getpgid(process.pid) == process.pid != os.getpgid(0))
try:
    process.communicate(timeout=2)
except subprocess.TimeoutExpired:
    os.killpg(process.pid, signal.SIGKILL)  # the group's id is bash's pid
    process.communicate()  # every writer of the pipe is dead now: it reaches end of file
background = pid_in("bg.pid")
print("background sleep gone:", wait_until(lambda: not running(background)))

# %% [markdown]
# ## 3. A minimal bash tool, on the scripted model
#
# That is the core of a bash tool. Here it is as an async tool an agent can call (lesson 04's
# file tools have the same shape): `bash -c` in the Workspace, stdin closed, stdout and stderr
# together, and on timeout the whole group killed.

# %%
import asyncio

from pydantic_ai import RunContext

from decode.entities.deps import AgentDeps


async def mini_bash(ctx: RunContext[AgentDeps], command: str, timeout: float = 10) -> str:  # noqa: ASYNC109
    """Run a command with `bash -c` in the working directory; returns exit code and output."""
    process = await asyncio.create_subprocess_exec(
        "bash",
        "-c",
        command,
        cwd=ctx.deps.workspace,
        stdin=asyncio.subprocess.DEVNULL,
        stdout=asyncio.subprocess.PIPE,
        stderr=asyncio.subprocess.STDOUT,
        start_new_session=True,
    )
    try:
        output, _ = await asyncio.wait_for(process.communicate(), timeout)
    except TimeoutError:
        os.killpg(process.pid, signal.SIGKILL)
        await process.wait()
        return f"killed after {timeout:g} s (timeout)"
    return f"exit code: {process.returncode}\n{output.decode(errors='replace')}"


# %% [markdown]
# A scripted model (lesson 02) plays the agent's side: it runs the tests, then starts something
# that never ends, with a one-second timeout.

# %%
import json

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.events import ToolCallFinished, ToolCallStarted, TurnFinished
from decode.entities.tools import ToolKind, ToolSpec, ToolTraits
from decode.models.script import ScriptedModel
from decode.processes.local import LocalExecutor


def play(turns: list[dict], tools: list[ToolSpec]) -> AgentLoop:
    """An Agent Loop whose model plays `turns`, with `tools`, in the project."""
    script = Path(tempfile.mkdtemp()) / "turns.json"
    script.write_text(json.dumps(turns))
    deps = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)
    return AgentLoop(build_agent(ScriptedModel.from_file(script), tools=tools), deps)


async def show_turn(loop: AgentLoop, task: str) -> None:
    async for event in loop.run_turn(task):
        if isinstance(event, ToolCallStarted):
            print("→", event.call.summary())
        elif isinstance(event, ToolCallFinished):
            print("  ", event.result.content.rstrip().replace("\n", "\n   "))
        elif isinstance(event, TurnFinished):
            print(event.output)


MINI_BASH = ToolSpec("bash", mini_bash, ToolTraits(ToolKind.OTHER))
Path("bg.pid").unlink()
turns = [
    {"tool_calls": [{"name": "bash", "args": {"command": "python3 test_math.py"}}]},
    {"tool_calls": [{"name": "bash", "args": {"command": COMMAND, "timeout": 1}}]},
    {"text": "The tests pass; the server would not stop, so it was killed."},
]
await show_turn(play(turns, [MINI_BASH]), "run the tests, then the server")
background = pid_in("bg.pid")
print("background sleep gone:", wait_until(lambda: not running(background)))

# %% [markdown]
# ## 4. What the minimal version misses
#
# It works for the common case, and it has four holes a model's commands find quickly:
#
# 1. **A process can leave the group.** `setsid`, `nohup … &` in a new session, a double fork:
#    `killpg` never reaches them.
# 2. **The command exits, its background child stays.** `server &` returns at once; the server
#    runs forever, and holds our pipe, so `communicate()` waits for it until the timeout.
# 3. **Output is unbounded and invisible.** `communicate()` holds all of it in memory, and
#    nothing shows until the end.
# 4. **The environment is ours.** The command inherits every variable, API keys included.
#
# Hole 1, shown: `setsid` starts the `sleep` in a session (and group) of its own, so the
# minimal tool's `killpg` misses it. (Its output goes to `/dev/null`: were it holding our pipe,
# `process.wait()` would wait for it too, all 100 seconds: hole 2.)

# %%
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

ESCAPE = "setsid sleep 100 > /dev/null 2>&1 & echo $! > escaped.pid; sleep 100"
deps = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)
ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage())  # what the agent hands a tool
print(await mini_bash(ctx, ESCAPE, timeout=1))
escaped = pid_in("escaped.pid")
print("escaped sleep still running:", running(escaped))
os.kill(escaped, signal.SIGKILL)

# %% [markdown]
# ## 5. The package's version: `LocalExecutor` with a process group
#
# This lesson replaces lesson 04's plain subprocess in `LocalExecutor` (`decode/processes/local.py`):
# `run()` and `spawn()` hand over to `decode/processes/run.py` and `spawn.py`, and the environment is
# scrubbed (`decode/processes/environment.py`). The process machinery is a package of its own,
# `decode/processes/`, below both the tools and (lesson 17) the sandboxes, which start their `bwrap`
# and `docker` clients through the same functions.

# %%
show_diff(5, "decode/processes/local.py")

# %% [markdown]
# `run_process` is our minimal version grown up. The process still gets `start_new_session=True`;
# around it, decode becomes a *child subreaper* (orphans re-parent to decode, not to init), tags
# the program's environment, and owns the output pipes itself. When the program ends, by exit,
# timeout or abort, `end()` kills everything that belongs to it: its group, its descendants, what
# carries its tag or holds its pipes.

# %%
show("decode.processes.run", "run_process")

# %% [markdown]
# `end()` lives in `decode/processes/tracking.py`, with the registry of tracked programs. How it
# decides what belongs to a program (`decode/processes/ownership.py`): by walking `/proc` from decode down.

# %%
show("decode.processes.ownership", "owners")

# %% [markdown]
# The same escape through the package's executor: the `setsid` child is found and ended. (`run`
# takes one `ExecRequest`, lesson 04's: the program, its timeout and the callbacks its output
# goes to; the same object reaches `run_process`.)

# %%
from decode.entities.executor import ExecRequest

executor = LocalExecutor(project)
output: list[bytes] = []
Path("escaped.pid").unlink()
result = await executor.run(
    ExecRequest(["bash", "-c", ESCAPE], timeout=1, on_stdout=output.append, on_stderr=output.append)
)
escaped = pid_in("escaped.pid")
print("timed out:", result.timed_out, "| escaped sleep still running:", running(escaped))

# %% [markdown]
# And hole 2: a command that exits while its child runs on is over when it exits. The child may
# finish writing for a second (`LEFTOVER_GRACE_S`); then it is stopped, and the result says so.

# %%
Path("bg.pid").unlink()
started = time.monotonic()
result = await executor.run(
    ExecRequest(
        ["bash", "-c", "sleep 100 & echo $! > bg.pid; echo started"],
        timeout=30,
        on_stdout=output.append,
        on_stderr=output.append,
    )
)
background = pid_in("bg.pid")
print("exit code:", result.exit_code, "| stopped leftovers:", result.stopped_leftovers)
waited = time.monotonic() - started
print("returned long before the sleep's 100 s:", waited < 60, "| background running:", running(background))

# %% [markdown]
# `spawn()` got the same treatment: a long-lived program (a language server, an MCP server) in its
# own group, tracked, so `kill()` ends what it started too. `cat` echoes each line back.

# %%
cat = await executor.spawn(["cat"])
cat.stdin.write(b"ping\n")
await cat.stdin.drain()
echoed = await cat.stdout.readline()
cat.stdin.close()
print(echoed, await cat.wait())

# %% [markdown]
# ## 6. The `bash` tool
#
# The tool is a thin layer on `executor.run`: it validates the timeout against the settings,
# streams each chunk to a bounded capture and to the front end, and writes the model's answer.

# %%
show("decode.tools.bash", "bash")

# %% [markdown]
# Called by hand here, as the agent would call it.

# %%
from decode.entities.events import ToolOutputDelta
from decode.tools.bash import bash

streamed: list[ToolOutputDelta] = []
deps = AgentDeps(executor, Settings(), harness_home=project, on_tool_output=streamed.append)
ctx = RunContext(deps=deps, model=TestModel(), usage=RunUsage(), tool_call_id="call-1")

print(await bash(ctx, "python3 test_math.py; echo 'a warning' >&2"))

# %% [markdown]
# Each call is a new shell: `cd` and `export` do not carry over (files do).

# %%
await bash(ctx, "echo hi > note.txt && cd /tmp && export MOOD=happy")
second = await bash(ctx, 'basename "$PWD"; echo "MOOD=${MOOD:-unset}"; cat note.txt')
print(second.replace(project.name, "<project>"))

# %% [markdown]
# A timeout the model asks for beyond the maximum is a retry it can act on, not a crash.

# %%
from pydantic_ai import ModelRetry

try:
    await bash(ctx, "sleep 1", timeout=10_000)
except ModelRetry as retry:
    print("retry:", retry)

# %% [markdown]
# ## 7. Output streams while the command runs
#
# The model only sees the result at the end, but a person watching a two-minute test run wants to
# see it move. Each chunk goes to `deps.on_tool_output` as a `ToolOutputDelta` event (`decode run`
# prints them on stderr, indented under the tool call).

# %%
show("decode.tools.bash", "_streamer")

# %%
streamed.clear()
await bash(ctx, "for i in 1 2 3; do echo step $i; sleep 0.1; done")
print(repr("".join(delta.text for delta in streamed)))

# %% [markdown]
# ## 8. Big output: head, tail, and the whole of it in a file
#
# `seq 1 1000000` prints about 7 MB. `OutputCapture` (`decode/tools/capture.py`) keeps only the
# head and a rolling tail in memory and, once the output passes the limit, streams the raw bytes
# to `.decode/tool-output/` in the Harness Home, so even 50 MB of output costs little.

# %%
show("decode.tools.capture", "OutputCapture.feed")

# %% [markdown]
# The note names the file with a `harness:` path (lesson 04), which `read` opens.

# %%
from decode.tools.read import read

deps.on_tool_output = None  # no need to stream a million lines here
out = await bash(ctx, "seq 1 1000000")
saved = out.split("the full output is in ")[1].split(" ")[0]
print(out[:60].replace("\n", " "), "…", out[-40:].replace("\n", " "))
print(saved.startswith("harness:tool-output/"))
print((await read(ctx, saved, offset=500_000, limit=1)).replace(saved, "<saved>"))

# %% [markdown]
# ## 9. No secrets in the commands' environment
#
# Which variables are secret is not a hand-kept list: decode's own keys are derived from the
# settings' `SecretStr` fields, so a key added later is covered too; other credentials
# (`GITHUB_TOKEN`, `AWS_SECRET_ACCESS_KEY`…) are recognised by name and value.

# %%
show("decode.processes.environment", "command_environment")

# %% [markdown]
# The composition root's executor step gives every local executor that environment:

# %%
show_diff(5, "decode/agent/steps/executor.py")

# %%
print(sorted(Settings.secret_env_names()))
os.environ["OPENROUTER_API_KEY"] = "sk-or-lesson-05-secret"
os.environ["GITHUB_TOKEN"] = "ghp_lesson05notarealtoken0000000000000000"
secretless = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)  # snapshots the environment now
ctx2 = RunContext(deps=secretless, model=TestModel(), usage=RunUsage())
env_out = await bash(ctx2, "env")
del os.environ["OPENROUTER_API_KEY"], os.environ["GITHUB_TOKEN"]
print("decode's key visible:", "sk-or-lesson-05-secret" in env_out, "| GitHub token visible:", "ghp_" in env_out)
print([line for line in env_out.splitlines() if line.startswith(("PAGER=", "GIT_TERMINAL_PROMPT="))])

# %% [markdown]
# ## 10. The agent runs the tests
#
# The default tool set is now the file tools plus `bash`:

# %%
show_diff(5, "decode/tools/catalog.py")

# %% [markdown]
# A scripted model fixes a failing test with it. (There is no permission gate yet: every command
# runs. Lesson 06 puts one in front of every tool call.)

# %%
from decode.tools.catalog import default_tools

Path("test_math.py").write_text("assert 2 + 2 == 5\n")
turns = [
    {"tool_calls": [{"name": "bash", "args": {"command": "python3 test_math.py 2>&1 | tail -1"}}]},
    {"tool_calls": [{"name": "read", "args": {"path": "test_math.py"}}]},
    {"tool_calls": [{"name": "edit", "args": {"path": "test_math.py", "old_string": "== 5", "new_string": "== 4"}}]},
    {"tool_calls": [{"name": "bash", "args": {"command": "python3 test_math.py && echo green"}}]},
    {"text": "The test expected 2 + 2 == 5; fixed to 4 and it passes."},
]
await show_turn(play(turns, default_tools()), "make the tests pass")

# %% [markdown]
# Try it yourself: `decode run --model script:turns.json "…"` with a script that calls `bash`; the
# command's output streams on stderr, indented under `→ bash(…)` (the README has one to paste).
#
# ## Exercises
#
# The reference solutions are in `lessons/05-bash/solutions.py`; try first.
#
# ### Exercise 1: a command with a timeout that leaves nothing behind
#
# Write `run_command(command, timeout)`: run `bash -c command` with stdin closed and return
# `(exit_code, stdout)` as text. When it runs past `timeout` seconds, kill **everything** it
# started and return `(None, "")` — within a few seconds, whatever the command left in the
# background, grandchildren included: the check runs `(sleep 60 & …); sleep 60`, whose background
# sleep is no child of bash once the subshell has exited. (Careful: `os.killpg` on a group you did
# not create is the notebook's own group.)

# %%
from exercises import check_run_command


def run_command(command: str, timeout: float) -> tuple[int | None, str]:
    raise NotImplementedError  # your code here


# %%
check_run_command(run_command)

# %% [markdown]
# ### Exercise 2: bounded output capture
#
# Write a class `HeadTail(limit)` with `feed(chunk: bytes)` (called once per chunk, as
# `executor.run` calls `on_stdout`) and `text() -> str`. When at most `limit` bytes came in,
# `text()` is all of them (decoded as UTF-8). Past that it is the first `limit // 2` bytes, then
# `f"\n[… {omitted} bytes omitted …]\n"`, then the last `limit // 2` bytes. Everything counts
# bytes, not characters, and a chunk may end in the middle of a character (`é` is two bytes): keep
# bytes, and decode what you kept in `text()`. And it must hold about `limit` bytes in memory
# however much is fed: the check feeds it 20 MB. Once it passes, try it on a real command:
# `await executor.run(ExecRequest(["seq", "1", "100000"], timeout=10, on_stdout=capture.feed,
# on_stderr=capture.feed))`.

# %%
from exercises import check_head_tail


class HeadTail:
    def __init__(self, limit: int) -> None:
        self.limit = limit

    def feed(self, chunk: bytes) -> None:
        raise NotImplementedError  # your code here

    def text(self) -> str:
        raise NotImplementedError  # your code here


# %%
check_head_tail(HeadTail)

# %% [markdown]
# ## Recap
#
# **What you built:** the `bash` tool, on a `LocalExecutor` that runs every command in a process
# group of its own.
#
# - A timeout that kills only the shell leaves its children running: each command gets its own
#   Process Group, killed whole on timeout or abort.
# - The model gets the exit code, stdout and stderr, cut to head + tail with the whole saved to a
#   file; the front end sees the output as it comes (Tool Output Delta).
# - The commands' environment carries none of decode's secrets (the Credential Scrub).
# - Daemons a command leaves behind are re-parented to decode (the Child Subreaper) and ended with
#   it.
#
# **The key idea:** a model writes commands you never read: the executor, not the command, decides
# how long it may run, what it can see of your secrets, and that nothing it starts outlives it.
#
# **Glossary:** [Process Group](../../docs/glossary.md#process-group),
# [Tool Output Delta](../../docs/glossary.md#tool-output-delta),
# [Child Subreaper](../../docs/glossary.md#child-subreaper),
# [Credential Scrub](../../docs/glossary.md#credential-scrub),
# [Safe Git](../../docs/glossary.md#safe-git).
