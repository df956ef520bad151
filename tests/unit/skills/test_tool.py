"""Using a skill: the `skill` tool the model calls, and the prompt `/name [text]` sends."""

from pathlib import Path

from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, RetryPromptPart, TextPart, ToolCallPart, ToolReturnPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions.gate import PermissionGate
from decode.permissions.types import Decision, Mode
from decode.processes.local import LocalExecutor
from decode.skills.catalog import PROJECT_SKILLS, SkillSource, discover_skills, parse_skill
from decode.skills.tool import SKILL_TOOL, skill_prompt, skill_text


async def test_the_skill_tool_runs_in_every_mode_and_no_rule_names_it(tmp_path: Path) -> None:
    # Loading a skill reads decode's own files, not the Workspace: it never asks, even in plan mode.
    assert (SKILL_TOOL.name, SKILL_TOOL.traits) == ("skill", ToolTraits(ToolKind.SIDE_EFFECT_FREE))
    for mode in Mode:
        gate = PermissionGate(mode=mode, workspace=tmp_path, home=tmp_path)
        assert (await gate.check("skill", {"name": "commit"}, SKILL_TOOL.traits)).decision is Decision.ALLOW


def test_skill_text_holds_the_body_and_the_skill_files(tmp_path: Path, write_skill) -> None:
    path = write_skill(tmp_path, "release", body="1. Bump the version.")
    (path.parent / "scripts").mkdir()
    (path.parent / "scripts" / "bump.py").write_text("print('bump')")

    text = skill_text(parse_skill(path, SkillSource.PROJECT))

    assert text.startswith(f'<skill name="release" directory="{path.parent}">\n1. Bump the version.')
    assert "- scripts/bump.py" in text
    assert text.endswith("</skill>")
    assert "description" not in text  # the front matter stays out


async def run_tool_calls(project: Path, *names: str) -> list[ModelMessage]:
    """Let a model call `skill(name)` for each name, then answer; return the run's messages."""

    calls = iter(names)

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        name = next(calls, None)
        if name is None:
            return ModelResponse(parts=[TextPart("done")])
        return ModelResponse(parts=[ToolCallPart("skill", {"name": name})])

    agent = Agent(FunctionModel(model), deps_type=AgentDeps, tools=[SKILL_TOOL.to_tool()])
    result = await agent.run("go", deps=AgentDeps(LocalExecutor(project), Settings(), harness_home=project))
    return result.all_messages()


def tool_replies(messages: list[ModelMessage]) -> list[ToolReturnPart | RetryPromptPart]:
    return [p for m in messages for p in m.parts if isinstance(p, ToolReturnPart | RetryPromptPart)]


async def test_the_model_loads_a_skill_body_by_name(project: Path, write_skill) -> None:
    write_skill(project / PROJECT_SKILLS, "deploy", body="Run make deploy.")

    (reply,) = tool_replies(await run_tool_calls(project, "deploy"))

    assert isinstance(reply, ToolReturnPart)
    assert "Run make deploy." in reply.content


async def test_an_unknown_skill_is_a_retry_listing_the_available_ones(project: Path) -> None:
    (reply,) = tool_replies(await run_tool_calls(project, "nope"))

    assert isinstance(reply, RetryPromptPart)
    assert "There is no skill named 'nope'. Available skills: commit." in reply.model_response()


def test_skill_prompt_carries_the_body_then_the_request(project: Path) -> None:
    commit = discover_skills(project).get("commit")

    prompt = skill_prompt(commit, "  only the docs  ")

    assert prompt.startswith("Use the skill `commit`")
    assert commit.body() in prompt
    assert prompt.endswith("The user's request: only the docs")


def test_skill_prompt_without_a_request(project: Path) -> None:
    prompt = skill_prompt(discover_skills(project).get("commit"))

    assert prompt.endswith("</skill>")
