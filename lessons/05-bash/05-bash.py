# %% [markdown]
# # Lesson 05 — Bash and the executor seam
#
# With `bash` the agent can do what you do in a terminal: run the tests, install a package, ask
# git. It is the most powerful tool and the most dangerous, so it comes with rules:
#
# - every call is a fresh `bash -c` in its **own process group**, in the Workspace, stdin closed;
# - past its timeout (120 s, at most 600 s) or on abort, the **whole group** is killed: no orphans;
# - the model gets the exit code, stdout and stderr, each cut to head + tail past 30,000 characters
#   with the full text saved to a file; the front end sees the output **as it comes**;
# - the environment carries **none of decode's secrets**.
#
# And it opens the **executor seam** (`decode/entities/executor.py`): file tools and bash never
# touch the disk or start processes themselves; they ask `deps.executor`, a `CommandExecutor`. The
# `LocalExecutor` does it on this machine; the sandbox lesson adds Docker and Modal executors,
# and no tool changes.

# %%
import os
import tempfile
from pathlib import Path

project = Path(tempfile.mkdtemp(prefix="decode-lesson05-")).resolve()
os.chdir(project)
Path("test_math.py").write_text("assert 2 + 2 == 4\nprint('1 passed')\n")
print(sorted(path.name for path in project.iterdir()))

# %% [markdown]
# ## 1. The seam
#
# A backend implements two methods: `run()` runs a program to completion, handing its output to
# callbacks as it arrives; `spawn()` starts a long-lived program with open pipes. Every file
# operation has a default built on `run()` with POSIX tools (`realpath`, `stat`, `find`, `tail`,
# `tar`…), one command however many paths, so a sandbox needs nothing else. All of it is async.

# %%
from decode.entities.executor import CommandExecutor

print(sorted(CommandExecutor.__abstractmethods__))
print([name for name in vars(CommandExecutor) if not name.startswith("_") and name not in {"run", "spawn"}])

# %% [markdown]
# `LocalExecutor` is the seam on this machine: `run()` and `spawn()` start real processes, each in
# its own process group, and the file operations are overridden with direct I/O, many times faster
# than a command per call.

# %%
from decode.tools.local import LocalExecutor

executor: CommandExecutor = LocalExecutor(project)
chunks: list[bytes] = []
result = await executor.run(
    ["bash", "-c", "echo hello from $0; exit 3"], timeout=10, on_stdout=chunks.append, on_stderr=chunks.append
)
print(result.exit_code, b"".join(chunks))

# %% [markdown]
# `spawn()` is for programs that stay: a language server, an MCP server. We write to its stdin
# and read its stdout while it runs; `cat` echoes each line back.

# %%
cat = await executor.spawn(["cat"])
cat.stdin.write(b"ping\n")
await cat.stdin.drain()
echoed = await cat.stdout.readline()
cat.stdin.close()
print(echoed, await cat.wait())

# %% [markdown]
# ## 2. The `bash` tool
#
# The tool builds on the seam. Called by hand here, as the agent would call it.

# %%
from pydantic_ai import RunContext
from pydantic_ai.models.test import TestModel
from pydantic_ai.usage import RunUsage

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
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
# ## 3. Output streams while the command runs
#
# The model only sees the result at the end, but a person watching a two-minute test run wants to
# see it move. Each chunk goes to `deps.on_tool_output` as a `ToolOutputDelta` event (`decode run`
# prints them on stderr, indented under the tool call).

# %%
streamed.clear()
await bash(ctx, "for i in 1 2 3; do echo step $i; sleep 0.1; done")
steps = "".join(delta.text for delta in streamed)
print(repr(steps))

# %% [markdown]
# ## 4. Timeouts kill everything the command started
#
# This command starts a grandchild that would sleep for five minutes. On timeout decode kills the
# whole process group, so the grandchild dies too.

# %%
import asyncio


def running(pid: int) -> bool:
    """Alive, and not a zombie waiting to be reaped."""
    try:
        return Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


print(await bash(ctx, "bash -c 'sleep 300 & echo $! > grandchild.pid; wait' & echo started; wait", timeout=1))
grandchild = int(Path("grandchild.pid").read_text())
for _ in range(40):
    if not running(grandchild):
        break
    await asyncio.sleep(0.05)
print("grandchild still running:", running(grandchild))

# %% [markdown]
# ## 5. Big output: head, tail, and the whole of it in a file
#
# `seq 1 1000000` prints about 7 MB. The tool keeps only the head and a rolling tail in memory and
# streams the rest to `.decode/tool-output/` in the Harness Home, so even 50 MB of output costs
# little. The note names the file with a `harness:` path (lesson 04), which `read` opens.

# %%
from decode.tools.read import read

deps.on_tool_output = None  # no need to stream a million lines here
out = await bash(ctx, "seq 1 1000000")
saved = out.split("the full output is in ")[1].split(" ")[0]
print(out[:60].replace("\n", " "), "…", out[-40:].replace("\n", " "))
print(saved.startswith("harness:tool-output/"))
print((await read(ctx, saved, offset=500_000, limit=1)).replace(saved, "<saved>"))

# %% [markdown]
# ## 6. No secrets in the commands' environment
#
# Which variables are secret is not a hand-kept list: it is derived from the settings' `SecretStr`
# fields, so a key added later is covered too.

