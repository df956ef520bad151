import subprocess
from pathlib import Path

from decode.config.harness_home import PERSONAL, make_parent_dirs


def test_the_first_write_into_decode_dir_ignores_personal_files_in_git(project: Path) -> None:
    subprocess.run(["git", "init", "-q"], check=True)
    (project / ".decode" / "skills" / "lint").mkdir(parents=True)
    (project / ".decode" / "skills" / "lint" / "SKILL.md").write_text("---\nname: lint\n---\n")

    for name in ["history", "sessions/1.jsonl", "tool-output/a.txt", "MEMORY.md", "settings.local.json"]:
        make_parent_dirs(project / ".decode" / name)
        (project / ".decode" / name).write_text("mine")
    (project / ".decode" / "settings.json").write_text("{}")

    status = subprocess.run(
        ["git", "status", "--porcelain", "--untracked-files=all"], capture_output=True, text=True, check=True
    ).stdout
    tracked = sorted(line[3:] for line in status.splitlines())
    assert tracked == [".decode/.gitignore", ".decode/settings.json", ".decode/skills/lint/SKILL.md"]


def test_an_existing_gitignore_is_left_alone(project: Path) -> None:
    (project / ".decode").mkdir()
    (project / ".decode" / ".gitignore").write_text("my own rules\n")
    make_parent_dirs(project / ".decode" / "history")
    assert (project / ".decode" / ".gitignore").read_text() == "my own rules\n"


def test_paths_outside_a_decode_dir_just_get_their_parents(tmp_path: Path) -> None:
    make_parent_dirs(tmp_path / "a" / "b" / "file.txt")
    assert (tmp_path / "a" / "b").is_dir()
    assert not (tmp_path / "a" / ".gitignore").exists()


def test_every_personal_entry_is_named() -> None:
    assert {"history", "sessions/", "settings.local.json"} <= set(PERSONAL)
