"""The gate inside the agent: a real pydantic-ai run whose tool calls pass the PermissionHook."""

import json
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import RunContext
from pydantic_ai.messages import ModelMessage, ModelRequest, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, DeltaToolCall, FunctionModel

from decode.agent.factory import build_agent
from decode.agent.loop import AgentLoop
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.events import ToolCallFinished, TurnFinished
from decode.entities.tools import UNDECLARED, ToolSpec, ToolTraits
from decode.permissions.gate import PLAN_GUIDANCE, PermissionGate
from decode.permissions.hook import Answer, Approval, Asking, PermissionHook, Saved, refusal
from decode.permissions.types import Decision, Mode, Verdict
from decode.processes.local import LocalExecutor
from decode.tools.bash import BASH
from tests.unit.permissions.conftest import gate_with


def bash(ctx: RunContext[AgentDeps], command: str) -> str:
    """Pretend to run a command: record it in ran.txt (so a test sees whether it ran)."""
    with (ctx.deps.workspace / "ran.txt").open("a", encoding="utf-8") as file:
        file.write(command + "\n")
    return f"ran {command}"


def one_call(command: str) -> FunctionModel:
    """A model that calls bash(command) once, then answers with the tool's result."""

    async def stream(messages: list[ModelMessage], info: AgentInfo) -> AsyncIterator:
        results = [
            part
            for message in messages
            if isinstance(message, ModelRequest)
            for part in message.parts
            if isinstance(part, ToolReturnPart)
        ]
        if not results:
            yield {0: DeltaToolCall(name="bash", json_args=json.dumps({"command": command}), tool_call_id="c1")}
        else:
            yield f"[{results[-1].outcome}] {results[-1].content}"

    return FunctionModel(stream_function=stream)


async def run(
    command: str, project: Path, gate: PermissionGate | None, approve: Any = None, traits: ToolTraits = BASH.traits
) -> tuple[str, list[ToolCallFinished]]:
    """One turn with a pretend bash that declares `traits` (the real bash's), behind `gate`'s hook."""
    hooks = [] if gate is None else [PermissionHook(gate, harness_home=project, approve=approve)]
    agent = build_agent(one_call(command), tools=[ToolSpec("bash", bash, traits)], capabilities=hooks)
    deps = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)
    events = [event async for event in AgentLoop(agent, deps).run_turn("go")]
    assert isinstance(events[-1], TurnFinished)
    return events[-1].output, [event for event in events if isinstance(event, ToolCallFinished)]


def ran(project: Path) -> list[str]:
    path = project / "ran.txt"
    return path.read_text().splitlines() if path.exists() else []


async def test_an_allowed_call_runs(project: Path) -> None:
    output, finished = await run("git status", project, gate_with(project, "allow Bash(git status)"))
    assert ran(project) == ["git status"]
    assert output == "[success] ran git status"
    assert not finished[0].result.is_error


async def test_a_denied_call_never_runs_and_the_model_reads_why(project: Path) -> None:
    output, finished = await run("ls && rm -rf build", project, gate_with(project, "deny Bash(rm:*)"))
    assert ran(project) == []
    assert output.startswith("[denied] Permission denied: rm -rf build: denied by Bash(rm:*)")
    assert finished[0].result.is_error


async def test_headless_ask_is_a_refusal_the_model_is_told_about(project: Path) -> None:
    output, _ = await run("npm install", project, gate_with(project))
    assert ran(project) == []
    assert output.startswith("[denied] Permission needed (npm install: no rule allows it in default mode)")
    assert "headless" in output


async def test_plan_mode_refuses_with_guidance(project: Path) -> None:
    output, _ = await run("git status", project, gate_with(project, "allow Bash", mode=Mode.PLAN))
    assert ran(project) == []
    assert output == f"[denied] Permission denied: {PLAN_GUIDANCE}"


async def test_without_a_gate_tools_run_as_in_earlier_lessons(project: Path) -> None:
    await run("anything", project, None)
    assert ran(project) == ["anything"]


async def test_the_hook_judges_a_call_by_the_traits_its_tool_declares(project: Path) -> None:
    """A tool named `bash` that declared nothing is not bash: `allow Bash` does not cover it."""
    output, _ = await run("git status", project, gate_with(project, "allow Bash"), traits=UNDECLARED)
    assert ran(project) == []
    assert output.startswith("[denied] Permission needed ('bash' declares no traits")


