# %% [markdown]
# # Lesson 20 — Headless runs for scripts and CI
#
# So far a person sat in front of decode: the REPL asks, shows, waits. This lesson takes the person
# away. A CI job, a cron, a git hook or another program starts `decode run "TASK"`, and nobody
# reads the screen. This lesson makes `decode run` a **contract** that a program can rely on (lesson
# 16 runs that very command on Modal, many at once).
#
# 1. **stdout carries only what the output format says**: the answer (`text`), one result object
#    (`json`), or one JSON event per line (`stream-json`), with a JSON Schema for every event.
# 2. **stderr carries progress** for the person who may read the log later (`-q` silences it).
# 3. **The exit code says how it ended**: 0 done, 1 failed, 2 usage, 3 request ceiling, 4 an answer
#    that does not match `--json-schema`, 130 interrupted, 128+N a signal.
# 4. **Options a script needs**: `--cwd`, `--allowed-tools`/`--disallowed-tools` (session rules),
#    `--append-system-prompt`, `--continue`, `--summary-json PATH`, the task from stdin.
#
# ## Why a contract
#
# A program cannot read "Looks good, I fixed it!" the way you do. It needs to know three things
# without guessing: *did it work* (the exit code), *what came out* (stdout, machine-readable), and
# *what happened on the way* (events it can filter, count, alert on). Mixing progress into stdout
# breaks `decode run … > answer.md`; printing a friendly error and exiting 0 breaks `set -e`; a
# JSON that drops a key when it is empty breaks `jq .cost_usd`. So every key is always there, the
# last line is always the result, and the streams never mix.
#
# The agents you know made the same choice: `claude -p` has `--output-format text|json|stream-json`
# (a `result` object with `session_id`, usage and cost; `system/init` first in the stream, then
# `assistant` and `user` messages), and
# `codex exec` prints JSON Lines events with `--json` and the last message with
# `--output-last-message FILE`. decode keeps their option names, so CI recipes carry over.
#
# No key and no network: every run here is the scripted model (`script:FILE`).

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 20's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `exit_code` in `decode/runtime/headless.py`
# - `RunOutput.event` in `decode/runtime/output.py`
# - `RunSummary.to_json` in `decode/runtime/summary.py`
#
# `make lesson-start N=20` writes your copy into `build/20/`, and `make lesson-check N=20`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# A scratch project with a notes file; paths and session ids print in a stable form.

# %%
import json
import os
import re
import signal
import subprocess
import sys
import tempfile
from pathlib import Path

from course import show, show_diff

LESSON = Path.cwd()  # the notebook runs in its lesson's folder
scratch = Path(tempfile.mkdtemp(prefix="decode-lesson20-")).resolve()
os.environ["HOME"] = str(scratch / "home")
(scratch / "home").mkdir()
project = scratch / "project"
project.mkdir()
(project / "notes.txt").write_text("hello from the notes\nTODO: ship lesson 20\n")
os.chdir(project)
REVIEW = f"script:{LESSON / 'review.json'}"


def shown(text: object) -> str:
    """Text with the scratch folder and session ids (different on every run) made stable."""
    return re.sub(r"\b[0-9a-f]{8}\b", "<session>", str(text).replace(str(scratch), "<scratch>"))


def decode_run(*args: str, stdin: str = "") -> subprocess.CompletedProcess[str]:
    """`decode run ARGS` as a CI job runs it: a process, stdin a pipe, stdout and stderr kept apart."""
    argv = [sys.executable, "-m", "decode", "run", *args]
    return subprocess.run(argv, cwd=project, input=stdin, capture_output=True, text=True, timeout=120)


# %% [markdown]
# ## 1. A small version first: events in, JSON lines out
#
# The Agent Loop already yields typed events (lesson 02): `TextDelta`, `ToolCallStarted`,
# `ToolCallFinished`, `TurnFinished`… A stream-json printer is one `json.dumps` per event. Here is
# the whole idea in fifteen lines, run in this process on the scripted model:

# %%
from decode.agent.compose import LoopOptions, build_loop
from decode.config.settings import Settings
from decode.entities import events as ev


