# %% [markdown]
# # Lesson 08 — Sessions and compaction
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
# The Agent Loop takes a `Session` and calls it at three moments of a turn: before it (compact if
# needed), before each model request (prune), and after it (write the turn down).

# %%
import json
import logging
import os
import tempfile
from pathlib import Path

project_dir = tempfile.TemporaryDirectory(prefix="decode-lesson08-")  # removed when the kernel stops
project = Path(project_dir.name).resolve()
os.chdir(project)
Path("notes.txt").write_text("".join(f"note {n}: ship the parser on Friday\n" for n in range(150)))


def script(name: str, responses: list[dict]) -> str:
    """Write a scripted model's responses (lesson 02) and return its model string."""
    Path(name).write_text(json.dumps(responses))
    return f"script:{name}"


# %% [markdown]
# ## 1. Every turn, written down as it ends
#
# `Session.start()` names a new session in the **Harness Home** (the launch directory). Nothing
# is written until the first turn completes: a conversation that never started leaves no file.

# %%
from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.context.session import Session
from decode.entities.deps import AgentDeps
from decode.entities.events import Notice, TurnFinished
from decode.models.gateway import resolve_model
from decode.tools.catalog import FILE_TOOLS
from decode.tools.local import LocalExecutor

settings = Settings()


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
# One header line, then one line per turn. A turn line holds that turn's new messages in
# pydantic-ai's own serialised form (`ModelMessagesTypeAdapter`), plus what a listing needs.

# %%
lines = [json.loads(line) for line in session.log.path.read_text().splitlines()]
print([line["type"] for line in lines])
print(sorted(lines[0]))
print(sorted(lines[1]))
print([message["kind"] for message in lines[1]["messages"]])

# %% [markdown]
# ## 2. Resume
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
# ## 3. A crash mid-write
#
# A line is flushed and fsynced before the turn is reported finished, so a turn you saw answered
# is on disk. A crash (or a power cut) while a line is written leaves a torn line: loading skips
# it with a warning and keeps every complete turn; reopening the log cuts the torn bytes off.

# %%
from decode.context.replay import load_session

data = session.log.path.read_bytes()
session.log.path.write_bytes(data[: len(data) - 100])  # the last turn, cut 100 bytes short

warnings: list[str] = []
capture = logging.Handler()
capture.emit = lambda record: warnings.append(record.getMessage().split(": ", 1)[1])
logging.getLogger("decode.context.replay").addHandler(capture)
torn = load_session(session.log.path)
logging.getLogger("decode.context.replay").removeHandler(capture)
print(torn.turns, torn.skipped_lines, warnings)

# %% [markdown]
# ## 4. How full is the context window?
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
# ## 5. Tier 1: old tool outputs become placeholders
#
# Past about 60 % of the window, tool outputs older than the recent part of the conversation are
# replaced by one line in what the model is sent. It runs as a pydantic-ai capability before every
# model request; the history in memory and the log keep the outputs. Here the two functions it
# uses, on a turn that read a long file.

# %%
from decode.context.pruning import placeholder, prunable_outputs, with_placeholders

reader = script("reader.json", [{"tool_calls": [{"name": "read", "args": {"path": "notes.txt"}}]}, {"text": "Read."}])
reading = agent_loop(reader, Session.start(project, model=reader))
await turn(reading, "read notes.txt")
old = prunable_outputs(reading.history, keep_recent_tokens=50)
print(old)
pruned = with_placeholders(reading.history, old)
print(pruned[2].parts[0].content)
print(len(reading.history[2].parts[0].content) > 5_000)  # the original is untouched

# %% [markdown]
# ## 6. Tier 2: a summary replaces the older history
#
# Past about 80 %, before the next turn, one request to the active model summarises everything
# but the recent tail, under fixed headings (goal, constraints, progress, decisions, next steps,
# files touched). The tail stays verbatim, and the history is only ever cut where no tool call
# waits for its result. Here a 1,900-token window, and the script plays the summariser too.

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
# Try it yourself: in a project of yours, `decode run "…"` twice, then `decode sessions` and
# `decode run --resume ID "…"`; in the REPL, `decode --resume`, and `/compact` when the footer's
# gauge fills up.
#
# ## Check yourself

# %%
assert loaded.history == loop.history
assert torn.turns == 1
assert torn.skipped_lines == 1
assert context_window("openai-compatible:my-own-model").known is False
assert pruned[2].parts[0].content == placeholder(reading.history[2].parts[0])
assert first.parts[0].content.startswith("[The earlier conversation")
assert summary in first.parts[0].content
assert load_session(small.log.path).history == compacting.history
assert compacting.history == before
assert notice.level == "warning"
print("all checks passed")
