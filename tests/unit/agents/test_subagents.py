"""Subagents: reports collected, usage summed, concurrency bounded, abort propagated, the fence held."""

import asyncio
import json
from pathlib import Path

import pytest
from pydantic_ai.exceptions import ModelHTTPError
from pydantic_ai.messages import ModelMessage

from decode.agent.compose import Conversation, LoopOptions, build_loop
from decode.agents.subagents import Parent, child_mode, cut
from decode.config.settings import Settings
from decode.context.replay import load_session
from decode.entities.events import SubagentProgress, ToolCallFinished, TurnFinished
from decode.permissions.types import Mode
from tests.conftest import gone
from tests.unit.agents.conftest import conversation, run_turn, tool_results

PARENT = "Find the tests and the docs."


async def turn(built: Conversation, prompt: str = PARENT) -> tuple[list[ToolCallFinished], TurnFinished]:
    return await run_turn(built, prompt)


def fan_out(*tasks: str, agent: str = "explore"):
    """A parent that calls `agent` once per task, then answers with the reports it got."""

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            reports = tool_results(messages)
            if not reports:
                return [("agent", {"prompt": task, "agent": agent, "description": task[:20]}) for task in tasks]
            return "Reports:\n" + "\n".join(reports)
        return f"report for: {first}"

    return script


async def test_each_childs_final_text_comes_back_to_the_parent(home: Path, settings: Settings) -> None:
    progress: list[SubagentProgress] = []
    built = conversation(home, settings, fan_out("find the tests", "find the docs"), on_subagent=progress.append)

    results, finished = await turn(built)

    assert [r.result.name for r in results] == ["agent", "agent"]
    assert all(not r.result.is_error for r in results)
    contents = sorted(r.result.content.split("\n", 1)[1] for r in results)  # in the order they finished
    assert contents == ["report for: find the docs", "report for: find the tests"]
    assert all(r.result.content.startswith("[subagent explore-") for r in results)
    assert sorted(built.subagents.reports) == ["report for: find the docs", "report for: find the tests"]
    assert "report for: find the docs" in finished.output
    assert {p.state for p in progress} == {"running", "finished"}
    assert {p.call_id for p in progress} == {r.result.call_id for r in results}


async def test_the_childrens_usage_is_added_to_the_parents(home: Path, settings: Settings) -> None:
    built = conversation(home, settings, fan_out("a", "b"))

    _, finished = await turn(built)

    # The parent made 2 requests, each child 1: the turn and the conversation count all 4.
    assert finished.usage.requests == 4
    assert built.loop.usage.requests == 4
    lines = [json.loads(line) for line in built.session.log.path.read_text().splitlines()]
    assert lines[-1]["usage"]["requests"] == 4


async def test_a_childs_transcript_is_a_log_of_its_own_beside_the_parents(home: Path, settings: Settings) -> None:
    built = conversation(home, settings, fan_out("find the tests"))

    results, _ = await turn(built)

    folder = built.session.log.path.with_name(built.session.log.path.stem + ".agents")
    (child_log,) = folder.glob("explore-*.jsonl")
    assert child_log.stem in results[0].result.content  # the parent's result names it
    loaded = load_session(child_log)
    assert loaded.header.session_id == child_log.stem
    prompts = [p.content for m in loaded.history for p in m.parts if p.part_kind == "user-prompt"]
    assert prompts == ["find the tests"]  # a fresh history: only its own task, none of the parent's


async def test_at_most_max_subagents_children_run_at_once(home: Path) -> None:
    settings = Settings(_env_file=None, max_subagents=2)  # type: ignore[call-arg]
    running, peak, started = 0, 0, 0
    two_running = asyncio.Event()

    async def script(first: str, messages: list[ModelMessage]):
        nonlocal running, peak, started
        if first == PARENT:
            if not tool_results(messages):
                return [("agent", {"prompt": f"task {i}", "agent": "explore"}) for i in range(5)]
            return "done"
        running += 1
        started += 1
        peak = max(peak, running)
        if running == 2 or started == 5:  # hold each child until the limit is reached (or none can join)
            two_running.set()
        try:
            await asyncio.wait_for(two_running.wait(), timeout=30)
        finally:
            running -= 1
        return f"report {first}"

    built = conversation(home, settings, script)
    results, _ = await turn(built)

    assert len(results) == 5
    assert all("report task" in r.result.content for r in results)
    assert peak == 2
    assert built.subagents.peak == 2