async def tiny_stream_json(task: str, model: str) -> None:
    conversation = build_loop(LoopOptions(project, model=model), Settings(_env_file=None))
    print(shown(json.dumps({"type": "init", "session_id": conversation.session.session_id})))
    async for event in conversation.loop.run_turn(task):
        if isinstance(event, ev.TextDelta):
            line = {"type": "text", "text": event.text}
        elif isinstance(event, ev.ToolCallStarted):
            line = {"type": "tool_call", "id": event.call.id, "name": event.call.name, "args": event.call.args}
        elif isinstance(event, ev.ToolCallFinished):
            line = {"type": "tool_result", "id": event.result.call_id, "is_error": event.result.is_error}
        elif isinstance(event, ev.TurnFinished):
            line = {"type": "result", "result": event.output, "num_requests": event.usage.requests}
        else:
            continue
        print(json.dumps(line), flush=True)  # flushed: a reader sees each line as it happens


await tiny_stream_json("what is in notes.txt?", REVIEW)

# %% [markdown]
# It works, and it shows what the real one must fix:
#
# - **Text comes in deltas**: one line per few characters is noise for a reader. decode
#   *coalesces* them: one `text` event per model response, sent when the response is complete.
# - **A failed run prints no `result`**: an exception ends the loop, and the reader is left
#   guessing. The real one prints the result object whatever happened, with `is_error`,
#   `exit_code` and `error`.
# - **A tool's output can be huge** (a 50 MB log): `tool_result.content` is cut to 4000
#   characters, with `truncated: true`.
# - **Nothing says what was run with**: the real `init` carries the model, the Harness Home, the
#   agent, the permission mode, the tools and the sandbox; `usage` events carry tokens and cost.
#
# ## 2. The real code
#
# Four small modules beside `decode/runtime/run.py`: `options.py` (the click options and what
# they ask of a run), `output.py` (the three formats), `summary.py` (the Run Summary, the one
# result object) and `formatted_run.py` (the run that uses them). `RunOutput.event` is the printer
# above, grown up:

# %%
show("decode.runtime.output", "RunOutput.event")

# %% [markdown]
# The answer goes to a pipe as plain text: a model's reply can hold escape sequences (OSC 52 sets
# the clipboard of whatever terminal later shows the file), so they are taken out whole unless
# `--raw` asks for the exact bytes; the JSON formats escape them as JSON does.

# %%
show("decode.runtime.plain", "plain")

# %% [markdown]
# The Run Summary: every key always present, `null` when unknown (no price for the model, no
# hand-back without `--repo`), so a script can index it without checks.

# %%
show("decode.runtime.summary", "RunSummary.to_json")

# %% [markdown]
# `--allowed-tools` and `--disallowed-tools` are permission rules in the syntax of lesson 06,
# added to the gate for this run only; the gate's order (deny, ask, allow, mode) makes a deny
# win over any allow and over bypass. `--append-system-prompt` adds to the agent's instructions
# (lesson 15's Active Agent reads them at every request):

# %%
show("decode.runtime.options", "HeadlessOptions.apply")

# %% [markdown]
# The run itself is lesson 02's `HeadlessRun`, its turn still driven by the Turn Runner, with
# what a program needs added in a subclass: the rules and instructions put in force before the
# turn, each event handed to the output (`FormattedView`, lesson 02's `TurnView` plus the
# format), the progress lines kept to warnings and errors by `-q` (`FormattedProgress`, which also
# keeps the first error for the summary), and `finish` at the single exit of the command, once, so
# the result object is printed however the run ended:

# %%
show("decode.runtime.formatted_run", "FormattedRun")

# %% [markdown]
# And what this lesson changed in `run.py`: the options taken out before anything starts, and the
# run made a `FormattedRun`.

# %%
show_diff(20, "decode/runtime/run.py")

# %% [markdown]
# A headless run in CI resumes what it is told to, in a repository someone else wrote. A session log
# that git tracks came with that repository: the composition root gains a step that marks it, so
# the resume steps take neither its sandbox nor its mode, and the user is told why.

