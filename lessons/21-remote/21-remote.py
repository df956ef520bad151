# %% [markdown]
# # Lesson 21 — `decode remote`: the same run on Modal
#
# Lesson 20 made `decode run` a contract: a task in, a result object out, an exit code that says how
# it went. A contract like that does not care *where* it runs. This lesson runs it on Modal, for two
# reasons a laptop cannot answer:
#
# - **Scale past one machine.** A nightly job on every repository, a webhook per issue, ten runs
#   while you sleep: each one is a container in Modal's cloud, not a process on your machine.
# - **N attempts, then pick the best.** The model samples: two runs of the same task differ. Run
#   N at once (`decode remote attempts 5 "fix the flaky test" --repo URL`), each on its own clone,
#   each handing back its own branch, and compare them in one table before you review any.
#
# 1. **A Remote Run** is one `decode run --output-format json --repo URL` in a container: the task
#    on stdin, the result object back, the work as branch `decode/<session-id>` (lesson 19's
#    hand-back).
# 2. **The app is checked offline**: a Modal app is a local object until `deploy`, so what it would
#    create is read back here, with no token.
# 3. **Attempts** run N at once behind one seam, the **Runner**: Modal's cloud, or threads here.
# 4. **An open model on Modal**: vLLM serving a coding model, for `--model modal:…`.
#
# No key, no Modal token, no network: every run here is the scripted model, and Modal's functions
# run their bodies in this process (`.local()`).

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 21's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `redact` in `decode/remote/task.py`
# - `with_token` in `decode/remote/task.py`
# - `row` in `decode/remote/attempts.py`
#
# `make lesson-start N=21` writes your copy into `build/21/`, and `make lesson-check N=21`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch folder with its own `HOME`, a git repository to work on (`origin`) and a scripted model
# that writes one file; paths and session ids print in a stable form.

# %%
import json
import os
import re
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show

from decode.config.settings import Settings

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson21-")).resolve()
os.environ["HOME"] = str(scratch / "home")
(scratch / "home").mkdir()
os.chdir(scratch)


def shown(text: object) -> str:
    """Text with the scratch folder and session ids (different on every run) made stable."""
    return re.sub(r"\b[0-9a-f]{8}\b", "<session>", str(text).replace(str(scratch), "<scratch>"))


origin = scratch / "origin"
subprocess.run(["git", "init", "-q", "-b", "main", str(origin)], check=True)
(origin / "README.md").write_text("# demo\n")
for step in (["config", "user.email", "dev@example.com"], ["config", "user.name", "Dev"], ["add", "."]):
    subprocess.run(["git", "-C", str(origin), *step], check=True)
subprocess.run(["git", "-C", str(origin), "commit", "-qm", "start"], check=True)
writer = scratch / "writer.json"
writer.write_text(
    json.dumps(
        [
            {"tool_calls": [{"name": "write", "args": {"path": "hello.py", "content": "print('hello')\n"}}]},
            {"text": "Wrote hello.py."},
        ]
    )
)
print("the repository:", shown(origin), "| the model:", shown(writer))

# %% [markdown]
# ## 1. A small version first: a remote task is a headless run somewhere else
#
# Everything a remote run needs, lesson 20 already gave: a task in on stdin, one JSON object out, an
# exit code; and lesson 19's `--repo URL` clones the repository into a Workspace and hands the work
# back as a branch. So a remote task is a dozen lines: run that command in an empty folder and read
# its result. Here it is, run in this process:


# %%
def tiny_remote_task(task: str, repo: str, model: str) -> dict:
    with tempfile.TemporaryDirectory() as empty:  # the container's scratch folder: nothing of ours in it
        argv = [sys.executable, "-m", "decode", "run", "--output-format", "json", "--repo", repo]
        argv += ["--model", model, "--permission-mode", "accept-edits", "-"]  # `-`: the task on stdin
        done = subprocess.run(argv, input=task, capture_output=True, text=True, cwd=empty, timeout=120)
    return json.loads(done.stdout)


result = tiny_remote_task("write hello.py", str(origin), f"script:{writer}")
print(shown(json.dumps({key: result[key] for key in ("result", "exit_code", "handback")})))

