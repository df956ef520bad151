"""The catalogue in the instructions: names and descriptions only, rebuilt on a request after a change."""

import logging
from pathlib import Path
from typing import Any

import pytest
from pydantic_ai import Agent
from pydantic_ai.messages import ModelMessage, ModelResponse, TextPart
from pydantic_ai.models.function import AgentInfo, FunctionModel

from decode.config import stamps
from decode.config.settings import Settings
from decode.entities.deps import AgentDeps
from decode.processes.local import LocalExecutor
from decode.skills import instructions
from decode.skills.catalog import PROJECT_SKILLS, SkillCatalog, discover_skills
from decode.skills.instructions import PREAMBLE, render_catalog, report_problems, skills_instructions, skills_text


def test_the_catalogue_lists_names_and_descriptions_not_bodies(project: Path, write_skill) -> None:
    write_skill(project / PROJECT_SKILLS, "deploy", "Ship it to production.", body="SECRET STEPS")

    text = render_catalog(discover_skills(project))

    assert text.startswith(PREAMBLE)
    assert "- deploy: Ship it to production." in text
    assert "- commit: " in text
    assert "SECRET STEPS" not in text
    assert text.index("- commit") < text.index("- deploy")


def test_no_skills_no_instructions() -> None:
    assert render_catalog(SkillCatalog()) == ""


def test_each_problem_is_logged_once(caplog: pytest.LogCaptureFixture, tmp_path: Path) -> None:
    catalog = SkillCatalog(problems=[f"{tmp_path}/x/SKILL.md: name: Field required"])

    with caplog.at_level(logging.WARNING):
        assert report_problems(catalog) == catalog.problems
        assert report_problems(catalog) == []

    assert caplog.text.count(f"skill skipped: {tmp_path}/x/SKILL.md: name: Field required") == 1


async def test_a_skill_added_between_turns_is_in_the_next_request(
    project: Path, write_skill, caplog: pytest.LogCaptureFixture
) -> None:
    seen: list[str] = []

    def model(messages: list[ModelMessage], info: AgentInfo) -> ModelResponse:
        seen.append(info.instructions or "")
        return ModelResponse(parts=[TextPart("ok")])

    agent = Agent(FunctionModel(model), deps_type=AgentDeps, instructions=[skills_instructions])
    deps = AgentDeps(LocalExecutor(project), Settings(), harness_home=project)

    first = await agent.run("hi", deps=deps)
    write_skill(project / PROJECT_SKILLS, "deploy", "Ship it.")
    broken = write_skill(project / PROJECT_SKILLS, "broken", front="name: broken")
    await agent.run("again", deps=deps, message_history=first.all_messages())

    assert "deploy" not in seen[0]
    assert "- deploy: Ship it." in seen[1]
    assert f"skill skipped: {broken}: description: Field required" in caplog.text


def test_the_catalogue_is_built_again_only_when_a_skill_changed(
    project: Path, write_skill, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setattr(stamps, "SETTLED_NS", 0)  # every change counts as settled at once
    calls: list[Path] = []

    def counting(workspace: Path, **kwargs: Any) -> SkillCatalog:  # the real one, counted
        calls.append(workspace)
        return discover_skills(workspace, **kwargs)

    monkeypatch.setattr(instructions, "discover_skills", counting)
    write_skill(project / PROJECT_SKILLS, "deploy", "Ship it to production.")

    texts = {skills_text(project) for _ in range(5)}
    assert len(calls) == 1
    write_skill(project / PROJECT_SKILLS, "release", "Tag a release.")  # a new skill folder
    assert "- release: Tag a release." in skills_text(project)
    write_skill(project / PROJECT_SKILLS, "deploy", "Ship it to staging first.")  # a skill edited
    assert "- deploy: Ship it to staging first." in skills_text(project)

    assert len(texts) == 1
    assert "- deploy: Ship it to production." in texts.pop()
    assert len(calls) == 3
