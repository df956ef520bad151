"""The steps every conversation has from lesson 02 on: its tools, its model, the deps, the agent, the loop."""

from dataclasses import replace

from decode.agent.build import Build
from decode.agent.factory import BASE_INSTRUCTIONS, build_agent

# [lesson 22]
from decode.agent.traced_loop import agent_loop

# [before lesson 22]
# from decode.agent.loop import AgentLoop
# [/lesson 22]
from decode.entities.deps import AgentDeps
from decode.models.gateway import resolve_model


def choose_tools(b: Build) -> None:
    """The options' tools (lesson 04: decode's own unless a front end gives some). The options keep
    them (a subagent is given the same)."""
    b.tools = list(b.options.tools or ())
    b.options = replace(b.options, tools=tuple(b.tools))


def choose_model(b: Build) -> None:
    """The model asked for, through the Model Gateway (lesson 11: the session's, so a resumed one keeps its own)."""
    # [lesson 11]
    name = b.session.model
    # [before lesson 11]
    # name = b.options.model or b.settings.model
    # [/lesson 11]
    b.model = resolve_model(name, b.settings, on_retry=b.options.on_retry)


def build_deps(b: Build) -> None:
    """What the tools receive on every call (`ctx.deps`)."""
    b.deps = AgentDeps(
        executor=b.executor,  # [lesson 04]
        settings=b.settings,
        harness_home=b.options.home,
        search_filter=b.gate,  # searches skip what the rules keep from reads  # [lesson 06]
        on_tool_output=b.options.on_tool_output,  # [lesson 05]
        checkpoint=b.session.checkpoints,  # each turn's file changes, for /undo and /rewind  # [lesson 11]
        # [lesson 13]
        todos=b.session.todos,  # one list: todo_write changes it, every turn line records it
        ask_user=b.options.ask_user,
        review_plan=b.options.review_plan,
        host_allowance=b.gate,  # web_fetch reaches a private host only when an allow rule names it
        # [/lesson 13]
    )


def make_agent(b: Build) -> None:
    """The pydantic-ai Agent: the model, the tools, and the capabilities the steps before listed."""
    # [lesson 20]
    instructions = b.options.system_prompt or BASE_INSTRUCTIONS  # `--system-prompt`: decode's own replaced
    b.agent = build_agent(b.model, tools=b.tools, capabilities=b.capabilities, instructions=instructions)
    # [before lesson 20]
    # b.agent = build_agent(b.model, tools=b.tools, capabilities=b.capabilities)
    # [/lesson 20]


def make_loop(b: Build) -> None:
    """The Agent Loop the front end drives, with the session's history."""
    limit = b.options.max_requests or b.settings.max_requests
    # [lesson 22]
    b.loop = agent_loop(b, limit)  # traced only when tracing is configured
    # [before lesson 22]
    # b.loop = AgentLoop(b.agent, b.deps, model=b.model, max_requests=limit)
    # [/lesson 22]
    b.loop.session, b.loop.history = b.session, b.history  # [lesson 11]