# %%
show("decode.agent.steps.planted", "distrust_planted")

# %% [markdown]
# ## 3. Real runs
#
# `--output-format stream-json`, as a program reads it: one object per line, `init` first,
# `result` last. Progress is still on stderr, for the log. Claude Code's own messages come beside
# decode's events (section "Scripts written for other agents" below); here, decode's own:

# %%
CLAUDE_CODE = ("system", "assistant", "user")
done = decode_run("--output-format", "stream-json", "--model", REVIEW, "what is in notes.txt?")
lines = [json.loads(line) for line in done.stdout.splitlines()]
print("exit code", done.returncode)
for line in lines:
    if line["type"] in CLAUDE_CODE:
        continue
    brief = {key: value for key, value in line.items() if key in ("type", "name", "text", "is_error", "agent", "tools")}
    print(shown(json.dumps(brief)))

# %% [markdown]
# Every line is checked against `docs/schemas/stream-json.schema.json` (the tests do the same for
# every event type):

# %%
from jsonschema import Draft202012Validator

schema = json.loads((LESSON.parents[1] / "docs" / "schemas" / "stream-json.schema.json").read_text())
validator = Draft202012Validator(schema)
print("invalid lines:", [line["type"] for line in lines if not validator.is_valid(line)])
result = lines[-1]
print({key: result[key] for key in ("result", "num_requests", "is_error", "exit_code", "error", "handback")})

# %% [markdown]
# `--output-format json` is that last object alone, and `--summary-json PATH` writes it to a
# file whatever the format (a CI job keeps it as an artifact). The task can come on stdin:

# %%
done = decode_run(
    "--output-format", "json", "--summary-json", "summary.json", "--model", REVIEW, stdin="what is in notes.txt?"
)
print(done.returncode, json.loads(done.stdout)["result"])
print("summary.json is the same object:", json.loads((project / "summary.json").read_text()) == json.loads(done.stdout))

# %% [markdown]
# ### An answer a script can parse: `--json-schema`
#
# A CI step that labels an issue wants an object, not prose. `--json-schema SCHEMA` (Claude Code's
# spelling; Codex's is `--output-schema FILE`) makes the final answer a JSON object valid against the
# schema: the model answers through an output tool, and an answer that does not validate goes back to
# it with the errors. Here the scripted model first answers with a severity the schema does not
# allow, then with one it does:

# %%
triage = {
    "type": "object",
    "properties": {"severity": {"enum": ["low", "medium", "high"]}, "labels": {"type": "array"}},
    "required": ["severity", "labels"],
}
answers = str(scratch / "triage.json")
Path(answers).write_text(
    json.dumps(
        [
            {"tool_calls": [{"name": "final_result", "args": {"severity": "urgent", "labels": ["crash"]}}]},
            {"tool_calls": [{"name": "final_result", "args": {"severity": "high", "labels": ["crash"]}}]},
        ]
    )
)
done = decode_run(
    "--json-schema", json.dumps(triage), "--output-format", "json", "--model", f"script:{answers}", "triage"
)
summary = json.loads(done.stdout)
print(done.returncode, summary["structured_output"], "requests:", summary["num_requests"])

# %% [markdown]
# A model that never gives a valid object ends the run with exit 4 after three retries: the script
# can tell "no answer in the shape I need" from a failed run (1).

# %%
Path(answers).write_text(
    json.dumps([{"tool_calls": [{"name": "final_result", "args": {"severity": "urgent", "labels": []}}]}] * 4)
)
done = decode_run(
    "--json-schema", json.dumps(triage), "--output-format", "json", "--model", f"script:{answers}", "triage"
)
print(done.returncode, shown(json.loads(done.stdout)["error"]))

# %% [markdown]
# ### Exit codes, each for real
#
# A script that ran out (1), the request ceiling (3), a rule that cannot be read (2): the result
# object says the same as the exit code, with the reason in `error`.

