# %% [markdown]
# # Lesson 24 — Evals: is the agent any good, and did it get worse?
#
# Seventeen lessons built an agent. This one measures it. Two questions, two tools:
#
# - **A benchmark** asks *how good is it?* It gives the agent real tasks, as a user would type them,
#   in a fresh workspace, and grades the result by running the task's own tests. The answer is a
#   number per task (a **reward**, 0 or 1 here), summed up as a pass rate, per difficulty and
#   category, with the **cost** beside it: requests, tokens, dollars and seconds are results too. A
#   model that passes one more task for ten times the tokens may not be the better choice.
# - **A regression suite** asks *did a change make it worse?* It replays fixed cases and checks
#   behaviour a user relies on (read a file before editing it, never `git push --force`, stop when
#   told), with deterministic metrics where it can and a model as judge only where it must.
#
# The benchmark uses the task layout of [Terminal-Bench 2](https://www.tbench.ai) and its runner
# [Harbor](https://github.com/laude-institute/harbor), so our tasks run under their runner too:
#
# ```text
# evals/tasks/NAME/
#   task.toml              difficulty, category, tags; the agent's and the verifier's timeouts
#   instruction.md         what the user types (it never mentions the tests)
#   environment/seed/      the files of the workspace the agent starts in
#   environment/setup.sh   optional: builds what cannot be a plain file (git history, a big log)
#   tests/test.sh          the verifier: grades the workspace, writes 1 or 0 to reward.txt
#   solution/solve.sh      a reference solution, as a good engineer would write it
# ```
#
# `seed/` and `setup.sh` are our additions, for a runner without Docker; a task copied unchanged from
# Terminal-Bench 2 has neither, nor a category. Its Dockerfile's `COPY` lines make the workspace, and
# its scripts name the container's paths (`/app`, `/tests`, `/logs/verifier`), which our grader maps
# onto this machine's folders with bubblewrap. So both layouts load and grade (ADR-0107).
#
# Two rules make a verifier worth trusting:
#
# 1. **The verifier proof.** Run it on the untouched seed: it must say 0 (else the task is solved
#    before the agent starts). Run the reference solution, then the verifier: it must say 1 (else no
#    one can pass it). `make eval-verify` proves both for every task.
# 2. **Never trust the workspace.** The agent controls every file in it. The verifier keeps its own
#    copies of the tests, checks that files the agent was told to leave alone are unchanged, never
#    `source`s a workspace file, runs workspace code with a timeout, and always writes a reward.
#
# And one rule for reading the numbers. The agent is not deterministic: run a task `n` times and
# `c` pass. **pass@1** (c/n, averaged over tasks) is what a user gets from one try; **pass@k** is the
# chance that at least one of `k` tries passes, what you get when something (a test suite, a person)
# can pick the good attempt. It is not c/n, and it is not 1 − (1 − c/n)^k: the first exercise.
#
# No key and no network here: every model is scripted (`script:FILE`, lesson 02).

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 24's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `pass_at_k` in `evals/metrics.py`
# - `read_reward` in `evals/benchmark/grade.py`
# - `grade` in `evals/benchmark/grade.py`
#
# `make lesson-start N=24` writes your copy into `build/24/`, and `make lesson-check N=24`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import json
import os
import shutil
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show

LESSON_DIR = Path.cwd()
ROOT = LESSON_DIR.parent.parent
sys.path.insert(0, str(LESSON_DIR))  # the exercises live beside this notebook
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson24-")).resolve()
HOME = scratch / "home"
HOME.mkdir()

# %% [markdown]
# ## 1. A small benchmark, inline
#
# First a task of our own, the smallest there is: *create `hello.txt`*. Its verifier checks the file
# and writes the reward; it writes 0 first, so a verifier that dies halfway still leaves a reward.

# %%
task = scratch / "tasks" / "hello"
for folder in ("environment/seed", "tests", "solution"):
    (task / folder).mkdir(parents=True)
(task / "instruction.md").write_text('Create hello.txt containing the line "hello, world".\n')
(task / "tests" / "test.sh").write_text(
    """#!/bin/bash
APP="${APP_DIR:-/app}"
REWARDS="${REWARD_DIR:-/logs/verifier}"
mkdir -p "$REWARDS"
echo 0 > "$REWARDS/reward.txt"
if [ "$(cat "$APP/hello.txt" 2>/dev/null)" = "hello, world" ]; then
  echo 1 > "$REWARDS/reward.txt"
fi
"""
)
_ = (task / "solution" / "solve.sh").write_text("printf 'hello, world\\n' > hello.txt\n")