async def test_aborting_the_parent_cancels_every_child_and_ends_its_commands(home: Path, settings: Settings) -> None:
    children_waiting = 0
    release = asyncio.Event()
    cancelled = 0

    async def script(first: str, messages: list[ModelMessage]):
        nonlocal children_waiting, cancelled
        if first == PARENT:
            return [
                ("agent", {"prompt": "sleep", "agent": "general"}),
                ("agent", {"prompt": "wait", "agent": "general"}),
            ]
        if first == "sleep" and not tool_results(messages):
            return [("bash", {"command": "echo $$ > pid.txt; exec sleep 300"})]
        children_waiting += 1
        try:
            await release.wait()
        except asyncio.CancelledError:
            cancelled += 1
            raise
        return "never"

    built = conversation(home, settings, script, permission_mode=Mode.BYPASS)
    task = asyncio.create_task(turn(built))
    pid_file = home / "pid.txt"
    async with asyncio.timeout(30):
        while not (pid_file.exists() and pid_file.read_text().strip() and children_waiting >= 1):  # noqa: ASYNC110  (a file the command writes)
            await asyncio.sleep(0.05)
    pid = int(pid_file.read_text())
    task.cancel()
    with pytest.raises(asyncio.CancelledError):
        await task

    assert cancelled == 1
    assert gone(pid)


def test_a_childs_mode_is_never_looser_than_its_parents() -> None:
    assert child_mode(Mode.PLAN, Mode.ACCEPT_EDITS) is Mode.PLAN  # plan mode propagates
    assert child_mode(Mode.PLAN, None) is Mode.PLAN
    assert child_mode(Mode.DEFAULT, Mode.ACCEPT_EDITS) is Mode.DEFAULT
    assert child_mode(Mode.ACCEPT_EDITS, Mode.PLAN) is Mode.PLAN  # stricter is allowed
    assert child_mode(Mode.BYPASS, None) is Mode.BYPASS


def test_a_long_report_is_cut_to_its_budget_and_says_where_the_rest_is() -> None:
    text = cut("x" * 5000, 1000, ".decode/sessions/a.agents/explore-1.jsonl")
    assert text.startswith("x" * 1000 + "\n… [4000 more characters")
    assert text.endswith("explore-1.jsonl]")
    assert cut("short", 1000, "there") == "short"


def test_parent_is_exported() -> None:
    assert Parent.__name__ == "Parent"


async def test_a_child_stopped_by_its_request_cap_still_answers_the_parent(home: Path) -> None:
    settings = Settings(_env_file=None, subagent_max_requests=2)  # type: ignore[call-arg]

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "loop", "agent": "general"})] if not tool_results(messages) else "ok"
        return [("glob", {"pattern": "*"})]  # never done

    built = conversation(home, settings, script)
    results, _ = await turn(built)

    assert "stopped at its request cap (2) before it finished" in results[0].result.content
    assert not results[0].result.is_error  # the parent's model reads it and decides


async def test_a_failed_childs_report_says_what_a_front_end_would_say(home: Path, settings: Settings) -> None:
    """One mapping from a failure to words (`agent/failures.py`): the parent's model reads the line
    the REPL and `decode run` print for the same error, the provider's reason and no raw body."""

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "look", "agent": "general"})] if not tool_results(messages) else "ok"
        body = {"error": {"message": "context_length_exceeded", "param": "x" * 500}}
        raise ModelHTTPError(status_code=400, model_name="gpt-x", body=body)

    results, _ = await turn(conversation(home, settings, script))

    report = results[0].result.content
    assert "failed: model request failed: HTTP 400 from gpt-x: context_length_exceeded before it finished" in report
    assert "xxxx" not in report


async def test_a_child_past_its_time_cap_is_stopped(home: Path) -> None:
    settings = Settings(_env_file=None, subagent_timeout=0.2)  # type: ignore[call-arg]
    never = asyncio.Event()

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "hang", "agent": "general"})] if not tool_results(messages) else "ok"
        await never.wait()
        return "never"

    built = conversation(home, settings, script)
    results, _ = await turn(built)

    assert "stopped at its time cap (0.2 s)" in results[0].result.content


async def test_an_unknown_agent_is_a_retry_listing_the_agents(home: Path, settings: Settings) -> None:
    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "x", "agent": "nope"})] if len(messages) == 1 else "ok"
        return "child"

    built = conversation(home, settings, script)
    results, finished = await turn(built)

    assert results[0].result.is_error
    assert "no agent named 'nope' (agents: build, code-reviewer, explore, general, plan)" in results[0].result.content
    assert finished.output == "ok"


