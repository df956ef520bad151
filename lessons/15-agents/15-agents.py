# %% [markdown]
# # Lesson 15 — Agents and subagents
#
# So far decode has been one agent: one set of tools, one set of instructions, one conversation.
# This lesson makes the agent something you choose, and something the agent can choose too:
#
# 1. **Agent Definitions** (`decode/agents/`): Markdown files with front matter, in Claude Code's
#    format, naming an agent's tools, model, permission mode and instructions. decode ships five
#    (`build`, `plan`, `explore`, `general`, `code-reviewer`); yours and your project's sit beside
#    them. `/agent NAME` and `decode run --agent NAME` pick the **Primary Agent**.
# 2. **Subagents**: the `agent` tool hands a task to another agent that starts with a *fresh*
#    history, runs with its own tools, and returns only its final report.
#
# Why a fresh history? Ask an agent where the tests for the login code are, and it may read twenty
# files to find out. In its own conversation those twenty files stay in the context for the rest
# of the session: tokens paid on every later request, and noise the model has to see past. A
# subagent does the search in a context of its own and hands back three lines. Several of them can
# search at the same time.
#
# No key and no network: every model here is scripted.

# %% [markdown]
# **Build it yourself.** The build-along track leaves 3 functions of this lesson to you, in
# your own copy of lesson 15's package; until you write them, each raises `NotImplementedError`
# with a hint:
#
# - `selects` in `decode/agents/definition.py`
# - `AgentDefinition.allows` in `decode/agents/definition.py`
# - `narrowed` in `decode/permissions/fence.py`
#
# `make lesson-start N=15` writes your copy into `build/15/`, and `make lesson-check N=15`
# runs the lesson's track tests (`track_tests.py`) on it, one line per behaviour still missing.
# This notebook shows the package's own versions: read them when you are done, or stuck.

# %% [markdown]
# We work in a scratch project, with a scratch home folder (so your own `~/.decode/agents/` stays
# out of it). Paths print as `<scratch>/…`.

# %%
import asyncio
import json
import os
import tempfile
from pathlib import Path

from course import show, show_diff

scratch = Path(tempfile.mkdtemp(prefix="decode-lesson15-")).resolve()
os.environ["HOME"] = str(scratch / "home")
project = scratch / "project"
(project / "tests").mkdir(parents=True)
(project / "docs").mkdir()
(project / "tests" / "test_login.py").write_text("def test_login_redirects(): ...\n")
(project / "docs" / "login.md").write_text("# Logging in\n")
os.chdir(project)


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


def shown(text: object) -> str:
    """Text with the scratch folder's path (different on every run) replaced by `<scratch>`."""
    return str(text).replace(str(scratch), "<scratch>")


# %% [markdown]
# ## 1. A fan-out in fifteen lines
#
# The idea first, with nothing of decode's but its scripted model. Each child is a pydantic-ai
# `Agent` run with *only its task* as the prompt: no history. `asyncio.gather` runs them at the
# same time; a semaphore lets at most two run at once. We count how many run together.

# %%
from pydantic_ai import Agent

from decode.models.script import ScriptedModel, ScriptedResponse

running, peak = 0, 0


async def child(task: str, places: asyncio.Semaphore) -> tuple[str, int]:
    global running, peak
    async with places:  # wait for a free place
        running += 1
        peak = max(peak, running)
        try:
            model = ScriptedModel([ScriptedResponse(text=f"found it: {task}", delay_s=0.05)])
            result = await Agent(model).run(task)  # a fresh history: only the task
        finally:
            running -= 1
    return result.output, result.usage.requests


tasks = ["tests for login", "docs for login", "the login route", "the session cookie"]
reports = await asyncio.gather(*(child(task, asyncio.Semaphore(2)) for task in tasks))  # a mistake: see below
print(reports[0], "| ran at once:", peak)

# %% [markdown]
# Four at once: each child made its *own* semaphore, so none waited for another. The limit must be
# one object shared by every child of the conversation:

# %%
running, peak = 0, 0
places = asyncio.Semaphore(2)
reports = await asyncio.gather(*(child(task, places) for task in tasks))
print("\n".join(text for text, _ in reports))
print("ran at once:", peak, "| requests:", sum(requests for _, requests in reports))

