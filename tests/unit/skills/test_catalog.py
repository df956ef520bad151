"""The skill catalogue: three sources, the override order, and malformed files skipped by name."""

import os
from pathlib import Path

import pytest

from decode.skills.catalog import (
    BUILTIN_SKILLS,
    CLAUDE_SKILLS,
    MAX_RESOURCES,
    MAX_SKILLS,
    PROJECT_SKILLS,
    USER_SKILLS,
    SkillCatalog,
    SkillError,
    SkillSource,
    discover_skills,
    parse_skill,
)
from tests.conftest import returns_at_once


@pytest.fixture
def user_skills() -> Path:
    return Path.home() / USER_SKILLS  # HOME is a fresh tmp dir for every test


@pytest.fixture
def project_skills(project: Path) -> Path:
    return project / PROJECT_SKILLS


def test_builtin_commit_skill_ships_with_decode(project: Path) -> None:
    catalog = discover_skills(project)

    commit = catalog.get("commit")
    assert commit is not None
    assert commit.source is SkillSource.BUILTIN
    assert commit.path == BUILTIN_SKILLS / "commit" / "SKILL.md"
    assert "git" in commit.body()
    assert catalog.problems == []


def test_project_overrides_user_overrides_builtin(
    project: Path, user_skills: Path, project_skills: Path, write_skill
) -> None:
    write_skill(user_skills, "commit", "User commit.")
    write_skill(user_skills, "deploy", "User deploy.")
    write_skill(project_skills, "deploy", "Project deploy.", body="project body")

    catalog = discover_skills(project)

    assert catalog.get("commit").source is SkillSource.USER
    assert catalog.get("commit").description == "User commit."
    deploy = catalog.get("deploy")
    assert (deploy.source, deploy.description, deploy.body()) == (
        SkillSource.PROJECT,
        "Project deploy.",
        "project body",
    )


def test_claude_code_folders_are_read_and_decodes_own_win_at_the_same_level(
    project: Path, user_skills: Path, project_skills: Path, write_skill
) -> None:
    write_skill(Path.home() / CLAUDE_SKILLS, "review", "Claude user review.")
    write_skill(Path.home() / CLAUDE_SKILLS, "notes", "Claude user notes.")
    write_skill(user_skills, "notes", "decode user notes.")
    write_skill(project / CLAUDE_SKILLS, "review", "Claude project review.")
    write_skill(project / CLAUDE_SKILLS, "deploy", "Claude project deploy.")
    write_skill(project_skills, "deploy", "decode project deploy.")
    write_skill(project / CLAUDE_SKILLS, "commit", "Claude project commit.")

    catalog = discover_skills(project)

    described = {name: (catalog.skills[name].source, catalog.skills[name].description) for name in catalog.names()}
    assert described == {
        "commit": (SkillSource.PROJECT, "Claude project commit."),
        "deploy": (SkillSource.PROJECT, "decode project deploy."),
        "notes": (SkillSource.USER, "decode user notes."),
        "review": (SkillSource.PROJECT, "Claude project review."),
    }


def test_a_project_skill_overrides_a_builtin(project: Path, project_skills: Path, write_skill) -> None:
    write_skill(project_skills, "commit", "Our own commit rules.")

    commit = discover_skills(project).get("commit")

    assert commit.source is SkillSource.PROJECT
    assert commit.description == "Our own commit rules."


@pytest.mark.parametrize(
    ("front", "problem"),
    [
        ("name: x: y\ndescription: x", "the front matter is not valid YAML (line 2)"),
        ("name: [broken\ndescription: x", "the front matter is not valid YAML (line 3)"),
        ("description: no name", "name: Field required"),
        ("name: broken", "description: Field required"),
        ("name: broken\ndescription: ''", "description: String should have at least 1 character"),
        ("name: Broken_Name\ndescription: x", "name: String should match pattern"),
        ("name: other\ndescription: x", "name 'other' differs from its directory 'broken'"),
        ("- a list\n- not a mapping", "name: Field required"),
    ],
)
def test_a_malformed_skill_is_skipped_with_a_problem_naming_the_file(
    project: Path, project_skills: Path, write_skill, front: str, problem: str
) -> None:
    path = write_skill(project_skills, "broken", front=front)
    write_skill(project_skills, "fine")

    catalog = discover_skills(project)

    assert "broken" not in catalog.skills
    assert "fine" in catalog.skills
    (message,) = catalog.problems
    assert message.startswith(f"{path}: ")
    assert problem in message


def test_a_malformed_project_skill_does_not_hide_the_builtin(project: Path, project_skills: Path, write_skill) -> None:
    write_skill(project_skills, "commit", front="name: commit")

    catalog = discover_skills(project)

    assert catalog.get("commit").source is SkillSource.BUILTIN
    assert len(catalog.problems) == 1