async def test_a_child_is_denied_what_its_parents_rules_deny_even_in_bypass(home: Path, settings: Settings) -> None:
    (home / ".decode").mkdir()
    (home / ".decode" / "settings.json").write_text('{"permissions": {"deny": ["Bash(rm:*)"]}}')
    (home / "keep.txt").write_text("x")

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "clean up", "agent": "general"})] if not tool_results(messages) else "ok"
        results = tool_results(messages)
        return [("bash", {"command": "rm keep.txt"})] if not results else f"child saw: {results[0]}"

    built = conversation(home, settings, script, permission_mode=Mode.BYPASS)
    results, _ = await turn(built)

    assert (home / "keep.txt").exists()
    assert "child saw: Permission denied: rm keep.txt: denied by Bash(rm:*)" in results[0].result.content


async def test_plan_mode_propagates_to_a_child_whose_agent_would_edit(home: Path, settings: Settings) -> None:
    offered: list[str] = []

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            return [("agent", {"prompt": "write it", "agent": "general"})] if not tool_results(messages) else "ok"
        return [("write", {"path": "new.py", "content": "x"})] if len(messages) == 1 else "could not"

    built = conversation(home, settings, script, permission_mode=Mode.PLAN)
    model = built.loop.model
    original = model.stream_function

    async def watching(messages, info):
        if tool_results(messages) == [] and any("write it" in str(m) for m in messages[:1]):
            offered.extend(tool.name for tool in info.function_tools)
        async for item in original(messages, info):
            yield item

    model.stream_function = watching
    _results, _ = await turn(built)

    assert not (home / "new.py").exists()
    assert offered  # the child asked the model
    assert "write" not in offered  # in plan mode, like its parent: not even offered
    assert "read" in offered


async def test_a_childs_approval_goes_to_the_parents_approve_labelled(home: Path, settings: Settings) -> None:
    from decode.permissions.hook import Answer, Approval, Asking

    asked = []

    async def approve(tool, args, verdict):
        asked.append((tool, args, verdict))
        return Approval(Answer.YES)

    async def script(first: str, messages: list[ModelMessage]):
        if first == PARENT:
            spawn = {"prompt": "touch it", "agent": "general", "description": "touch"}
            return [("agent", spawn)] if not tool_results(messages) else "ok"
        return [("bash", {"command": "touch made.txt"})] if not tool_results(messages) else "made"

    built = conversation(home, settings, script, approve=approve)
    results, _ = await turn(built)

    ((tool, args, verdict),) = asked
    assert (tool, args["command"]) == ("bash", "touch made.txt")
    assert isinstance(verdict, Asking)
    assert verdict.reason.startswith("subagent general (touch) asks: ")
    assert verdict.call_id == results[0].result.call_id  # it waits as the parent's `agent` call
    assert (home / "made.txt").exists()


async def test_a_child_is_offered_its_agents_tools_only(home: Path, settings: Settings) -> None:
    offered: dict[str, set[str]] = {}

    def remember(first: str, info) -> None:
        offered[first] = {tool.name for tool in info.function_tools}

    from pydantic_ai.models.function import AgentInfo, FunctionModel

    async def stream(messages: list[ModelMessage], info: AgentInfo):
        from tests.unit.agents.conftest import first_prompt

        first = first_prompt(messages)
        remember(first, info)
        if first == PARENT and not tool_results(messages):
            from pydantic_ai.models.function import DeltaToolCall

            yield {0: DeltaToolCall(name="agent", json_args=json.dumps({"prompt": "look"}), tool_call_id="p0")}
            yield {
                1: DeltaToolCall(
                    name="agent", json_args=json.dumps({"prompt": "do", "agent": "general"}), tool_call_id="p1"
                )
            }
            return
        yield "done"

    built = build_loop(LoopOptions(home, model="test"), settings)
    built.loop.model = FunctionModel(stream_function=stream)
    await turn(built)

    assert "agent" in offered[PARENT]
    assert "write" in offered[PARENT]
    assert offered["look"] == {"read", "glob", "grep", "bash"}  # explore, the default
    assert "agent" not in offered["do"]
    assert "ask_user" not in offered["do"]
    assert {"read", "write", "edit", "bash"} <= offered["do"]