# %%
print(sorted(Settings.secret_env_names()))
os.environ["OPENROUTER_API_KEY"] = "sk-or-lesson-05-secret"
secretless = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)  # snapshots the environment now
ctx2 = RunContext(deps=secretless, model=TestModel(), usage=RunUsage())
env_out = await bash(ctx2, "env")
del os.environ["OPENROUTER_API_KEY"]
print("key visible to commands:", "sk-or-lesson-05-secret" in env_out)

# %% [markdown]
# ## 7. Why a seam: swap the executor, keep the tools
#
# A backend is those two methods. This one implements nothing else: `run()` starts the process
# with `run_process` (what `LocalExecutor.run` uses) and notes the command, `spawn()` hands over to
# the local executor. It is what a sandbox backend looks like: the file operations come free.


# %%
from collections.abc import Mapping, Sequence

from decode.entities.executor import ExecResult, OutputCallback, Process
from decode.tools.process import run_process


class CommandsOnly(CommandExecutor):
    """An executor with only the two required methods: every file operation runs a command."""

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace
        self.local = LocalExecutor(workspace)  # its secret-free environment, and its spawn()
        self.commands: list[list[str]] = []

    async def run(
        self,
        argv: Sequence[str],
        *,
        timeout: float,  # noqa: ASYNC109 (the signature of CommandExecutor.run)
        on_stdout: OutputCallback,
        on_stderr: OutputCallback,
        cwd: Path | None = None,
        env: Mapping[str, str] | None = None,
        stdin: bytes | None = None,
    ) -> ExecResult:
        self.commands.append(list(argv))
        env = self.local.env if env is None else env
        return await run_process(
            argv,
            cwd=cwd or self.workspace,
            env=env,
            timeout=timeout,
            on_stdout=on_stdout,
            on_stderr=on_stderr,
            stdin=stdin,
        )

    async def spawn(
        self, argv: Sequence[str], *, cwd: Path | None = None, env: Mapping[str, str] | None = None
    ) -> Process:
        return await self.local.spawn(argv, cwd=cwd, env=env)


# %% [markdown]
# The `read` tool of lesson 04 works through it unchanged. Each file operation it asked for was
# one command, run as `env LC_ALL=C PROGRAM …` so the output is never translated: `realpath` to
# resolve the path, `stat` (through `xargs`), then two `sh` scripts reading the first bytes (is it
# text?) and the first chunk of lines.

# %%
commands_only = CommandsOnly(project)
ctx3 = RunContext(deps=AgentDeps(commands_only, Settings(), harness_home=project), model=TestModel(), usage=RunUsage())
through_commands = await read(ctx3, "test_math.py")
print(through_commands)
print([argv[2] for argv in commands_only.commands])

# %% [markdown]
# And `bash` is simply one `run()`:

# %%
commands_only.commands.clear()
await bash(ctx3, "true")
print(commands_only.commands)

# %% [markdown]
# ## 8. The agent runs the tests
#
# The default tool set is now the file tools plus `bash`. A scripted model fixes a failing test.

# %%
import json

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.entities.events import ToolCallFinished, ToolCallStarted, TurnFinished
from decode.models.script import ScriptedModel
from decode.tools.catalog import default_tools

Path("test_math.py").write_text("assert 2 + 2 == 5\n")
script = Path(tempfile.mkdtemp()) / "turns.json"
script.write_text(
    json.dumps(
        [
            {"tool_calls": [{"name": "bash", "args": {"command": "python3 test_math.py"}}]},
            {"tool_calls": [{"name": "read", "args": {"path": "test_math.py"}}]},
            {
                "tool_calls": [
                    {"name": "edit", "args": {"path": "test_math.py", "old_string": "== 5", "new_string": "== 4"}}
                ]
            },
            {"tool_calls": [{"name": "bash", "args": {"command": "python3 test_math.py && echo green"}}]},
            {"text": "The test expected 2 + 2 == 5; fixed to 4 and it passes."},
        ]
    )
)
loop = AgentLoop(
    build_agent(ScriptedModel.from_file(script), tools=default_tools()),
    AgentDeps(LocalExecutor(project), Settings(), harness_home=project),
)
async for event in loop.run_turn("make the tests pass"):
    if isinstance(event, ToolCallStarted):
        print("→", event.call.summary())
    elif isinstance(event, ToolCallFinished):
        print("  ", event.result.content.splitlines()[0])
    elif isinstance(event, TurnFinished):
        print(event.output)

# %% [markdown]
# Try it yourself: `decode run --model script:turns.json "…"` with a script that calls `bash`; the
# command's output streams on stderr, indented under `→ bash(…)`.
#
# ## Check yourself

# %%
assert sorted(CommandExecutor.__abstractmethods__) == ["run", "spawn"]
assert result.exit_code == 3
assert echoed == b"ping\n"
assert (await bash(ctx, "exit 7")).startswith("exit code: 7")
assert not running(grandchild)
assert "sk-or-lesson-05-secret" not in env_out
assert steps == "step 1\nstep 2\nstep 3\n"
assert through_commands.startswith("     1\tassert 2 + 2 == 4")
assert commands_only.commands == [["bash", "-c", "true"]]
assert "green" in await bash(ctx, "python3 test_math.py && echo green")
print("all checks passed")
