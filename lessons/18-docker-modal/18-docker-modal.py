# %% [markdown]
# # Lesson 18 — A warm sandbox, Docker and Modal
#
# Lesson 17 put each of the agent's commands in a bubblewrap of its own: the view of the host
# worked out, the namespaces made, and torn down again, for every `ls`. This lesson keeps a sandbox
# running for the session instead, three ways. A **warm bubblewrap**: one bwrap started once, with a
# runner inside that makes each command's namespaces. And two places that are often better than this
# machine: a **Docker container**, whose
# root is an image of its own (another distribution, pinned tools, the same on every machine), and a
# **Modal sandbox**, a machine elsewhere, so nothing the agent does touches this one. Both go
# behind lesson 17's seam: `SandboxBackend` starts, runs, spawns and closes; `SandboxExecutor` keeps
# the environment, the protected paths and the file operations, once for all of them.
#
# - `--sandbox docker`: one long-lived container per session, driven by the `docker` CLI; the
#   Workspace bind-mounted at its own path, the protected paths read-only on top, no network,
#   no capabilities, a read-only root. The image is built offline (`make sandbox-image`).
# - `--sandbox modal`: a Modal `Sandbox` with the Workspace uploaded, without its secrets.
#
# Claude Code documents a container (a dev container) as the place for `--dangerously-skip-permissions`;
# Codex's cloud tasks run in containers of their own. The new problem this lesson solves is one
# they all meet: **a process you start through a client is not your child**, so ending the client
# ends nothing.
#
# The warm runner meets it too: its commands are the runner's children, not decode's.
#
# No key, no network and no Docker engine are needed here: the container's process control is
# POSIX `sh`, and runs on this machine as it runs inside a container.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 18's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `docker_client_environment` in `decode/sandbox/docker.py`
# - `container_argv` in `decode/sandbox/docker.py`
# - `workspace_archive` in `decode/sandbox/modal.py`
#
# `make lesson-start N=18` writes your copy into `build/18/`, and `make lesson-check N=18`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.

# %% [markdown]
# A scratch project; paths print as `<scratch>/…`.

# %%
import io
import os
import subprocess
import tarfile
import tempfile
import time
from pathlib import Path

from course import show, show_diff

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson18-")).resolve()
project = scratch / "project"
project.mkdir()
os.chdir(project)


def shown(text: object) -> str:
    return str(text).replace(str(scratch), "<scratch>")


def tagged(tag: str) -> list[int]:
    """The live processes carrying `DECODE_PROCESS_TAG=<tag>` in their environment."""
    mark = f"DECODE_PROCESS_TAG={tag}".encode()
    found = []
    for entry in Path("/proc").iterdir():
        try:
            if entry.name.isdigit() and mark in (entry / "environ").read_bytes().split(b"\0"):
                found.append(int(entry.name))
        except OSError:
            continue  # gone meanwhile, or not ours
    return found


def until(condition, seconds: float = 10.0) -> bool:
    """Wait for `condition()` (polling), at most `seconds`: a condition, never a fixed sleep."""
    deadline = time.monotonic() + seconds
    while not condition():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)
    return True


# %% [markdown]
# ## 1. A warm bubblewrap
#
# A cold bwrap per command is simple and slow: most of its time goes to the kernel making and
# tearing down namespaces (ADR-0104). The warm sandbox starts bwrap once over the same view, with a
# small runner inside (`warm_runner.py`); for each command the runner makes what a cold bwrap would
# have (new mount, pid, IPC and network namespaces, an empty `/tmp`, no capability) and decode
# sends it the command over a socket. The keeper holds one per view: when the view changes (a new
# nested repository, a protected file made, a `.env` appearing) a new warm sandbox replaces the old
# one; one that cannot start turns the warm path off and commands run cold, as in lesson 17.

# %%
show_diff(18, "decode/sandbox/bwrap.py")

# %%
show("decode.sandbox.warm_keeper", "WarmKeeper.sandbox")

