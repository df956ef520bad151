# %% [markdown]
# # Lesson 11 — Sessions and compaction
#
# Until now a conversation lived in memory: close decode, lose power, and it was gone. And a long
# conversation kept growing until the model's context window was full. This lesson fixes both:
#
# 1. **The Session Log** (`decode/context/session_log.py`): one append-only JSONL file per
#    conversation, one line per completed turn, fsynced before the turn is reported finished.
# 2. **Resume** (`replay.py`, `session.py`, `catalog.py`): `decode --resume`,
#    `decode run --resume ID`, `decode sessions`; a crash mid-write costs only the turn being written.
# 3. **Context windows** (`windows.py`): how many tokens each model holds, how full the history is.
# 4. **Compaction** in two tiers: old tool outputs become placeholders past ~60 % (`pruning.py`),
#    the older history becomes a structured summary past ~80 % (`compaction.py`).
#
# The Agent Loop takes a `Session`, which acts at three moments of a turn: before it, the loop
# compacts if needed; during it, the session's pruning runs before each model request, as a
# pydantic-ai *capability* the loop hands to the run; after it, the loop writes the turn down.
#
# We start with a session log of our own, twenty lines, and break it the way a crash does. Then the
# package's log, and what it does that ours does not.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 11's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `SessionLog.append` in `decode/context/session_log.py`
# - `SessionLog.reopen` in `decode/context/session_log.py`
# - `_replay` in `decode/context/replay.py`
#
# `make lesson-start N=11` writes your copy into `build/11/`, and `make lesson-check N=11`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %%
import json
import logging
import os
import re
import tempfile
from pathlib import Path

from course import show, show_diff

project_dir = tempfile.TemporaryDirectory(prefix="decode-lesson11-")  # removed when the kernel stops
project = Path(project_dir.name).resolve()
os.chdir(project)
Path("notes.txt").write_text("".join(f"note {n}: ship the parser on Friday\n" for n in range(150)))


def script(name: str, responses: list[dict]) -> str:
    """Write a scripted model's responses (lesson 02) and return its model string."""
    Path(name).write_text(json.dumps(responses))
    return f"script:{name}"


# %% [markdown]
# ## 1. A session log by hand
#
# The rule: a conversation is a file that only ever grows, one JSON object per line. A turn that
# has ended is *appended* (never a rewrite of the file, which a crash could leave half-written),
# then flushed out of Python's buffer and `fsync`ed out of the kernel's, so it is on disk before
# anyone is told the turn finished.


# %%
def append(path: Path, record: dict) -> None:
    """One record, one line, on disk when this returns."""
    with path.open("a", encoding="utf-8") as file:
        file.write(json.dumps(record) + "\n")
        file.flush()
        os.fsync(file.fileno())


def read_back(path: Path) -> list[dict]:
    """Every record of the log, in order."""
    return [json.loads(line) for line in path.read_text(encoding="utf-8").splitlines()]


# %% [markdown]
# What a turn line holds: the turn's *new* messages, in pydantic-ai's own JSON form
# (`ModelMessagesTypeAdapter`), so they come back as the very objects the Agent Loop keeps. Two
# turns on lesson 02's Agent Loop, with no session yet, written down by hand:

# %%
from pydantic_ai.messages import ModelMessagesTypeAdapter

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.models.gateway import resolve_model
from decode.processes.local import LocalExecutor
from decode.tools.catalog import FILE_TOOLS

settings = Settings(_env_file=None, gemini_api_key=None)  # no .env, no key: offline
mine = Path("mine.jsonl")
by_hand = AgentLoop(
    build_agent(resolve_model(script("hand.json", [{"text": "Friday."}, {"text": "Still Friday."}]), settings)),
    AgentDeps(LocalExecutor(project), settings, harness_home=project),
)
for prompt in ["when does the parser ship?", "sure?"]:
    before = len(by_hand.history)
    async for _event in by_hand.run_turn(prompt):
        pass
    new_messages = by_hand.history[before:]
    append(mine, {"type": "turn", "messages": ModelMessagesTypeAdapter.dump_python(new_messages, mode="json")})

