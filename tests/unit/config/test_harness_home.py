import os
import stat
import subprocess
from pathlib import Path

import pytest

from decode.config.harness_home import (
    PERSONAL,
    PRIVATE_FILE_MODE,
    OutsideHarnessHome,
    make_parent_dirs,
    private_open,
)


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
    # The team's files show; decode's own `.gitignore` is in this clone's .git/info/exclude (ADR-0146).
    assert tracked == [".decode/settings.json", ".decode/skills/lint/SKILL.md"]


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


def mode_of(path: Path) -> int:
    return stat.S_IMODE(os.stat(path).st_mode)


def test_personal_directories_are_private(project: Path) -> None:
    for name in ["sessions/1.jsonl", "tool-output/a.txt"]:
        make_parent_dirs(project / ".decode" / name)
    assert mode_of(project / ".decode" / "sessions") == 0o700
    assert mode_of(project / ".decode" / "tool-output") == 0o700


def test_personal_files_in_decode_dir_are_created_private_and_empty(project: Path) -> None:
    for name in ["history", "MEMORY.md", "settings.local.json"]:
        path = project / ".decode" / name
        make_parent_dirs(path)
        assert (path.read_bytes(), mode_of(path)) == (b"", PRIVATE_FILE_MODE), name
        path.write_text("kept")  # the writer opens it next: the mode stays
        make_parent_dirs(path)
        assert (path.read_text(), mode_of(path)) == ("kept", PRIVATE_FILE_MODE), name


def test_older_wider_personal_entries_are_narrowed(project: Path) -> None:
    (project / ".decode" / "sessions").mkdir(parents=True)
    (project / ".decode" / "sessions").chmod(0o755)
    (project / ".decode" / "history").write_text("ls\n")
    (project / ".decode" / "history").chmod(0o644)

    make_parent_dirs(project / ".decode" / "sessions" / "2.jsonl")
    make_parent_dirs(project / ".decode" / "history")

    assert mode_of(project / ".decode" / "sessions") == 0o700
    assert mode_of(project / ".decode" / "history") == 0o600
    assert (project / ".decode" / "history").read_text() == "ls\n"


def test_shared_entries_keep_the_default_mode(project: Path) -> None:
    make_parent_dirs(project / ".decode" / "skills" / "lint" / "SKILL.md")
    make_parent_dirs(project / ".decode" / "settings.json")
    umask = current_umask()
    assert mode_of(project / ".decode" / "skills") == 0o777 & ~umask
    assert mode_of(project / ".decode" / ".gitignore") == 0o666 & ~umask
    assert not (project / ".decode" / "settings.json").exists()  # a shared file is not created here


def test_a_symlinked_personal_file_in_the_users_home_is_left_alone(
    project: Path, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("HOME", str(project))  # `~/.decode`: only the user put a link there
    target = tmp_path / "shared-history"
    target.write_text("")
    target.chmod(0o644)
    (project / ".decode").mkdir()
    (project / ".decode" / "history").symlink_to(target)
    make_parent_dirs(project / ".decode" / "history")
    assert mode_of(target) == 0o644  # the user linked it on purpose; decode does not chmod through a link


@pytest.mark.parametrize(
    ("link", "written"),
    [
        (".decode", ".decode/sessions/1.jsonl"),  # the whole folder elsewhere
        (".decode/sessions", ".decode/sessions/1.jsonl"),  # one folder in it
        (".decode/history", ".decode/history"),  # one file: the user's typing appended to it
        (".decode/settings.local.json", ".decode/settings.local.json"),
    ],
)
def test_a_project_link_out_of_the_project_is_refused(project: Path, tmp_path: Path, link: str, written: str) -> None:
    outside = tmp_path / "elsewhere"
    outside.mkdir()
    (project / link).parent.mkdir(parents=True, exist_ok=True)
    (project / link).symlink_to(outside if not link.endswith(("history", ".json")) else outside / "file")
    with pytest.raises(OutsideHarnessHome, match="outside the project"):
        make_parent_dirs(project / written)
    assert list(outside.iterdir()) == []


def test_a_dangling_project_link_is_refused_before_anything_is_made(project: Path, tmp_path: Path) -> None:
    (project / ".decode").symlink_to(tmp_path / "not-yet")
    with pytest.raises(OutsideHarnessHome):
        make_parent_dirs(project / ".decode" / "sessions" / "1.jsonl")
    assert not (tmp_path / "not-yet").exists()


def test_a_link_that_stays_inside_the_project_is_followed(project: Path) -> None:
    (project / "state").mkdir()
    (project / ".decode").symlink_to(project / "state")
    make_parent_dirs(project / ".decode" / "sessions" / "1.jsonl")
    assert (project / "state" / "sessions").is_dir()
    assert (project / "state" / ".gitignore").is_file()


def test_private_open_creates_a_file_for_the_user_only(tmp_path: Path) -> None:
    with private_open(tmp_path / "new.txt") as file:
        file.write(b"secret")
    assert mode_of(tmp_path / "new.txt") == PRIVATE_FILE_MODE
    with pytest.raises(FileExistsError):
        private_open(tmp_path / "new.txt")
    with private_open(tmp_path / "new.txt", "wb") as file:
        file.write(b"again")
    assert (tmp_path / "new.txt").read_bytes() == b"again"


def current_umask() -> int:
    mask = os.umask(0)
    os.umask(mask)
    return mask