# %% [markdown]
# That is the whole mechanism. What decode adds around it: *which* agent a child is (its tools,
# instructions, mode), its permissions, caps on what it may spend, its transcript, its usage counted
# in the parent's, what an abort does, and progress for the person watching.

# %% [markdown]
# ## 2. Agent files
#
# An agent is a Markdown file: YAML front matter, then the agent's instructions. The format is
# Claude Code's (`name`, `description`, `tools`, `disallowedTools`, `model`, `permissionMode`), so a
# project's `.claude/agents/*.md` works as it is; Claude Code's tool names (`Read`, `Bash`, `Task`…)
# are mapped to decode's (`read`, `bash`, `agent`…). decode adds one key, `readOnly`. The parser
# checks the front matter with a pydantic model and names the file in every error:

# %%
show("decode.agents.definition", "AgentFrontMatter")

# %% [markdown]
# An agent may never choose bypass mode: a file in a repository must not grant itself the right to
# run anything without asking (the same rule as for settings files and session logs, ADR-0042).
#
# The catalogue reads four places; for the same name the more specific wins: built-in <
# `~/.decode/agents/` < `.claude/agents/` < `.decode/agents/`. The built-ins:

# %%
from decode.agents.catalog import discover_agents

catalog = discover_agents(project)
for agent in catalog.agents.values():
    mode = f", {agent.permission_mode} mode" if agent.permission_mode else ""
    print(f"{agent.name:14} {agent.tools_text()}{mode}")

# %% [markdown]
# `explore` lists four tools and says `readOnly: true`; its file is short:

# %%
print(catalog.get("explore").path.read_text())

# %% [markdown]
# A project's Claude Code agent, and a broken one (no `description`), skipped with a problem that
# names the file. The agent's `model: sonnet` is one of Claude Code's model names, which decode cannot
# run: it means the parent's model, as `inherit` does.

# %%
write(
    project / ".claude" / "agents" / "reviewer.md",
    "---\nname: reviewer\ndescription: Reviews the diff.\ntools: Read, Grep, Bash\nmodel: sonnet\n---\nReview it.\n",
)
write(project / ".claude" / "agents" / "broken.md", "---\nname: broken\n---\nNo description.\n")

catalog = discover_agents(project)
reviewer = catalog.get("reviewer")
print(reviewer.source, "|", reviewer.tools, "| inherits its parent's model:", reviewer.inherits_model)
print(shown(catalog.problems[0]))
(project / ".claude" / "agents" / "broken.md").unlink()  # (decode would warn about it at every start)

# %% [markdown]
# ## 3. An agent's tools
#
# Which tools an agent gets is decided by name, for every tool alike: decode's own, the `agent`
# tool, and MCP tools (`mcp__server__tool`; `mcp__github` in a `tools` list selects all of a
# server's). A **subagent** without a `tools` list gets everything except three kinds of tool: `agent`
# (no nested spawning unless its agent lists it), MCP tools (unless listed), and the tools that talk
# to the user (`ask_user`, `exit_plan_mode`: no one answers a child; its parent talks to the user).

# %%
show("decode.agents.definition", "AgentDefinition.allows")

# %%
general = catalog.get("general")
for tool in ("bash", "write", "agent", "mcp__github__create_issue", "ask_user"):
    print(f"{tool:26} primary: {general.allows(tool)!s:5}  subagent: {general.allows(tool, child=True)}")

# %% [markdown]
# The **Active Agent** applies it: a pydantic-ai capability whose `prepare_tools` runs before every
# model request. What it filters out is neither shown to the model nor callable. It reads its
# `definition` at each request, so `/agent NAME` switches the agent of a running conversation: the
# history stays, the next request has the new tools and instructions.

# %%
show("decode.agents.active", "ActiveAgent")

# %% [markdown]
# ## 4. The composition root builds every agent
#
# `build_loop()` takes the agent as a `LoopOptions` field. Lesson 15 adds steps of its own: the
# agent is chosen first (from the catalogue, or the one a resumed session was), its mode and its
# promises (read-only, `Bash(git diff:*)`) go to the gate, and the `agent` tool and the agent's
# own tools and instructions join the agent. What lesson 15 adds to the list:

# %%
show_diff(15, "decode/agent/compose.py")

# %% [markdown]
# A subagent is built by a function of its own, `build_subagent()`, in the module this lesson adds
# beside the composition root (`compose_agents.py`, with `switch_agent()` of section 8): the same
# steps, with four in place of the primary's: a fresh session (its log beside the parent's), the
# parent's model object when it inherits it, a gate fenced by the parent's (section 7), and the
# parent's MCP servers. It gets the parent's executor through its `LoopOptions`.

# %%
show("decode.agent.compose_agents", "build_subagent")

# %%
show("decode.agent.steps.agents")

# %% [markdown]
# ## 5. The `agent` tool
#
# `Subagents.run` is the tool's body: find the agent, wait for a place (the semaphore of section
# 1, one per conversation, `DECODE_MAX_SUBAGENTS`, default 4), build the child, drive it. An agent
# that lists `agent` spawns children of its own, so fan-out multiplies at each level (4, 16, 64…):
# the whole tree has a limit too (`Tree`, three times the setting). A nested call that finds the
# tree full is refused at once, not made to wait: the places it would wait for are held by its
# own ancestors, which are waiting for it.

# %%
show("decode.agents.subagents", "Subagents.run")

# %% [markdown]
# `_drive` runs the child's one turn under a time cap (`asyncio.timeout`) and its own request cap,
# tells the front end how it goes (`SubagentProgress`), adds its usage to the parent's, and returns
# its final text, cut to a size budget. A child stopped by a cap, or by an error, still returns
# something the parent's model can act on. Cancelling the parent cancels the `await`, and so the
# child's run and its commands.

# %%
show("decode.agents.subagents", "Subagents._drive")

# %% [markdown]
# ## 6. Two explore children, on a scripted model
#
# A child that says `model: inherit` runs on its parent's model *object*. So one scripted function
# can play the parent and both children: it tells them apart by the first prompt it is given. It
# also prints what each child is shown: only its task, nothing of the parent's conversation.

# %%
from pydantic_ai.messages import ModelRequest, ModelResponse, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import DeltaToolCall, FunctionModel

from decode.agent.compose import LoopOptions, build_loop
from decode.agent.facts import is_facts
from decode.config.settings import Settings

PARENT = "Where is the login code tested and documented?"
CHILDREN = {
    "Find the tests of the login code.": ("glob", {"pattern": "tests/*.py"}, "tests/test_login.py:1"),
    "Find the docs of the login code.": ("grep", {"pattern": "Logging in", "path": "docs"}, "docs/login.md:1"),
}


def play(messages, info) -> ModelResponse:
    # what was asked: the user-prompt parts, less the Turn Facts (date, git status…) decode adds to each request
    asked = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if p.part_kind == "user-prompt"]
    prompts = [p.content for p in asked if not is_facts(p)]
    results = [p for m in messages if isinstance(m, ModelRequest) for p in m.parts if isinstance(p, ToolReturnPart)]
    if prompts[0] == PARENT:
        if not results:
            calls = [{"prompt": task, "agent": "explore", "description": task.split()[2]} for task in CHILDREN]
            return ModelResponse(
                parts=[ToolCallPart("agent", call, tool_call_id=f"p{i}") for i, call in enumerate(calls)]
            )
        return ModelResponse(parts=[TextPart("Tested in tests/test_login.py, documented in docs/login.md.")])
    tool, args, answer = CHILDREN[prompts[0]]
    if not results:
        seen.append(prompts)
        return ModelResponse(parts=[ToolCallPart(tool, args, tool_call_id="c0")])
    return ModelResponse(parts=[TextPart(answer)])


async def stream(messages, info):  # the same answers, streamed (the Agent Loop streams every request)
    for index, part in enumerate(play(messages, info).parts):
        if isinstance(part, TextPart):
            yield part.content
        else:
            yield {
                index: DeltaToolCall(
                    name=part.tool_name, json_args=json.dumps(part.args), tool_call_id=part.tool_call_id
                )
            }


seen, progress = [], []
conversation = build_loop(LoopOptions(project, model="test", on_subagent=progress.append), Settings(_env_file=None))
conversation.loop.model = FunctionModel(play, stream_function=stream)