def test_a_file_without_front_matter_is_malformed(tmp_path: Path) -> None:
    path = tmp_path / "plain" / "SKILL.md"
    path.parent.mkdir()
    path.write_text("just text\n")

    with pytest.raises(SkillError, match="name: Field required"):
        parse_skill(path, SkillSource.PROJECT)


def test_optional_fields_of_the_format_are_accepted(tmp_path: Path, write_skill) -> None:
    path = write_skill(tmp_path, "pdf", front="name: pdf\ndescription: PDFs.\nlicense: MIT\nmetadata:\n  author: me")

    assert parse_skill(path, SkillSource.USER).name == "pdf"


def test_directories_without_skill_md_are_ignored(project: Path, project_skills: Path) -> None:
    (project_skills / "notes").mkdir(parents=True)

    catalog = discover_skills(project)

    assert catalog.names() == ["commit"]
    assert catalog.problems == []


def test_resources_lists_every_file_beside_skill_md(tmp_path: Path, write_skill) -> None:
    path = write_skill(tmp_path, "release")
    names = ["scripts/bump.py", "references/style.md", "references/deep/more.md", "assets/logo.png", "forms.md"]
    for name in [*names, ".git/HEAD", "scripts/__pycache__/bump.pyc", ".hidden.md"]:
        (path.parent / name).parent.mkdir(parents=True, exist_ok=True)
        (path.parent / name).write_text("x")

    skill = parse_skill(path, SkillSource.PROJECT)

    assert [str(p) for p in skill.resources()] == sorted(names)


def test_resources_stop_at_the_cap(tmp_path: Path, write_skill) -> None:
    path = write_skill(tmp_path, "vendored")
    (path.parent / "node_modules").mkdir()
    for number in range(MAX_RESOURCES + 50):
        (path.parent / "node_modules" / f"f{number:04d}.js").write_text("x")

    assert len(parse_skill(path, SkillSource.PROJECT).resources()) == MAX_RESOURCES


def test_the_body_is_read_again_after_an_edit(tmp_path: Path, write_skill) -> None:
    path = write_skill(tmp_path, "lint", body="old body")
    skill = parse_skill(path, SkillSource.PROJECT)

    write_skill(tmp_path, "lint", body="new body")

    assert skill.body() == "new body"


def test_an_edited_or_broken_skill_is_seen_at_the_next_discovery(
    project: Path, project_skills: Path, write_skill
) -> None:
    write_skill(project_skills, "lint", description="Runs the linter.")
    assert discover_skills(project).skills["lint"].description == "Runs the linter."

    write_skill(project_skills, "lint", description="Runs ruff, then fixes what it can.")
    assert discover_skills(project).skills["lint"].description == "Runs ruff, then fixes what it can."

    write_skill(project_skills, "lint", front="name: [unclosed")
    catalog = discover_skills(project)
    assert "lint" not in catalog.skills
    assert any("lint" in problem for problem in catalog.problems)


def test_the_built_in_index_is_what_the_built_in_skill_files_say() -> None:
    from decode.skills.catalog import BUILTIN_INDEX, builtin_index_text

    assert BUILTIN_INDEX.read_text(encoding="utf-8") == builtin_index_text(), (
        "decode/skills/builtin/index.json is stale: run `python -m decode.skills.catalog`"
    )


def test_a_fifo_skill_file_is_one_problemreturns_at_once(project: Path, project_skills: Path) -> None:
    (project_skills / "x").mkdir(parents=True)
    os.mkfifo(project_skills / "x" / "SKILL.md")
    found: list[SkillCatalog] = []
    returns_at_once(lambda: found.append(discover_skills(project)), project_skills / "x" / "SKILL.md")
    assert found[0].problems == [f"{project_skills / 'x' / 'SKILL.md'}: is not a regular file"]
    assert "commit" in found[0].names()


def test_a_skill_file_linking_nowhere_is_one_problem(project: Path, project_skills: Path) -> None:
    (project_skills / "x").mkdir(parents=True)
    (project_skills / "x" / "SKILL.md").symlink_to(project / "nowhere")
    assert discover_skills(project).problems == [
        f"{project_skills / 'x' / 'SKILL.md'}: cannot be read (No such file or directory)"
    ]


def test_skills_beyond_the_cap_are_left_out_and_named_once(project: Path, project_skills: Path) -> None:
    for number in range(MAX_SKILLS + 5):
        (project_skills / f"s{number:03}").mkdir(parents=True)
        (project_skills / f"s{number:03}" / "SKILL.md").write_text(f"---\nname: s{number:03}\ndescription: d\n---\n")
    catalog = discover_skills(project)
    assert catalog.problems == [f"{project_skills}: 5 more skills than the {MAX_SKILLS} read; they are left out"]
    assert len([name for name in catalog.names() if name.startswith("s")]) == MAX_SKILLS
