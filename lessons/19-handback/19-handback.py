# %% [markdown]
# # Lesson 19 — The Workspace clone and the hand-back
#
# Lessons 17 and 18 put the agent's commands in a sandbox: bubblewrap, Docker or Modal, no secret
# and no network inside. The agent's work is still stuck there, or in your checkout. This lesson
# brings it out as a git branch, without ever handing the sandbox your credentials:
#
# - `--repo PATH|URL` clones your repository host-side (your git, your credentials) into
#   `.decode/workspaces/<session>/`, the **Workspace Clone**; the sandbox works there, and may commit.
# - `/ship`, leaving the REPL and the end of `decode run` commit the work onto `decode/<session>`
#   and push that branch to your repository with *your* git, on the host: the **Hand-back**. Your
#   checkout is never touched.
#
# Claude Code's cloud sessions and Codex's cloud tasks end the same way: the work arrives as a
# branch or a pull request to review, not as edits in your working tree.
#
# No key and no network here: the model is scripted; the sandbox is bubblewrap.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 19's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `read_head` in `decode/sandbox/workspace.py`
# - `git_environment` in `decode/sandbox/host_git.py`
# - `hand_back` in `decode/sandbox/handback.py`
#
# `make lesson-start N=19` writes your copy into `build/19/`, and `make lesson-check N=19`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch project and a scratch home; paths print as `<scratch>/…`.

# %%
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show, show_diff

LESSON = Path.cwd()  # the notebook runs in its lesson's folder
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson19-")).resolve()
os.environ["HOME"] = str(scratch / "home")
(scratch / "home").mkdir()
(scratch / "home" / ".gitconfig").write_text("[user]\n\tname = You\n\temail = you@example.com\n")
project = scratch / "project"
project.mkdir()
os.chdir(project)


def shown(text: object) -> str:
    """Text with the scratch folder and session ids (different on every run) made stable."""
    text = str(text).replace(str(scratch), "<scratch>")
    return re.sub(r"\b[0-9a-f]{8}\b", "<session>", re.sub(r"\b[0-9a-f]{7}\b(?= )", "<commit>", text))


def sh(*argv: str, cwd: Path = project) -> str:
    return subprocess.run(argv, cwd=cwd, capture_output=True, text=True, check=True).stdout.strip()


# %% [markdown]
# ## 1. Why a clone, and a naive way back
#
# Working on your checkout directly has two problems: the agent's half-finished edits sit in your
# working tree, and to push anything it would need your credentials, inside the sandbox. So with
# `--repo`, decode clones the repository on the host (with your git, your credentials) into the
# Harness Home, lets the sandbox work there, and brings the result back as a branch.
#
# The dangerous part is the way back. The agent wrote everything in the clone, *its `.git/`
# included*, and a repository's own files make git run programs. Watch a naive hand-back:

# %%
source = scratch / "source"
source.mkdir()
sh("git", "init", "-q", "-b", "main", cwd=source)
(source / "README.md").write_text("# demo\n")
sh("git", "add", "README.md", cwd=source)
sh("git", "commit", "-qm", "First commit", cwd=source)
naive = scratch / "naive-clone"
sh("git", "clone", "-q", str(source), str(naive), cwd=scratch)
# What a prompt-injected agent can write inside the sandbox:
with (naive / ".git" / "config").open("a") as config:
    config.write(f'[core]\n\tfsmonitor = "touch {scratch}/PWNED; false"\n')
(naive / "change.txt").write_text("the agent's work\n")

subprocess.run(["git", "status", "--short"], cwd=naive, capture_output=True)  # the host, "just looking"
print("ran on the host:", (scratch / "PWNED").exists())

# %% [markdown]
# `git status` ran the agent's program, on the host, outside the sandbox. `core.fsmonitor` is one
# of many: `core.hooksPath` and `.git/hooks/`, `core.sshCommand`, `credential.helper`, filter and
# diff drivers chosen by `.gitattributes`, `include.path`, a `url.*.insteadOf` that rewrites the
# push URL to `ext::sh -c …`. Making a few files read-only inside bwrap helps, but not every
# backend can, and `.gitattributes` or the refs stay writable. decode's rule is simpler: **no git
# command ever runs in the Workspace on the host.**
#
# ## 2. The package's way
#
# First, the clone. It is made on the host, with your git and credentials, named after the
# session, before the sandbox sees anything; `--no-hardlinks` because a local clone would otherwise
# share its object files with your repository, and the agent may write to the clone's.

# %%
show("decode.sandbox.workspace", "open_workspace")

# %% [markdown]
# The composition root gets one more step, before the sandbox opens: `open_workspace` clones the
# repository and points the options' `workspace` at the clone, so the sandbox opens over it (a
# resumed session goes on in its own clone). If the sandbox then cannot start, the clone goes.

# %%
show_diff(19, "decode/agent/steps/sandbox.py")

# %% [markdown]
# Then the way back. A bare repository decode creates beside the clone, out of the sandbox's reach (the
# **Hand-back Repository**), reads the Workspace as *data*: its objects through
# `objects/info/alternates`, its HEAD by reading two small files, its files as a work tree to
# stage into a private index. Every git command gets an environment that points it only there:

# %%
show("decode.sandbox.host_git", "git_environment")

# %% [markdown]
# The private phase (staging, committing) reads no config at all but the Hand-back Repository's:
# `GIT_CONFIG_NOSYSTEM` and `GIT_CONFIG_GLOBAL=/dev/null`, so not even a filter driver *you*
# installed (git-lfs) runs on files the agent wrote. Only the push reads your config, for your
# credential helper; it has no work tree. HEAD, read as data: a ref must be `refs/…`, no `..`,
# no links out.