# %%
from decode.config.settings import Settings
from decode.entities.executor import ExecRequest
from decode.sandbox.backends import open_sandbox
from decode.sandbox.types import SandboxMode

executor = open_sandbox(SandboxMode.BWRAP, project, Settings(_env_file=None))


async def inside(command: str) -> str:
    out: list[bytes] = []
    await executor.run(ExecRequest(["bash", "-c", command], timeout=30, on_stdout=out.append, on_stderr=out.append))
    return b"".join(out).decode().strip()


keeper = executor.backend.warm
print(await inside("echo one > one.txt && cat one.txt"), "| warm sandbox up:", keeper.current is not None)
first = keeper.current
print(await inside("cat one.txt"), "| the same one:", keeper.current is first)
(project / "nested" / ".git").mkdir(parents=True)  # a nested repository: its .git is read-only, a new view
print(await inside("test -w nested/.git || echo read-only"), "| replaced:", keeper.current is not first)
await executor.close()

# %% [markdown]
# The runner's commands are its children, not decode's: a timeout is a message to the runner, and
# a runner that does not answer is killed with everything it ran. Docker has the same shape, with
# no runner of ours to ask.

# %% [markdown]
# ## 2. Killing the client kills nothing
#
# On the host, decode ends a command by ending its process group (lesson 05). In a container, the
# command is started by the Docker engine on behalf of `docker exec`: the process decode holds is
# the *client*, and the command is not its child. Here is the same shape without Docker: a client
# that has a command started elsewhere (`setsid -f` forks it off, as the engine does), then is
# killed on a timeout.

# %%
naive = subprocess.Popen(
    ["setsid", "-f", "bash", "-c", "sleep 300 & sleep 300"], env={**os.environ, "DECODE_PROCESS_TAG": "naive"}
)
naive.wait()  # the client is gone (`setsid -f` returns at once; killing a waiting client is the same)
until(lambda: len(tagged("naive")) == 3)
print("after killing the client, still running:", len(tagged("naive")))

# %% [markdown]
# Three processes (the command's shell and its two `sleep`s) run on, holding the CPU and whatever
# they opened, and a timeout that "worked" leaves them behind. So the process control moves
# *inside*: every command runs under a small POSIX `sh` wrapper that tags it
# (`DECODE_PROCESS_TAG`, which even a child that leaves the session keeps), and a timeout runs a
# second `docker exec`, the **killer**, that ends everything carrying the tag.

# %%
for pid in tagged("naive"):
    os.kill(pid, 9)  # tidy up the naive run by hand, the way the killer will

# %%
show("decode.sandbox.inside", "wrapped")

# %%
from decode.sandbox.inside import killer, wrapped

client = subprocess.Popen(["setsid", "-f", *wrapped(["bash", "-c", "sleep 300 & setsid sleep 300 & wait"], "t1")])
client.wait()
until(lambda: len(tagged("t1")) == 3)
print("running:", len(tagged("t1")))
subprocess.run(killer("t1"), check=True)  # what `docker exec` runs inside on a timeout or an abort
until(lambda: not tagged("t1"))
print("after the killer:", len(tagged("t1")))

# %% [markdown]
# Even the `sleep` that left the session (`setsid`) is gone: the tag went with it. The wrapper
# also ends what a command leaves behind when it exits on its own, after a short grace while
# something still holds its output, as lesson 05's local executor does.

# %% [markdown]
# ## 3. The Docker backend
#
# `docker run` for the session's container: no network (a command allowed the network gets a
# container of its own on the host's), a read-only root, no capabilities, a private `/tmp`, the
# Workspace at its own path (so the file tools read and write the host's files directly), the
# protected paths read-only on top, the `.env` files replaced by nothing, and variables passed by
# *name* (`-e NAME`): a value never appears on a command line, where `ps` shows it.

# %%
show("decode.sandbox.docker", "container_argv")

# %%
from decode.sandbox.docker import container_argv