@pytest.mark.parametrize(
    ("approval", "runs", "output"),
    [
        (Approval(Answer.YES), True, "[success] ran npm test"),
        (Approval(Answer.NO), False, "[denied] The user said no. Do not try"),
        (Approval(Answer.NO, "use pnpm here"), False, "[denied] The user said no. They said: use pnpm here"),
    ],
)
async def test_the_front_end_answers_an_ask(project: Path, approval: Approval, runs: bool, output: str) -> None:
    asked: list[tuple[str, dict, Verdict]] = []

    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        asked.append((tool, args, verdict))
        return approval

    result, _ = await run("npm test", project, gate_with(project), approve)
    assert [(tool, args, verdict.decision) for tool, args, verdict in asked] == [
        ("bash", {"command": "npm test"}, Decision.ASK)
    ]
    assert ran(project) == (["npm test"] if runs else [])
    assert result.startswith(output)


async def test_always_saves_the_first_choice_and_stops_asking(project: Path) -> None:
    asked: list[Verdict] = []
    saved: list[Saved] = []

    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        asked.append(verdict)
        return Approval(Answer.ALWAYS, on_saved=saved.append)

    gate = gate_with(project)
    await run("cargo test", project, gate, approve)
    await run("cargo test --release", project, gate, approve)  # the prefix rule covers it
    assert len(asked) == 1
    assert isinstance(asked[0], Asking)
    assert asked[0].call_id  # which call waits
    assert asked[0].choices == (("Bash(cargo test:*)",), ("Bash(cargo test)",))
    assert ran(project) == ["cargo test", "cargo test --release"]
    local = project / ".decode" / "settings.local.json"
    assert json.loads(local.read_text()) == {"permissions": {"allow": ["Bash(cargo test:*)"]}}
    assert saved == [Saved(("Bash(cargo test:*)",), local)]
    verdict = await PermissionGate.from_settings(project).check("bash", {"command": "cargo test"}, BASH.traits)
    assert verdict.decision is Decision.ALLOW


async def test_always_writes_no_rule_through_a_planted_link_out_of_the_project(project: Path, tmp_path: Path) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / ".decode").symlink_to(outside)  # committed by the repository
    saved: list[Saved] = []

    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        return Approval(Answer.ALWAYS, on_saved=saved.append)

    gate = gate_with(project)
    await run("cargo test", project, gate, approve)
    await run("cargo test --release", project, gate, approve)  # still obeyed for this session
    assert ran(project) == ["cargo test", "cargo test --release"]
    [kept] = saved
    assert kept.path is None
    assert "outside the project" in kept.error
    assert list(outside.iterdir()) == []


@pytest.mark.parametrize(
    ("rules", "kept"),
    [
        (("Bash(cargo test)",), ["Bash(cargo test)"]),  # the narrower choice
        (("Bash(*)",), ["Bash(cargo test:*)"]),  # not a choice the gate offered: never saved
    ],
)
async def test_always_saves_only_a_choice_the_gate_offered(project: Path, rules: tuple[str, ...], kept: list) -> None:
    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        return Approval(Answer.ALWAYS, rules=rules)

    await run("cargo test", project, gate_with(project), approve)
    local = project / ".decode" / "settings.local.json"
    assert json.loads(local.read_text()) == {"permissions": {"allow": kept}}


async def test_always_saves_nothing_for_a_command_with_a_hazard(project: Path) -> None:
    choices: list[tuple] = []

    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        assert isinstance(verdict, Asking)
        choices.append(verdict.choices)
        return Approval(Answer.ALWAYS, rules=("Bash(npm:*)",))

    await run("npm test $(id)", project, gate_with(project), approve)
    assert choices == [()]
    assert not (project / ".decode" / "settings.local.json").exists()


async def test_a_deny_is_never_put_to_the_user(project: Path) -> None:
    async def approve(tool: str, args: dict, verdict: Verdict) -> Approval:
        raise AssertionError("a denied call reached the approval prompt")

    await run("rm -rf /", project, gate_with(project, "deny Bash(rm:*)"), approve)
    assert ran(project) == []


async def test_refusals_name_the_rule_and_its_file(project: Path) -> None:
    settings = project / ".decode" / "settings.json"
    settings.parent.mkdir()
    settings.write_text('{"permissions": {"deny": ["Bash(rm:*)"]}}')
    gate = PermissionGate.from_settings(project)
    deny = await gate.check("bash", {"command": "rm x"}, BASH.traits)
    assert refusal(deny) == (
        f"Permission denied: rm x: denied by Bash(rm:*) ({settings}:1). "
        "Do not try to reach the same result another way; tell the user what you wanted to do."
    )
    ask = await gate.check("bash", {"command": "make"}, BASH.traits)
    assert refusal(ask).startswith("The user did not allow this (make: no rule allows it")


async def test_headless_an_ask_rule_refuses_in_bypass_and_names_the_rule(project: Path) -> None:
    gate = gate_with(project, "ask Bash(npm publish:*)", mode=Mode.BYPASS)
    output, _ = await run("npm publish", project, gate)
    assert ran(project) == []
    assert output.startswith("[denied] Permission needed (npm publish: ask rule Bash(npm publish:*))")
    assert "the ask rule Bash(npm publish:*) asks in every mode, bypass included" in output