# %%
exhausted = str(scratch / "one.json")
Path(exhausted).write_text(json.dumps([{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}]))
for args in (
    ["--model", f"script:{exhausted}"],
    ["--model", REVIEW, "--max-requests", "1"],
    ["--model", REVIEW, "--allowed-tools", "Bash(git diff:*"],
):
    done = decode_run("--output-format", "json", *args, "go")
    summary = json.loads(done.stdout) if done.stdout else None
    print(done.returncode, shown(summary["error"]) if summary else f"(no JSON) {done.stderr.strip().splitlines()[-1]}")

# %% [markdown]
# A malformed rule is caught by the option parser, before anything runs: there is no result
# object then (the output format itself may be the bad option), only exit 2 and the message.
#
# SIGTERM (a CI job cancelled, a container stopped): the run stops its tools, saves the session,
# and still ends the stream with its result, exit code 128 + 15.

# %%
slow = str(scratch / "slow.json")
Path(slow).write_text(json.dumps([{"text": "thinking…", "delay_s": 60}]))
argv = [sys.executable, "-m", "decode", "run", "--output-format", "stream-json", "--model", f"script:{slow}", "go"]
process = subprocess.Popen(
    argv, cwd=project, stdin=subprocess.DEVNULL, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True
)
print(json.loads(process.stdout.readline())["type"])  # `init`: the run has started
process.send_signal(signal.SIGTERM)
out, err = process.communicate(timeout=60)
last = json.loads(out.splitlines()[-1])
print(process.returncode, last["type"], last["exit_code"], last["error"])

# %% [markdown]
# ### Session rules decide a real call
#
# Headless, in the default mode, a command that writes is refused (no one can approve). An allow
# rule lets it run; a deny rule refuses it even in bypass, and the model is told why.

# %%
touch = str(scratch / "touch.json")
Path(touch).write_text(
    json.dumps([{"tool_calls": [{"name": "bash", "args": {"command": "touch made.txt"}}]}, {"text": "ok"}])
)
for args in (
    [],
    ["--allowed-tools", "Read, Bash(touch:*)"],
    ["--permission-mode", "bypass", "--disallowed-tools", "Bash(touch:*)"],
):
    done = decode_run("--output-format", "stream-json", "--model", f"script:{touch}", *args, "go")
    (result,) = [event for event in map(json.loads, done.stdout.splitlines()) if event["type"] == "tool_result"]
    print(
        args or "(no rule)",
        "→",
        "refused:" if result["is_error"] else "ran",
        result["content"][:60] if result["is_error"] else "",
        "| made.txt:",
        (project / "made.txt").exists(),
    )
    (project / "made.txt").unlink(missing_ok=True)

# %% [markdown]
# ### A session the script names, and a fork of it
#
# Claude Code's scripts name a session before it starts (`id=$(uuidgen)`, then `--session-id
# "$id"`) and resume it by that name. decode's own ids stay eight hex digits, short enough to type;
# a session the user names is named by its whole UUID, in lower case (ADR-0129). `--fork-session`
# goes on from a saved session in a new one, holding a copy of its log (lesson 11's `copy_log`):
# the original is read, never written.

# %%
named = "8C1E7A52-3F4B-4D6E-9A0B-1C2D3E4F5A6B"  # as uuidgen prints it on macOS
first = decode_run("--output-format", "json", "--session-id", named, "--model", REVIEW, "what is in notes.txt?")
print(first.returncode, json.loads(first.stdout)["session_id"])
[original] = (project / ".decode" / "sessions").glob(f"*_{named.lower()}.jsonl")
before = original.read_bytes()
fork = decode_run("--output-format", "json", "--resume", named[:8], "--fork-session", "--model", REVIEW, "again?")
forked = json.loads(fork.stdout)["session_id"]
[copy] = (project / ".decode" / "sessions").glob(f"*_{forked}.jsonl")
header = json.loads(copy.read_text().splitlines()[0])
print(fork.returncode, len(forked), "hex digits, forked from the named one:", header["forked_from"] == named.lower())
print("the original's log as it was:", original.read_bytes() == before)
bad = decode_run("--session-id", "3f2a9c1b", "go")  # refused while the command line is read
print(bad.returncode, bad.stderr.strip().splitlines()[-1])

