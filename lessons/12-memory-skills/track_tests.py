"""Lesson 12's build-along track: memory files found and read in order, notes capped, skills parsed.

`make lesson-check N=12` runs these against your copy (`make lesson-start N=12`); each test's first
docstring line is the behaviour it reports.
"""

from pathlib import Path

import pytest

from decode.memory.files import keep_newest, load_memory
from decode.skills.catalog import SkillError, SkillSource, parse_skill


def write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text)
    return path


def test_memory_is_read_user_first_then_the_project_from_the_root_down(tmp_path: Path) -> None:
    """Memory is read in order: the user's, then each AGENTS.md from the root down, then the notes."""
    home, project = tmp_path / "home", tmp_path / "project"
    write(home / ".decode" / "AGENTS.md", "user rules")
    write(project / "AGENTS.md", "project rules")
    write(project / "app" / "AGENTS.md", "app rules")
    write(project / "app" / ".decode" / "MEMORY.md", "a note")
    write(project / "empty" / "AGENTS.md", "  \n")
    loaded = [(memory.scope, memory.text) for memory in load_memory(project / "app", home=home)]
    assert loaded == [
        ("user", "user rules"),
        ("project", "project rules"),
        ("project", "app rules"),
        ("notes", "a note"),
    ]


def test_an_empty_file_or_a_link_to_a_secret_is_not_memory(tmp_path: Path) -> None:
    """An empty memory file is skipped, and so is an AGENTS.md that links to a non-Markdown file."""
    write(tmp_path / ".env", "KEY=secret")
    (tmp_path / "AGENTS.md").symlink_to(tmp_path / ".env")
    write(tmp_path / "home" / ".decode" / "AGENTS.md", "")
    assert [memory for memory in load_memory(tmp_path, home=tmp_path / "home") if "secret" in memory.text] == []
    assert [m.scope for m in load_memory(tmp_path, home=tmp_path / "home") if m.path.is_relative_to(tmp_path)] == []


def test_notes_over_the_cap_keep_their_newest_whole_lines() -> None:
    """Notes over the cap keep their newest whole lines, and say how many were dropped."""
    assert keep_newest("short", 100) == ("short", 0)
    text = "\n".join(f"note {n}" for n in range(10))  # each line is 6 characters and a newline
    assert keep_newest(text, 21) == ("note 7\nnote 8\nnote 9", 7)


def test_a_skill_file_is_parsed_from_its_front_matter(tmp_path: Path) -> None:
    """A SKILL.md gives its name and description from its front matter."""
    path = write(tmp_path / "review" / "SKILL.md", "---\nname: review\ndescription: '  Review a diff.'\n---\nSteps.")
    skill = parse_skill(path, SkillSource.PROJECT)
    assert (skill.name, skill.description, skill.path, skill.source) == (
        "review",
        "Review a diff.",
        path,
        SkillSource.PROJECT,
    )


def test_a_malformed_skill_file_is_a_skill_error(tmp_path: Path) -> None:
    """A skill whose name differs from its folder, or whose front matter is not YAML, is a SkillError."""
    other = write(tmp_path / "other" / "SKILL.md", "---\nname: review\ndescription: x\n---\n")
    with pytest.raises(SkillError, match="differs from its directory"):
        parse_skill(other, SkillSource.USER)
    broken = write(tmp_path / "broken" / "SKILL.md", "---\nname: [broken\n---\n")
    with pytest.raises(SkillError, match="not valid YAML"):
        parse_skill(broken, SkillSource.USER)