# %%
show("decode.sandbox.workspace", "read_head")

# %% [markdown]
# Staging and committing: the Workspace's HEAD into a private index, every file of the Workspace
# on top, a tree, then a commit on top of the model's own commits (`commit-tree`: plumbing, no hooks).

# %%
show("decode.sandbox.handback", "_stage")

# %% [markdown]
# The same planted clone, handed back the package's way. The branch arrives in the source; the
# program does not run; the source's checkout (HEAD, index, files) is as it was.

# %%
from decode.sandbox.handback import hand_back
from decode.sandbox.workspace import open_workspace

(scratch / "PWNED").unlink()
workspace = open_workspace(project, str(source), "a1b2c3d4")  # named after the session
with (workspace.path / ".git" / "config").open("a") as config:
    config.write(f'[core]\n\tfsmonitor = "touch {scratch}/PWNED; false"\n')
(workspace.path / "change.txt").write_text("the agent's work\n")

result = await hand_back(workspace)
print(shown("\n".join(result.report())))
print("ran on the host:", (scratch / "PWNED").exists())
print("in the source:", sh("git", "show", "decode/a1b2c3d4:change.txt", cwd=source))
print(
    "the source's checkout:",
    sh("git", "status", "--short", cwd=source) or "clean",
    "on",
    sh("git", "branch", "--show-current", cwd=source),
)

# %% [markdown]
# Pushing a *new branch* into a non-bare repository changes its refs and nothing else, which is
# why the source may be the very directory you work in. A second hand-back continues the branch
# (a fast-forward, never a force); nothing new is "nothing to ship"; a push that fails keeps the
# branch in the Hand-back Repository and the report says where, with the command to push it by hand.
# For Modal, whose Workspace is not on this machine, git *inside* writes a bundle to stdout and
# the host fetches that file (`decode/sandbox/bundle.py`): data again, never the sandbox's config.

# %%
print(shown("\n".join((await hand_back(workspace)).report())))

# %% [markdown]
# ## 3. End to end: `decode run --repo … --sandbox bwrap`
#
# The scripted model (`handback.json`) writes a file, commits it itself, and edits another without
# committing. decode clones, runs it all inside bubblewrap, and hands the work back.

# %%
print(json.dumps(json.loads((LESSON / "handback.json").read_text())[1], indent=1))

# %%
model = f"script:{LESSON / 'handback.json'}"
argv = [sys.executable, "-m", "decode", "run", "--repo", str(source), "--sandbox", "bwrap"]
argv += ["--permission-mode", "bypass", "--model", model, "add a greeting"]
done = subprocess.run(argv, cwd=project, capture_output=True, text=True)
print("exit", done.returncode, "|", done.stdout.strip())
lines = done.stderr.splitlines()
start = next(i for i, line in enumerate(lines) if "hand-back:" in line)
print(shown("\n".join(lines[start:])))  # the tool calls before it are on stderr too

# %%
branch = re.search(r"shipped (decode/\w+)", done.stderr).group(1)  # this run's session
print(shown(sh("git", "log", "--format=%s (%an)", f"main..{branch}", cwd=source)))
print(sh("git", "show", f"{branch}:README.md", cwd=source))
print("the source's checkout:", sh("git", "status", "--short", cwd=source) or "clean")

# %% [markdown]
# The model's own commit kept its author; decode's commit on top carries yours (from your global
# git config, never the Workspace's). In the REPL, `decode --repo PATH --sandbox bwrap`: `/ship`
# hands back whenever you like, leaving the REPL hands back what is left, `/status` shows the
# Workspace and its branch.

# %% [markdown]
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. The Workspace's files as a tree, without its config
#
# Write `tree_of(workspace, scratch)`: the id of a git tree holding the Workspace's files (not its
# `.git`), as a commit of them would record it. The Workspace is a clone the agent had write access
# to: its `.git/config` may name a program. Run git only against a bare repository of your own in
# `scratch` (`git init --bare`), with the Workspace as its work tree, a private index, and no
# system or global config; never in the Workspace. The check plants `core.fsmonitor`, a hook and
# a filter driver, and runs your function for real.

# %%
from exercises import check_tree_of


def tree_of(workspace: Path, scratch: Path) -> str:
    raise NotImplementedError  # your code here


# %%
check_tree_of(tree_of)

# %% [markdown]
# ## Recap
#
# **What you built:** the Workspace Clone and the Hand-back: the agent works in a clone decode made
# on the host, and its work comes back to your repository as the branch `decode/<session>`.
#
# - `--repo PATH|URL` clones host-side, with your git and credentials, into the Harness Home
#   (`--no-hardlinks`); the sandbox works there and may commit.
# - No git command ever runs in the Workspace on the host: its `.git/config`, hooks and attributes
#   are the agent's to write. The Hand-back Repository, a bare repository beside the clone, reads it
#   as data (its objects borrowed, its HEAD read from two files, its files staged into a private
#   index), with no system or global config.
# - The hand-back commits on top of the model's own commits and pushes a new branch: a fast-forward
#   next time, "nothing to ship" when nothing changed, the branch kept (and the command to push it
#   printed) when the push fails. A remote Workspace (Modal) comes home as a git bundle.
# - `/ship` hands back whenever you like; leaving the REPL and the end of `decode run` do it too.
#
# **The key idea:** the sandbox never holds your credentials: the work comes out as a branch, pushed
# from outside by your own git, which never reads what the agent wrote as configuration.
#
# **Glossary:** [Workspace Clone](../../docs/glossary.md#workspace-clone),
# [Hand-back](../../docs/glossary.md#hand-back),
# [Hand-back Repository](../../docs/glossary.md#hand-back-repository).