# %% [markdown]
# It works, and it shows what the real one must add:
#
# - **Somewhere to run**: a container image with git and decode in it, and a function Modal can
#   call, schedule or expose as a webhook.
# - **The size of the work**: a table of attempts needs each branch's diff, read from the hand-back
#   repository.
# - **Credentials**: the repository URL may carry a push token; it must never come back in a log or
#   a result (`***`), and the run itself needs none of Modal's.
# - **A run that could not start** prints no JSON: it still comes back as a result object, with
#   `is_error` and the last line it printed.
#
# ## 2. The real code: one Modal app
#
# The shape is one Modal app, `decode-headless-<env>`, with three functions: `run_task` (one
# `decode run --output-format json --repo URL` in an image with git and decode installed),
# `nightly` (the same on a cron, only when its settings are there) and `webhook` (a POST endpoint
# behind Modal's proxy auth that starts `run_task` and answers with the call id). The provider
# keys come from one Modal Secret; the repository gets the work back the way `--repo` always does:
# as branch `decode/<session-id>`.

# %%
show("decode.remote.app", "build_app")

# %% [markdown]
# What `run_task` runs is plain Python, `decode.remote.task.run_remote_task`: a `decode run`
# subprocess in a scratch directory, its JSON parsed, plus the size of the branch's diff. The task
# goes in on stdin, so no task can pass for an option.

# %%
show("decode.remote.task", "run_remote_task")

# %% [markdown]
# ## 3. Checked offline, run here
#
# ### The offline proof: what `deploy` would create
#
# Defining a Modal app needs no token: `modal.App`, images and functions are local objects until
# `deploy`. So the app can be checked here, before any cloud sees it. `describe` reads the
# definition back: with the nightly settings absent there is no `nightly` at all; with them, its
# cron line is the setting's.

# %%
from decode.remote.app import build_app, build_image
from decode.remote.definition import describe, image_commands

for row in describe(build_app(Settings())):
    print(row)
print("--- with DECODE_REMOTE_NIGHTLY_SCHEDULE/_TASK/_REPO set:")
nightly_settings = Settings(
    remote_nightly_schedule="0 3 * * *", remote_nightly_task="fix the lint", remote_nightly_repo="https://…"
)
for row in describe(build_app(nightly_settings)):
    print(row)

# %% [markdown]
# The image, as the Dockerfile commands Modal will build: Python 3.12, git, this checkout copied in
# (without `.git`, `.venv`, `.decode`, the tests, lessons and evals, and every `.env`: no secret is
# baked into an image) and installed, and the deploy-time settings as environment, so the container
# that imports the module again builds the same app.

# %%
for command in image_commands(build_image(Settings()))[-8:]:
    print(command[:110])

# %% [markdown]
# ### A real `run_task`, here
#
# `.local()` runs a Modal function's body in this process, no cloud involved. It is the real
# thing: a git repository as `--repo`, a scripted model that writes a file, a `decode run`
# subprocess, the branch pushed back. Only the container is missing.

# %%
from decode.remote.app import app
from decode.remote.definition import functions

result = functions(app)["run_task"].local("write hello.py", str(origin), model=f"script:{writer}")
print(shown(json.dumps({key: result[key] for key in ("result", "exit_code", "num_requests", "handback", "diff")})))
branch = result["handback"]["branch"]
print(shown(subprocess.run(["git", "-C", str(origin), "branch", "--list"], capture_output=True, text=True).stdout))

# %% [markdown]
# ### N attempts and the table
#
# `decode remote attempts N` spawns N calls of the deployed `run_task` and gathers them. The
# Runner is the one seam between decode and Modal's cloud: `ModalRunner` spawns Modal calls,
# `LocalRunner` runs the same body in threads. Two local attempts, at once, then the table the
# command prints:

# %%
import io

from rich.console import Console

from decode.commands.remote import attempts_table
from decode.remote.attempts import run_attempts
from decode.remote.runners import LocalRunner
from decode.remote.task import RunOptions

results = run_attempts(LocalRunner(), 2, "write hello.py", str(origin), RunOptions(model=f"script:{writer}"))
console = Console(width=110, record=True, file=io.StringIO(), force_jupyter=False)  # text, made stable below
console.print(attempts_table(results))
print(shown(console.export_text()))