reports = {}
async for event in conversation.loop.run_turn(PARENT):
    if event.kind == "tool_result":
        reports[event.result.call_id] = event.result.content
    elif event.kind == "turn_finished":
        print("answer:", event.output)
        print("the turn's usage:", event.usage.requests, "requests")
for prompts in sorted(seen):
    print("a child sees:", prompts)

# %% [markdown]
# Each report is the child's final text under a heading naming the child (its id is its
# transcript's name), never its transcript:

# %%
for content in sorted(reports.values(), key=lambda text: text.split("\n", 1)[1]):  # children finish in any order
    heading, report = content.split("\n", 1)
    print(heading.split()[1].rsplit("-", 1)[0], "→", report)  # `[subagent explore-1a2b3c4d: …]`

# %% [markdown]
# The usage adds up: the parent made two requests and each child two; the conversation counts six.
# Each child's transcript is a session log of its own, in a folder beside the parent's:

# %%
print("conversation usage:", conversation.loop.usage.requests, "requests")
log = conversation.session.log.path
children = sorted((log.parent / f"{log.stem}.agents").glob("*.jsonl"))
print(len(children), "transcripts:", sorted(path.name.split("-")[0] for path in children))

# %% [markdown]
# And the front end heard how each child went, one line's worth at a time (the REPL shows it under
# the `agent` call, `decode run` on stderr):

# %%
for description in ("tests", "docs"):  # the children's updates interleave: one child at a time
    for update in progress:
        if update.description == description:
            print(update.line())

# %% [markdown]
# ## 7. The Permission Fence
#
# A child has its agent's tools, but not its own permissions. Its gate is `fenced()` from its
# parent's: the same rules (shared, so an "always" answered for a child holds for the parent too),
# a mode never looser than the parent's, and every verdict held to the parent's own verdict on the
# same call. A parent's deny always wins; plan mode propagates, even if the parent switches to it
# while the child runs.
#
# The gate's `check` gains one line: its own verdict is `narrowed`, in `decode/permissions/fence.py`,
# by the agent's promises (read-only, tools confined to rules) and by the parent's gate.

# %%
show("decode.permissions.gate", "PermissionGate.check")

# %%
show("decode.permissions.fence", "narrowed")

# %%
from decode.agents.lineage import child_mode
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH
from decode.tools.write import WRITE

parent = PermissionGate([parse_rule("Bash(rm:*)", Decision.DENY, None)], Mode.BYPASS, workspace=project)
kid = parent.fenced(child_mode(parent.mode, None))
print("rm in a bypass child:", (await kid.check("bash", {"command": "rm -rf docs"}, BASH.traits)).decision)

parent.mode = Mode.PLAN  # the user switches the parent to plan mode
verdict = await kid.check("write", {"path": "notes.md", "content": "x"}, WRITE.traits)
print("a write once the parent is in plan mode:", verdict.decision)

# %% [markdown]
# A child's approvals go to its parent's `approve` (the REPL's Decision Channel), the reason
# prefixed with the child's name: `subagent explore (tests) asks: …`. Headless, like its parent,
# a child is refused what would need asking.
#
# `readOnly` (explore, code-reviewer) makes the gate deny, not ask, whatever would change
# something: of commands, only those of decode's read-only list run, in every mode.

# %%
explore = PermissionGate([], Mode.BYPASS, workspace=project)
explore.read_only = True
for command in ("ls tests", "git log -3", "rm -rf docs", "ls > listing.txt"):
    print(f"{command:18}", (await explore.check("bash", {"command": command}, BASH.traits)).decision)

# %% [markdown]
# Rules name subagents too: `Agent` (Claude Code's `Task`) covers every subagent, `Agent(general)`
# one agent; a deny keeps it from starting, for the parent and every descendant. And an agent whose
# file names a tool only with rules (`tools: Bash(git diff:*)`, as Claude Code's agent files may)
# is confined to them: its other calls of that tool are denied, in every mode.

# %%
from decode.agents.subagents import AGENT_TRAITS