records = read_back(mine)
print(len(records), "lines;", [message["kind"] for message in records[0]["messages"]])
replayed = [m for record in records for m in ModelMessagesTypeAdapter.validate_python(record["messages"])]
print(replayed == by_hand.history)

# %% [markdown]
# Now the crash: the power goes while the third line is written. Only its first bytes reached the
# disk. Our `read_back` cannot read the session at all, though two turns were complete:

# %%
with mine.open("a") as file:
    file.write('{"type": "turn", "messages": [{"parts": [{"cont')
try:
    read_back(mine)
except json.JSONDecodeError as error:
    print("JSONDecodeError:", error)

# %% [markdown]
# Reading must tolerate a torn **last** line: skip it, keep the rest. (A bad line in the middle is
# not what a crash leaves; decode skips it too, with a different warning.)


# %%
def read_back(path: Path) -> list[dict]:
    """Every complete record; a torn line (no newline at its end, not valid JSON) is skipped."""
    records = []
    for line in path.read_text(encoding="utf-8").splitlines(keepends=True):
        try:
            records.append(json.loads(line))
        except json.JSONDecodeError:
            print("skipping", "a torn last line" if not line.endswith("\n") else "a bad line")
    return records


print(len(read_back(mine)), "turns kept")

# %% [markdown]
# One trap is left. Resume, and append the next turn: it lands *on the end of the torn bytes*, and
# that turn, answered and fsynced, is now unreadable too.

# %%
append(mine, {"type": "turn", "messages": []})
print(len(read_back(mine)), "turns kept")

# %% [markdown]
# So before appending to an old log, cut a torn last line off. That, a header line saying which
# session this is, and a few more cases, is what the package's Session Log adds.
#
# ## 2. The package's Session Log
#
# `SessionLog.append` is our `append` with three additions: the header goes in front of the first
# record (the file appears only when there is a turn to keep), the file is private (0600), and a
# write that fails half-way (a full disk) is cut off, so the next line does not join it. The
# messages are serialised without building pydantic-ai's schema, which only reading needs.

# %%
show("decode.context.session_log", "SessionLog.append")

# %% [markdown]
# `reopen` is the fix for the trap: a resumed log first loses its torn bytes.

# %%
show("decode.context.session_log", "SessionLog.reopen")

# %% [markdown]
# And reading a line back (`replay.py`): a line that is not a valid record is skipped with a
# warning that says whether it was torn; a `compaction` line replaces the history, a `clear`
# line empties it, and a `rewind` line (section 9) cuts it back. Each turn also leaves a mark of
# where it starts, which section 9's `/rewind` offers.

# %%
show("decode.context.replay", "_replay")

# %% [markdown]
# ## 3. A session: every turn, written down as it ends
#
# `Session.start()` names a new session in the **Harness Home** (the launch directory). Nothing
# is written until the first turn completes: a conversation that never started leaves no file.

# %%
from decode.context.session import Session
from decode.entities.events import Notice, TurnFinished


def agent_loop(model: str, session: Session) -> AgentLoop:
    agent = build_agent(resolve_model(model, settings), tools=FILE_TOOLS)
    return AgentLoop(agent, AgentDeps(LocalExecutor(project), settings, harness_home=project), session=session)


async def turn(loop: AgentLoop, prompt: str) -> None:
    async for event in loop.run_turn(prompt):
        if isinstance(event, Notice):
            print(f"[{event.level}] {event.message}")
        elif isinstance(event, TurnFinished):
            print("→", event.output)


model = script("chat.json", [{"text": "Noted: the parser ships Friday."}, {"text": "You said Friday."}])
session = Session.start(project, model=model)
print(session.log.path.relative_to(project).parent, session.log.path.exists())
loop = agent_loop(model, session)
await turn(loop, "remember: the parser ships on Friday")
await turn(loop, "when does it ship?")

# %% [markdown]
# One header line, then one line per turn. A turn line holds that turn's new messages, as ours
# did, plus what a listing needs (the start of the prompt, the model, the usage). Here is all this
# lesson adds to the Agent Loop. Before the turn, `needs_summary` decides on a compaction (section
# 8); the run's model is `session.pruned(model)`, the pruning of section 7; `keep_turn()` writes the turn
# through `Session.record_turn`, and in `_finish()` a disk that refuses costs a warning, not the answer; a turn that
# fails or is cancelled leaves what it had done in `unfinished`, which `decode run` saves.