# %% [markdown]
# Claude Code's `--settings` (a settings layer above every file, lesson 06) and `--add-dir` (a
# folder beside the Workspace, lesson 17) are options of both front ends, so `decode run` has them
# from their lessons on; a script written for `claude -p` that uses them runs unchanged here. Read
# relative to the launch directory, they follow `--cwd DIR` too.

# %% [markdown]
# ### Scripts written for other agents read their own events
#
# A pipeline written for `claude -p --output-format stream-json --verbose` filters Claude Code's
# messages: `assistant` ones whose `message.content` holds `text`, `thinking` and `tool_use`
# blocks, `user` ones carrying each `tool_result` (with `is_error`). One written for `codex exec
# --json` filters Codex's: `item.completed` events whose `item.type` is `agent_message`,
# `command_execution`, `file_change`… Neither knows decode's `text` or `tool_call`. So each output
# format speaks the other tool's vocabulary too, through a **dialect**: told what `RunOutput` is
# told (the `init` object, each Agent Event, the result), it returns the lines the other tool would
# have written. `stream-json` writes Claude Code's messages *beside* decode's own events (the tests,
# this notebook and lesson 21 read those); `--json`, Codex's spelling, writes Codex's events alone.

# %%
show("decode.runtime.codex_events", "CodexEvents._completed")

# %% [markdown]
# The same scripted run, read as each tool's users read it: the model's words, the tools it called.

# %%
claude = decode_run("--output-format", "stream-json", "--verbose", "--model", REVIEW, "what is in notes.txt?")
for message in map(json.loads, claude.stdout.splitlines()):
    if message["type"] == "assistant":  # jq 'select(.type=="assistant") | .message.content[]'
        block = message["message"]["content"][0]
        print("claude:", block["type"], block.get("text") or block.get("name"))
codex = decode_run("--json", "--model", REVIEW, "what is in notes.txt?")
for event in map(json.loads, codex.stdout.splitlines()):
    item = event.get("item", {})
    what = item.get("text") or item.get("command") or item.get("tool", "")
    print("codex: ", event["type"], item.get("type", ""), what)

# %% [markdown]
# ## 4. Exercise: read a transcript as CI does
#
# Write `tool_outcomes(stream)`: from the stdout of a `stream-json` run, the tools called in call
# order, each with whether it succeeded, and the run's exit code from the `result` line. Pair
# each result with its call **by id**: calls of one response run in parallel and finish in any
# order. A call with no result (the run stopped) did not succeed. A stream that does not end with
# a `result` line (the process was killed with SIGKILL) raises `ValueError`.

# %%
from exercises import check_tool_outcomes


def tool_outcomes(stream: str) -> tuple[list[tuple[str, bool]], int]:
    raise NotImplementedError  # your code here


# %%
check_tool_outcomes(tool_outcomes)

# %% [markdown]
# ## Recap
#
# **What you built:** `decode run` as a contract for scripts and CI.
#
# - stdout carries only what the output format says (`text`, `json`, `stream-json`); stderr carries
#   progress; the exit code says how it ended.
# - The Run Summary has every key, always; the last `stream-json` line is the result.
# - Options a script needs: `--cwd`, `--allowed-tools`, `--append-system-prompt`, `--continue`,
#   `--summary-json`, the task from stdin.
# - An answer in the shape a script needs (`--json-schema`): validated, sent back with the errors
#   when it does not fit, exit 4 when it never does.
# - A session the script names (`--session-id UUID`), and a fork of it; a session log that came
#   with the repository chooses nothing.
# - Scripts written for `claude -p` and `codex exec --json` read their own events: a dialect turns
#   decode's events into Claude Code's messages (beside decode's own) or Codex's items.
#
# **The key idea:** a program cannot read "Looks good!": it needs the exit code, machine-readable
# stdout, and events it can filter, and they must never mix.
#
# **Glossary:** [Headless Run](../../docs/glossary.md#headless-run),
# [Run Summary](../../docs/glossary.md#run-summary), [Dialect](../../docs/glossary.md#dialect).