no_general = PermissionGate([parse_rule("Agent(general)", Decision.DENY, None)], Mode.BYPASS, workspace=project)
for name in ("general", "explore"):
    spawn = {"prompt": "…", "agent": name, "description": ""}
    print(f"spawn {name:12}", (await no_general.check("agent", spawn, AGENT_TRAITS)).decision)
differ = PermissionGate([], Mode.BYPASS, workspace=project)
differ.confined = {"bash": [parse_rule("Bash(git diff:*)", Decision.ALLOW, None)]}
for command in ("git diff --stat", "rm -rf docs"):
    print(f"{command:18}", (await differ.check("bash", {"command": command}, BASH.traits)).decision)

# %% [markdown]
# ## 8. In the REPL and `decode run`
#
# - `/agent` lists the agents, `/agent plan` switches to one (`switch_agent`: tools, instructions,
#   mode and, if it names one, model; the history stays); `/agent build` goes back.
# - `decode --agent explore` starts the REPL as one, `decode run --agent explore "…"` runs one;
#   the session records its agent, so `--resume` continues as it. `decode agents` lists them all.
# - While children run, the REPL shows one line per child under its `agent` call:
#   `⋮ explore · tests · glob(tests/*.py) · 1 request`.

# %%
from decode.agent.compose_agents import switch_agent

switched = switch_agent(conversation, "plan")
print(switched.name, "|", conversation.gate.mode, "| history kept:", len(conversation.loop.history), "messages")
switch_agent(conversation, "build")
print(conversation.agent.definition.name, "|", conversation.gate.mode)

# %% [markdown]
# ## Exercises
#
# The reference solutions are in `solutions.py`, next to this notebook; try first.
#
# ### 1. An agent file parser
#
# Write `parse_agent_file(text)`: read an agent file in Claude Code's format and return
# `(name, description, tools, body)`. `tools` may be a comma-separated string or a YAML list; map
# Claude Code's names to decode's (`Read` → `read`, `Grep` → `grep`, `Bash` → `bash`, `Write` →
# `write`, `Task` → `agent`), keep the order, and return None when the file names no tools (every
# tool). The body is stripped. Raise `ValueError` for a file with no front matter, no `name` or no
# `description`. `yaml.safe_load` reads the front matter.

# %%
from exercises import check_child_mode, check_parse_agent_file


def parse_agent_file(text: str) -> tuple[str, str, tuple[str, ...] | None, str]:
    raise NotImplementedError  # your code here


# %%
check_parse_agent_file(parse_agent_file)

# %% [markdown]
# ### 2. Fence a child's mode
#
# Write `child_mode(parent, own)`: the mode a subagent runs in, given its parent's mode and the
# one its agent file names (`own`, None when it names none). The modes from the strictest:
# `plan`, `default`, `accept-edits`, `bypass`. A child may be stricter than its parent, never
# looser; without a mode of its own it runs in its parent's.


# %%
def child_mode(parent: str, own: str | None) -> str:
    raise NotImplementedError  # your code here


# %%
check_child_mode(child_mode)

# %% [markdown]
# ## Recap
#
# **What you built:** agents you choose (Agent Definitions, the Primary Agent) and subagents the
# agent starts itself.
#
# - An Agent Definition is a Markdown file with front matter in Claude Code's format: tools, model,
#   permission mode, instructions; built-in, user and project ones form the Agent Catalogue.
# - `/agent NAME` and `decode run --agent NAME` pick the Primary Agent; the Active Agent offers only
#   the tools its definition allows.
# - The `agent` tool runs a Subagent with a fresh history, its own tools, a request and a time cap;
#   only its final text comes back.
# - The Permission Fence holds a subagent to its parent's permissions: never a looser mode, never a
#   looser verdict.
#
# **The key idea:** a fresh history is a budget: a subagent reads twenty files so that its parent
# reads three lines.
#
# **Glossary:** [Agent Definition](../../docs/glossary.md#agent-definition),
# [Agent Catalogue](../../docs/glossary.md#agent-catalogue),
# [Primary Agent](../../docs/glossary.md#primary-agent),
# [Active Agent](../../docs/glossary.md#active-agent), [Subagent](../../docs/glossary.md#subagent),
# [Permission Fence](../../docs/glossary.md#permission-fence),
# [Subagent Progress](../../docs/glossary.md#subagent-progress).