# %% [markdown]
# ### On Modal: the commands (not run here: they need a token and Modal's cloud)
#
# ```sh
# modal token new                                   # once: the token lives in ~/.modal.toml
# modal secret create decode-secrets GEMINI_API_KEY=… VLLM_API_KEY=…   # the one Secret
# DECODE_ENV=prod decode remote deploy              # app decode-headless-prod
# decode remote run "fix the failing test" --repo https://x-access-token:TOKEN@github.com/me/app.git
# decode remote attempts 5 "fix the failing test" --repo https://…   # the table above, on Modal
# decode remote logs fc-…                           # one attempt's logs (the ids go to stderr)
# DECODE_REMOTE_NIGHTLY_SCHEDULE="0 3 * * *" DECODE_REMOTE_NIGHTLY_TASK="…" \
#   DECODE_REMOTE_NIGHTLY_REPO=https://… decode remote deploy   # now with a nightly
# ```
#
# Without a token every one of them stops before any call, with one line and exit code 2:

# %%
no_token = {k: v for k, v in os.environ.items() if not k.startswith("MODAL_")}
done = subprocess.run(
    [sys.executable, "-m", "decode", "remote", "run", "x", "--repo", "r"], capture_output=True, text=True, env=no_token
)
print(done.returncode, done.stderr.strip())

# %% [markdown]
# ### An open model on Modal
#
# `decode remote serve-model` deploys a second app, `decode-llm-<env>`: vLLM's OpenAI-compatible
# server for Qwen2.5-Coder-7B-Instruct (it calls tools), on one **L40S** (48 GB: the 15 GB of
# bf16 weights plus a 32k-token cache), weights kept in a Modal Volume so only the first start
# downloads them, scaled to zero after five idle minutes. Modal publishes the L40S at
# **$0.000542/s ≈ $1.95/hour** (Modal's blog "How much does it cost to run NVIDIA L40S GPUs",
# 12 August 2025, quoting modal.com/pricing; CPU and memory are billed on top — check the live page
# before budgeting). decode reaches it through the `modal:` provider:
# `DECODE_MODAL_LLM_URL=https://…modal.run/v1`, `DECODE_MODAL_LLM_TOKEN` = the Secret's
# `VLLM_API_KEY`, `--model modal:qwen2.5-coder-7b`.

# %%
from decode.remote import llm

print(" ".join(llm.serve_command()))
for row in describe(llm.app):
    print(row)

# %% [markdown]
# ## 4. Exercise: the best of N attempts
#
# Write `best_attempt(results)`: the number (1-based) of the attempt to review first. Only runs
# that ended with exit code 0 *and* shipped their branch count (`handback.outcome == "shipped"`:
# a failed run's half-done work is small, not good, and a run that changed nothing has nothing to
# review); among them the smallest diff (insertions + deletions), fewer tokens breaking a tie;
# `None` when no attempt qualifies.

# %%
from exercises import check_best_attempt


def best_attempt(results: list[dict]) -> int | None:
    raise NotImplementedError  # your code here


# %%
check_best_attempt(best_attempt)

# %% [markdown]
# ## Recap
#
# **What you built:** `decode remote`: lesson 20's `decode run`, in a Modal container, one run or
# N attempts at once, and an open model served on Modal.
#
# - A Remote Run is one `decode run --output-format json --repo URL` in a container: the task on
#   stdin, the result object back, the work as a branch; a credential in the URL never comes back.
# - A Modal app is a local object until `deploy`: its functions, schedule and image are checked
#   offline, and `.local()` runs a function's body here.
# - N attempts run at once and are compared in one table; the Runner is the one seam to Modal's
#   cloud (`ModalRunner`), with `LocalRunner` running the same body in threads.
# - The best attempt is a passing, shipped one with the smallest diff, not the smallest diff.
#
# **The key idea:** a headless run that is a contract can run anywhere; running it remotely adds a
# place, a seam and a comparison, not a new agent.
#
# **Glossary:** [Remote Run](../../docs/glossary.md#remote-run), [Attempts](../../docs/glossary.md#attempts),
# [Runner](../../docs/glossary.md#runner), [Headless Run](../../docs/glossary.md#headless-run),
# [Run Summary](../../docs/glossary.md#run-summary).