# %%
show_diff(11, "decode/agent/loop.py")

# %%
lines = [json.loads(line) for line in session.log.path.read_text().splitlines()]
print([line["type"] for line in lines])
print(sorted(lines[0]))
print(sorted(lines[1]))
print([message["kind"] for message in lines[1]["messages"]])

# %% [markdown]
# ## 4. Resume
#
# `Session.resume()` finds a session by id, by a unique prefix of it, or (with no id) the newest
# in this directory, and replays its log into the history. The model comes back with it.
# `decode --resume` and `decode run --resume ID "…"` do exactly this.

# %%
from decode.context.catalog import list_sessions

resumed, loaded = Session.resume(project, session.session_id[:4])
print(resumed.session_id == session.session_id, loaded.turns, len(loaded.history), loaded.model == model)
print(loaded.history == loop.history)
for info in list_sessions(project):  # what `decode sessions` shows
    print(info.turns, info.tokens, repr(info.first_prompt))

# %% [markdown]
# Every front end gets its session from the composition root: three steps of their own. The
# session is opened first (the model comes from it now), a resumed one goes on in its mode, and
# once the Permission Gate is built the session records the gate's mode:

# %%
show("decode.agent.steps.session")

# %%
show_diff(11, "decode/agent/compose.py")

# %% [markdown]
# ## 5. A crash mid-write, in the package
#
# Section 1's crash, on a real session: loading skips the torn line with a warning and keeps every
# complete turn. Resuming (`Session.resume`, which reopens the log with `SessionLog.reopen`) cuts
# the torn bytes off, so the next turn lands on a line of its own.

# %%
from decode.context.replay import load_session

data = session.log.path.read_bytes()
session.log.path.write_bytes(data[: len(data) - 100])  # the last turn, cut 100 bytes short

warnings: list[str] = []  # what decode's loggers warn, without the (scratch) path in front
capture = logging.Handler()
capture.emit = lambda record: warnings.append(record.getMessage().split(": ", 1)[1])
logging.getLogger("decode.context").addHandler(capture)
torn = load_session(session.log.path)
print(torn.turns, torn.skipped_lines, warnings)

# %% [markdown]
# Resume it and run one more turn, as `decode run --resume ID "…"` would:

# %%
warnings.clear()
after_crash, loaded = Session.resume(project, session.session_id)
print([re.sub(r"\d+ bytes", "N bytes", warning) for warning in warnings])  # N: the torn line's length
logging.getLogger("decode.context").removeHandler(capture)
again = script("again.json", [{"text": "Friday, as you said."}])
continued = agent_loop(again, after_crash)
continued.history = loaded.history
await turn(continued, "when does it ship, again?")
reread = load_session(session.log.path)
print(reread.turns, "turns,", reread.skipped_lines, "lines skipped")

# %% [markdown]
# Two decodes continuing one session would interleave their turns in one log, each from a history
# the other keeps changing. So the decode writing a session holds its **Session Lock**: an `flock`
# on a small file beside the log, which the kernel releases if the process dies.

# %%
show("decode.context.session_lock", "hold")

# %% [markdown]
# This notebook holds our session. A second process resuming it, as a second `decode --resume ID`
# would, forks it (`session_fork.py`): it copies the log into a new session, says so, and never
# writes to ours.

# %%
import subprocess
import sys

second = f"""
import logging, pathlib
from decode.context.session import Session
logging.basicConfig(format="%(message)s")
forked, loaded = Session.resume(pathlib.Path({str(project)!r}), {session.session_id!r})
print(forked.log.header.forked_from == {session.session_id!r}, loaded.turns, "turns")
"""
done = subprocess.run([sys.executable, "-c", second], capture_output=True, text=True, check=True)
print(done.stdout.strip())
print(re.sub(r"\b[0-9a-f]{8}\b|\(pid \d+\)", "…", done.stderr.strip()))  # ids and pid vary
print(load_session(session.log.path).turns, "turns in ours, as before")