# %% [markdown]
# A run of the agent is a real `decode run` subprocess, with the workspace as its working directory
# and a **whitelisted environment**: a safe PATH, an empty HOME, the locale. Nothing else of ours
# reaches it, our keys above all (a real model's run gets only its own provider's variables).
# Grading runs `tests/test.sh` from the task's folder, never from the workspace, with the same kind
# of environment, and reads `reward.txt` from a folder outside the workspace.

# %%
CLEAN = {"PATH": "/usr/local/bin:/usr/bin:/bin", "HOME": str(HOME), "LANG": "C.UTF-8"}
CLEAN["PYTHONPATH"] = os.environ.get("PYTHONPATH", "")  # only so that `decode` is this lesson's package


def workspace_of(task: Path) -> Path:
    workspace = Path(tempfile.mkdtemp(dir=scratch, prefix="ws-"))
    shutil.copytree(task / "environment" / "seed", workspace, dirs_exist_ok=True)
    return workspace


def grade(task: Path, workspace: Path) -> float:
    rewards = Path(tempfile.mkdtemp(dir=scratch, prefix="verifier-"))
    env = {**CLEAN, "APP_DIR": str(workspace), "TESTS_DIR": str(task / "tests"), "REWARD_DIR": str(rewards)}
    subprocess.run(["bash", str(task / "tests" / "test.sh")], cwd=workspace, env=env, timeout=120)
    return float((rewards / "reward.txt").read_text())


def trial(task: Path, model: str) -> dict:
    workspace = workspace_of(task)
    argv = [sys.executable, "-m", "decode", "run", "--output-format", "json", "--sandbox", "bwrap"]
    argv += ["--permission-mode", "bypass", "--model", model, (task / "instruction.md").read_text()]
    run = subprocess.run(argv, cwd=workspace, env=CLEAN, capture_output=True, text=True, timeout=600)
    result = json.loads(run.stdout)
    shutil.rmtree(workspace / ".decode")  # the run's session log: the verifier grades only the work
    return {"reward": grade(task, workspace), "exit_code": run.returncode, **result["usage"]}


# %% [markdown]
# The verifier proof first: the seed scores 0, the reference solution 1.

# %%
seed = workspace_of(task)
solved = workspace_of(task)
subprocess.run(["bash", str(task / "solution" / "solve.sh")], cwd=solved, env=CLEAN, check=True)
print("seed:", grade(task, seed), "| solution:", grade(task, solved))

# %% [markdown]
# Now two "models". One does the task; the other is sloppy with the comma. Each is a script of
# responses (lesson 02's scripted model): a `write` tool call, then a final answer.


# %%
def script(name: str, content: str) -> str:
    path = scratch / f"{name}.json"
    write = {"name": "write", "args": {"path": "hello.txt", "content": content}}
    path.write_text(json.dumps([{"tool_calls": [write]}, {"text": "Done."}]))
    return f"script:{path}"


careful, sloppy = script("careful", "hello, world\n"), script("sloppy", "hello world\n")
results = [trial(task, careful), trial(task, sloppy)]
for name, result in zip(["careful", "sloppy"], results, strict=True):
    print(f"{name:8}", result)

# %% [markdown]
# The run exited 0 both times: `decode run` succeeded, the *task* did not. That is why a benchmark
# grades the workspace rather than the agent's exit code or its own account of what it did. And
# every result carries its usage (`requests`, `input_tokens`, `output_tokens`; `cost_usd` too, for
# a priced model): the price of each reward.
#
# What the real runner adds to these few functions: tasks read and checked from `task.toml`, a
# `setup.sh` for workspaces that need git history, timeouts that kill the whole process group
# (bwrap included), a grader that survives a verifier that writes nothing or garbage, several
# trials per task on several threads, every run's files kept for a post-mortem, and a report.
#
# ## 2. The real benchmark: `evals/benchmark/`
#
# A trial, as the runner runs it: the workspace built in a temporary folder, an environment that
# holds only the model's provider variables, and in bubblewrap the answer key hidden from the agent
# (`answer_key`: the tasks folder, the git repository holding it and every job's results, through
# decode's `sandbox_hide` setting; bubblewrap otherwise shows the whole host read-only). Then the
# run's `.decode/` moved out before grading, the workspace moved into the job's folder, and one
# record of `trials.jsonl`.

# %%
show("evals.benchmark.trial", "run_trial")

# %% [markdown]
# The grader runs the verifier, and the verifier runs the agent's code: `pytest` imports it, a
# script executes it. So the verifier gets a sandbox of its own (`verifier_sandbox`, where
# bubblewrap is installed): of the host only the system's folders, read-only, then the tests, the
# workspace and a scratch folder holding `REWARD_DIR`; no network. Its reward is read by
# `read_reward`: a number in 0..1, or 0 with a reason. Exercise 2 asks you to write that reader.