(project / ".git").mkdir()
(project / ".env").write_text("GEMINI_API_KEY=AIza-fake\n")
argv = container_argv(
    "docker",
    "decode-sandbox:latest",
    "decode-sandbox-demo",
    workspace=project,
    read_only=[project / ".git"],
    hidden=[project / ".env"],
    network=False,
    user="1000:1000",
    env_names=["PATH", "LANG"],
)
print(shown(" ".join(argv).replace(" -", "\n  -")))

# %% [markdown]
# Each command then runs through `docker exec` under the wrapper; a timeout or an abort runs the
# killer, and the result is the same `ExecResult` lesson 04's executor returns.

# %%
show("decode.sandbox.docker", "DockerBackend.run")

# %% [markdown]
# `open_sandbox` gains the two backends: before this lesson `--sandbox docker` was refused with one
# line; now each is imported only when chosen (Modal's SDK is heavy), and its preflight (the CLI,
# an engine that answers, the image; a Modal token) refuses to start when it cannot run here.

# %%
show_diff(18, "decode/sandbox/backends.py")

# %% [markdown]
# ## 4. The Modal backend
#
# Modal's sandbox is on another machine: there is no bind mount, so the Workspace is uploaded at the
# start, at the same path, as a tar archive, and the file tools go through `run` (`host_workspace`
# is None). What stays on this machine: the `.env` files (but not a template such as
# `.env.example`) and decode's own records. What leaves this machine is decided here, once.

# %%
show("decode.sandbox.modal", "workspace_archive")

# %%
from decode.sandbox.modal import workspace_archive

app = scratch / "app"
(app / "src").mkdir(parents=True)
(app / "src" / "main.py").write_text("print('hi')\n")
(app / ".env").write_text("GEMINI_API_KEY=AIza-fake\n")
(app / ".env.example").write_text("GEMINI_API_KEY=\n")
with tarfile.open(fileobj=io.BytesIO(workspace_archive(app))) as archive:
    print("\n".join(sorted(shown(f"/{name}") for name in archive.getnames())))

# %% [markdown]
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. End everything a tag marks
#
# Write `end_tagged(tag)`: SIGKILL every process whose environment holds
# `DECODE_PROCESS_TAG=<tag>`, until none is left, wherever it is (another session, another process
# group). Read `/proc/<pid>/environ` (variables separated by NUL bytes). The check starts a tree of
# tagged processes, one of which leaves the session, and checks that none is left.

# %%
from exercises import check_end_tagged


def end_tagged(tag: str) -> None:
    raise NotImplementedError  # your code here


# %%
check_end_tagged(end_tagged)

# %% [markdown]
# ## Recap
#
# **What you built:** sandboxes that live for the session behind lesson 17's seam: a warm
# bubblewrap, Docker and Modal.
#
# - A Warm Sandbox starts bwrap once; a runner inside makes each command's namespaces, and a new
#   view (a nested repository, a protected file) replaces it.
# - A process started through a client (`docker exec`) is not your child: ending the client ends
#   nothing. The process control moves inside: the Container Wrapper tags every command, and a
#   second `docker exec` (the killer) ends everything carrying the tag.
# - Docker: one container per session from an offline Sandbox Image, no network, no capabilities,
#   a read-only root; the Workspace at its own path, protected paths read-only on top, `.env`
#   replaced by nothing; values passed by name, never on a command line.
# - Modal: a machine elsewhere; the Workspace uploaded as an archive without its secrets.
# - Each backend is imported only when chosen and refuses to start when it cannot run here.
#
# **The key idea:** one seam, several sandboxes: what the executor guarantees (the environment, the
# protected paths) is written once; a backend only knows how to start, run and stop there.
#
# **Next:** lesson 19 brings the work out of the sandbox as a git branch.
#
# **Glossary:** [Warm Sandbox](../../docs/glossary.md#warm-sandbox),
# [Sandbox Image](../../docs/glossary.md#sandbox-image),
# [Container Wrapper](../../docs/glossary.md#container-wrapper).