# %% [markdown]
# The copy is `copy_log`, and lesson 20 lets a script ask for one: `decode run --resume ID
# --fork-session "…"` goes on in a new session holding a copy of ID's log, whose own log is never
# written; `--session-id UUID` names a new session (or the fork) the way Claude Code's scripts do.

# %% [markdown]
# ## 6. How full is the context window?
#
# `context_window()` knows the big model families; an unknown model gets a conservative default
# (and one warning), and `DECODE_CONTEXT_WINDOW` overrides both. `context_tokens()` takes the
# provider's count from the last response and estimates what came after it (four characters a
# token); the REPL's footer gauge shows `fill_fraction()`.

# %%
from decode.context.windows import context_tokens, context_window, fill_fraction

for name in ["google-gla:gemini-flash-latest", "openrouter:qwen/qwen3-coder", "openrouter:anthropic/claude-sonnet-4"]:
    print(f"{name:38} {context_window(name).tokens:>9,}")
print(context_tokens(loaded.history), f"{fill_fraction(loaded.history, 1_000):.0%} of a 1,000-token window")

# %% [markdown]
# A model the table does not know, such as one you serve yourself, gets the default and a warning
# (once per model) that says how to set the real size.

# %%
context_window("openai-compatible:my-own-model")

# %% [markdown]
# ## 7. Tier 1: old tool outputs become placeholders
#
# Past about 60 % of the window, tool outputs older than the recent part of the conversation are
# replaced by one line in what the model is sent. It runs as a pydantic-ai capability before every
# model request; the history in memory and the log keep the outputs. Which outputs: those before
# the most recent `keep_recent_tokens` that a placeholder would shorten.

# %%
show("decode.context.pruning", "prunable_outputs")

# %% [markdown]
# It hooks into every request as a pydantic-ai capability. A capability's `wrap_model_request` is
# called with the request about to be sent (`request_context`, its `messages` among it) and a
# `handler` that sends it: the capability may change the request, then must call the handler and
# return its response. This one changes only the messages sent, never the history:

# %%
show("decode.context.pruning", "ToolOutputPruning.wrap_model_request")

# %% [markdown]
# `view` decides: the outputs pruned so far, and more once the request would fill 60 % of the window.

# %%
show("decode.context.pruning", "ToolOutputPruning.view")

# %% [markdown]
# A capability takes part in every hook of a run, though: pydantic-ai calls each one before and
# after each node, each tool call and each request, thousands of calls in a long turn, for the
# one hook pruning needs. So the Agent Loop applies the same `view` one layer further in, in the
# model it sends the turn's requests to (`Session.pruned(model)`):

# %%
show("decode.context.pruning", "PrunedModel.request_stream")

# %% [markdown]
# The two functions at work, on a turn that read a long file:

# %%
from decode.context.pruning import prunable_outputs, with_placeholders

reader = script("reader.json", [{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}, {"text": "Read."}])
reading = agent_loop(reader, Session.start(project, model=reader))
await turn(reading, "read notes.txt")
old = prunable_outputs(reading.history, keep_recent_tokens=50)
print(old)
pruned = with_placeholders(reading.history, old)
print(pruned[2].parts[0].content)
print(len(reading.history[2].parts[0].content) > 5_000)  # the original is untouched

# %% [markdown]
# ## 8. Tier 2: a summary replaces the older history
#
# Past about 80 %, before the next turn, one request to the active model summarises everything
# but the recent tail, under fixed headings (goal, constraints, progress, decisions, next steps,
# files touched). The tail stays verbatim, and the history is only ever cut where no tool call
# waits for its result:

# %%
show("decode.context.compaction", "summarise")

# %% [markdown]
# `tail_start` picks the longest tail within budget that begins at a *safe cut*: an index where no
# tool call of the head still waits for its result in the tail.

# %%
show("decode.context.compaction", "safe_cuts")

# %% [markdown]
# Here a 1,900-token window, and the script plays the summariser too.