# %%
show("evals.benchmark.grade", "grade")

# %% [markdown]
# One attack is left: code the tests ran can start a daemon in a session of its own, which
# outlives test.sh and writes 1 over the reward once test.sh has written 0. The sandbox's first
# process is `verifier_init.py`: in a pid namespace it adopts every orphan, so it knows when each
# one ended. When test.sh ends it reaps and looks again until it is alone (a daemon that exits
# at that moment is a zombie: it must be reaped to be counted), and refuses the run if one is
# still alive, or ended after the reward last changed (read from `ctime`, which no process can
# set back), since only such a process can have written it last. Then the kernel kills whatever
# is left with the namespace.
#
# Code the tests run has the verifier's own uid, so it could also reach into test.sh's shell:
# `ptrace` it, write its memory through `/proc/<pid>/mem`, or lower its open-file limit so its
# final `echo 0` fails. A seccomp filter (`evals/benchmark/seccomp.py`) refuses those calls in
# the whole sandbox, and `verifier_init` closes the files of `/proc` with Landlock before it
# starts test.sh.
#
# Last, the process that runs the tests. Code imported into a process can forge that process's
# verdict: read its secret off the stack (`sys._getframe`), replace `unittest.TestCase.run`, exit 0.
# So where a task's tests import the agent's code they run in `tests/judge.py`, which never imports
# it: a child interpreter does, holding no secret, and answers the judge's calls with plain values;
# every assertion is made in the judge, which alone prints this run's nonce (ADR-0088).

# %%
show("evals.benchmark.verifier_init", "main")

# %% [markdown]
# Now two real tasks of `evals/tasks/`, each with its own scripted model (`{task}` in the model
# string is the task's name): `fix-off-by-one-pagination` (debugging: a slice one past the end),
# which the script fixes as a good engineer would (read, edit, run the tests), and
# `csv-sales-summary` (data: a JSON summary of a CSV), which the script gives up on. Here is the
# first script:

# %%
print((ROOT / "evals/smoke/fix-off-by-one-pagination.json").read_text())

# %% [markdown]
# `python -m evals benchmark` runs a **job**: every trial of the tasks, `--threads` at a time, each
# record appended to `evals/results/JOB/trials.jsonl` as it finishes (a job cut short keeps what it
# did), then the report. We run it as you would, from the repository:

# %%
benchmark = [sys.executable, "-m", "evals", "benchmark", "--tasks", "fix-off-by-one-pagination,csv-sales-summary"]
benchmark += ["--model", "script:evals/smoke/{task}.json", "--threads", "2", "--job", "lesson24"]
benchmark += ["--results-root", str(scratch / "results")]  # here, not the repository's evals/results/
done = subprocess.run(benchmark, cwd=ROOT, capture_output=True, text=True)
assert done.returncode == 0, done.stderr  # a job that could not run says why
print(done.stdout.replace(str(scratch) + "/", ""))
job = scratch / "results" / "lesson24"
records = [json.loads(line) for line in (job / "trials.jsonl").read_text().splitlines()]
for record in sorted(records, key=lambda record: record["task"]):  # in the order they finished: sort
    print({key: record[key] for key in ("task", "reward", "passed", "exit_code", "requests", "error")})

# %% [markdown]
# `evals.report` reads a job back and writes `report.md` (and `chart.png`, pass@1 by difficulty):
# a verdict, the summary (with tokens, cost and time per job), pass@1 by difficulty and category,
# each task's passes, the failures, and the command that reproduces it. Two jobs side by side
# (`python -m evals report A B`) compare two models, or a change against the last release. Its
# summary table holds what each job cost, in requests, tokens, dollars and time:

# %%
# NBVAL_IGNORE_OUTPUT
report = (job / "report.md").read_text()
print(report[report.index("## Summary") : report.index("## By difficulty")])

# %% [markdown]
# The time differs from run to run, so only the rest is checked here:

# %%
print(report.split("\n\n")[1])
print(report[report.index("## By difficulty") : report.index("## Reproduce")])

# %% [markdown]
# ## 3. The regression suite, in one cell
#
# A benchmark says how often the agent gets there; a regression case says *how* it got there. Each
# case in `evals/regression/cases/` is a prompt, a few files, and metrics over what the run left
# behind: its session log (lesson 11) and the workspace before and after. Most are deterministic,
# like `read_before_edit`: every attempt to change an existing file came after a read of it. Here
# a run that edits blind first (the edit tool refuses it: lesson 04), then reads, then edits:

# %%
from evals.regression.metrics import Evidence, score
from evals.regression.run import snapshot

case = Path(tempfile.mkdtemp(dir=scratch, prefix="case-"))
(case / "app.py").write_text('def greet():\n    print("hi")\n')
before = snapshot(case)
edit = {"name": "edit", "args": {"path": "app.py", "old_string": '"hi"', "new_string": '"hello"'}}
read = {"name": "read", "args": {"path": "app.py"}}
responses = [{"tool_calls": [edit]}, {"tool_calls": [read]}, {"tool_calls": [edit]}, {"text": "Done."}]
(scratch / "blind.json").write_text(json.dumps(responses))
argv = [sys.executable, "-m", "decode", "run", "--permission-mode", "bypass", "--model", f"script:{scratch}/blind.json"]
subprocess.run([*argv, "Greet with hello."], cwd=case, env=CLEAN, capture_output=True, check=True)
log = next((case / ".decode" / "sessions").glob("*.jsonl"))
evidence = Evidence.from_log(log, before, snapshot(case))
print([(call.name, call.outcome) for call in evidence.calls])
for result in score(evidence, [{"name": "read_before_edit"}, {"name": "minimal_diff", "max_lines": 2}]):
    print(f"{result.name}: {result.value:.2f} ({result.detail})")

# %% [markdown]
# The file ended up right, and the blind attempt still costs half the score: that is what a
# regression suite is for. `python -m evals regression` runs every case on a model and compares
# each metric with its threshold (1.0 unless the case sets one): a case passes when all of them
# hold, and the suite fails when the tier-1 cases' mean is under 0.8. What no metric can see (was
# the answer honest?) goes to `python -m evals judge`, a model grading the transcript against the
# case's `assertion`.
#
# ## Exercises
#
# 1. `pass_at_k(n, c, k)`: from `n` trials of a task of which `c` passed, the chance that at least
#    one of `k` trials passes. Hint: count the ways to draw `k` trials that all failed.
# 2. `read_reward(path)`: the reward a verifier wrote to `path`, a float in [0, 1]; 0.0 when the file
#    is missing, empty, not a number or out of range. A verifier is code the task author wrote and
#    the agent may have sabotaged: the grader must never crash on what it finds.
# 3. `edits_without_read(calls, existing)`: the regression suite's read-before-edit metric. From a
#    session's tool calls `(name, args)` in order, and the set of files that existed before the run,
#    return the existing files an `edit` or a `write` tried to change before the agent had `read`
#    them (a refused attempt counts: it was blind), in order, each once.

# %%
from exercises import check_edits_without_read, check_pass_at_k, check_read_reward


def pass_at_k(n, c, k):
    raise NotImplementedError  # your code here


def read_reward(path):
    raise NotImplementedError  # your code here


def edits_without_read(calls, existing):
    raise NotImplementedError  # your code here


# %%
check_pass_at_k(pass_at_k)

# %% [markdown]
# The runner's pass@k, to compare with yours (a running product instead of two binomials):

# %%
show("evals.metrics", "pass_at_k")

# %%
check_read_reward(read_reward)

# %% [markdown]
# And the runner's reader:

# %%
show("evals.benchmark.grade", "read_reward")

# %%
check_edits_without_read(edits_without_read)

# %% [markdown]
# ## Recap
#
# **What you built:** the `evals/` package beside decode: a benchmark (how good is it?) and a
# regression suite (did a change make it worse?).
#
# - A Benchmark Task is a Harbor / Terminal-Bench 2 folder; a Trial runs `decode run` on it in a
#   fresh workspace and sandbox, and grades the workspace, not the agent's exit code.
# - The Verifier Proof: the seed scores 0 and the reference solution 1, for every task; and the
#   verifier never trusts the workspace.
# - pass@1 is what one try gets you; pass@k the chance that one of k tries passes; cost (requests,
#   tokens, dollars, time) is a result too.
# - A Regression Case replays a prompt and scores Metrics over the Session Log and the workspace; a
#   model judges only what no metric can see.
# - `make lesson-diff N=24` shows this chapter's code: `evals/` is in lesson 24's snapshot.
#
# **The key idea:** grade what the agent left behind, with checks it cannot tamper with, and report
# what each point of score cost.
#
# **Glossary:** [Benchmark Task](../../docs/glossary.md#benchmark-task),
# [Trial](../../docs/glossary.md#trial), [Verifier Proof](../../docs/glossary.md#verifier-proof),
# [Verifier Judge](../../docs/glossary.md#verifier-judge),
# [Regression Case](../../docs/glossary.md#regression-case),
# [Metric](../../docs/glossary.md#metric).