# %%
summary = "## Goal\nShip the parser.\n## Constraints\nnone\n## Progress\nRead notes.txt.\n## Decisions\nShip on Friday.\n## Next steps\nRelease.\n## Files touched\nnotes.txt"  # noqa: E501
long_chat = script(
    "long.json",
    [
        {"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]},
        {"text": "The notes say: ship on Friday."},
        {"text": summary},  # the summarising request
        {"text": "Release notes drafted."},
    ],
)
small = Session.start(project, model=long_chat, settings=Settings(context_window=1_900))
compacting = agent_loop(long_chat, small)
await turn(compacting, "read notes.txt")
print(f"{small.fill(compacting.history):.0%}", small.needs_summary(compacting.history))
await turn(compacting, "draft the release notes")

# %% [markdown]
# The first message now holds the summary (with the paths the compacted tool calls named); the
# tail follows verbatim. The compaction is a line in the log, so a resumed session continues from it.

# %%
first = compacting.history[0]
print(first.parts[0].content)
print([line["type"] for line in map(json.loads, small.log.path.read_text().splitlines())])
print(load_session(small.log.path).history == compacting.history)

# %% [markdown]
# A summary that fails (the provider is down; here, the script has nothing left) leaves the history
# exactly as it was and says so. `/compact [focus]` in the REPL calls the same `compact()`.

# %%
before = list(compacting.history)
notice = await compacting.compact("the release")
print(f"[{notice.level}] {notice.message}")
print(compacting.history == before)

# %% [markdown]
# ## 9. Checkpoints: undo a turn
#
# A turn that rewrote the wrong file should be one command from undone, and the turn with it. So
# before `write` or `edit` first change a file in a turn, they hand it to the session's
# **Checkpoint** (`deps.checkpoint`), which keeps it as it was: its bytes (once, by content hash,
# in a folder beside the Session Log), its mode bits, or that it did not exist. The tools' one
# change is a call instead of `executor.write_atomic`:

# %%
show("decode.entities.checkpoint", "write_kept")

# %% [markdown]
# A secret file the Permission Gate hides, a file outside the Workspace or one over 2 MiB is
# recorded without its content (and rewinding says so); what `bash` changes is not tracked at all.

# %%
show("decode.context.checkpoints", "Checkpoints._kept")

# %% [markdown]
# Two turns on a loop whose deps carry the session's checkpoints: the first creates `plan.md`,
# the second rewrites `notes.txt`. Each turn line now lists the files it changed.

# %%
edits = script(
    "edits.json",
    [
        {"tool_calls": [{"name": "write", "args": {"path": "plan.md", "content": "# Plan\nShip Friday.\n"}}]},
        {"text": "Wrote plan.md."},
        {"tool_calls": [{"name": "read", "args": {"path": "notes.txt", "limit": 1}}]},
        {"tool_calls": [{"name": "write", "args": {"path": "notes.txt", "content": "ship on Monday\n"}}]},
        {"text": "notes.txt now says Monday."},
    ],
)
kept = Session.start(project, model=edits)
deps = AgentDeps(LocalExecutor(project), settings, harness_home=project, checkpoint=kept.checkpoints)
undoable = AgentLoop(build_agent(resolve_model(edits, settings), tools=FILE_TOOLS), deps, session=kept)
await turn(undoable, "write a plan")
await turn(undoable, "the notes should say Monday")
for mark in kept.checkpoints.marks:
    print(mark.start, repr(mark.prompt), [(Path(c.path).name, c.existed, c.after[:8]) for c in mark.changes])

# %% [markdown]
# `/undo` is `rewind_to` on the last turn: `plan` works out each file's state before the earliest
# rewound turn, `changed_since` names a file whose content is neither what the turn wrote nor
# what it was (you edited it since: the REPL asks before overwriting it), `restore` puts the files
# back through the executor, and `rewind_conversation` cuts the history back with a `rewind` line
# appended to the log, so `--resume` sees the rewound conversation. `/rewind` (or Esc Esc) offers
# any turn since the last compaction or clear, and the code or the conversation alone.

# %%
from decode.context.rewind import changed_since, plan, restore, rewind_conversation

restoring = plan(kept.checkpoints.marks, 0, undoable.history)  # back to before turn 1: both turns
print(await changed_since(deps.executor, restoring.files))
done = await restore(deps.executor, kept.checkpoints, restoring.files)
print([path.name for path in done.restored], [path.name for path in done.removed])
undoable.history = rewind_conversation(kept, undoable.history, restoring.keep)
print(Path("notes.txt").read_text().splitlines()[0], Path("plan.md").exists(), len(undoable.history))
print([line["type"] for line in map(json.loads, kept.log.path.read_text().splitlines())])
print(len(load_session(kept.log.path).history))

# %% [markdown]
# Try it yourself: in a project of yours, `decode run "…"` twice, then `decode sessions` and
# `decode run --resume ID "…"`; in the REPL, `decode --resume`, `/compact` when the footer's
# gauge fills up, and `/undo` or `/rewind` (Esc Esc) after a turn that edited a file
# (`docs/checkpoints.md`).
#
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. Replay a log a crash has torn
#
# Write `replay(path)`: read a JSON-lines log like section 1's, where a `{"type": "turn",
# "messages": [...]}` line adds its messages (pydantic-ai's JSON form, as section 1 wrote them) to
# the history and a `{"type": "clear"}` line empties it, and return the history as a list of
# pydantic-ai messages (`ModelMessagesTypeAdapter.validate_python`, as section 1 read them back).
# A torn last line must not cost the turns before it. The check writes real logs, torn the way a
# crash tears them.

# %%
from exercises import check_prune, check_replay


def replay(path: Path) -> list:
    raise NotImplementedError  # your code here


# %%
check_replay(replay)

# %% [markdown]
# ### 2. A pruning rule
#
# Write `prune(messages, keep_last)`: return a copy of `messages` in which every `ToolReturnPart`
# of a `ModelRequest` before the last `keep_last` messages has `placeholder(part)` as its content.
# The recent messages stay as they are, and so must `messages` itself: memory and the log keep
# every output. (`dataclasses.replace` copies a message or a part with one field changed.) The
# check runs three `read` turns on the Agent Loop (the first reads two files at once: one request,
# two outputs) and prunes their history with several `keep_last`, the boundary and 0 among them.

# %%
from pydantic_ai.messages import ModelMessage

from decode.context.pruning import placeholder  # noqa: F401 (your prune() needs it)


def prune(messages: list[ModelMessage], keep_last: int) -> list[ModelMessage]:
    raise NotImplementedError  # your code here


# %%
check_prune(prune)

# %% [markdown]
# ## Recap
#
# **What you built:** sessions that survive the process, and compaction that keeps a long
# conversation inside the context window.
#
# - The Session Log is an append-only JSONL file, one line per finished turn, synced before the turn
#   is reported finished; a crash mid-write costs only that turn.
# - Resume (`decode --resume`, `decode run --resume ID`) rebuilds the history, the model and the
#   mode from the log.
# - The Context Window of each model, and the Fill of the history, decide when to compact.
# - Compaction has two tiers: Pruning turns old tool outputs into placeholders past ~60 %; a Summary
#   replaces the older history past ~80 %, cut at a Safe Cut.
# - Checkpoints keep each file before a turn's file tools change it; a Rewind (`/undo`, `/rewind`)
#   puts the files back and appends a rewind line, so a resumed session agrees.
#
# **The key idea:** write down what happened before saying it happened, and shrink what the model
# sees, never what the log keeps.
#
# **Glossary:** [Session](../../docs/glossary.md#session),
# [Session Log](../../docs/glossary.md#session-log), [Resume](../../docs/glossary.md#resume),
# [Session Lock](../../docs/glossary.md#session-lock),
# [Context Window](../../docs/glossary.md#context-window), [Fill](../../docs/glossary.md#fill),
# [Compaction](../../docs/glossary.md#compaction), [Pruning](../../docs/glossary.md#pruning),
# [Summary](../../docs/glossary.md#summary), [Safe Cut](../../docs/glossary.md#safe-cut),
# [Checkpoint](../../docs/glossary.md#checkpoint), [Rewind](../../docs/glossary.md#rewind).
