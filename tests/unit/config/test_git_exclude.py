"""decode's first write into a checkout's `.decode/` keeps `git status` clean (`.git/info/exclude`)."""

import subprocess
from pathlib import Path

from decode.config.harness_home import make_parent_dirs


def git(cwd: Path, *args: str) -> str:
    return subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=True).stdout


def init(path: Path) -> Path:
    path.mkdir(parents=True, exist_ok=True)
    git(path, "init", "-q")
    return path


def test_the_first_write_keeps_git_status_clean_and_shared_files_still_show(tmp_path: Path) -> None:
    project = init(tmp_path / "p")
    (project / "app.py").write_text("x = 1\n")
    git(project, "add", "app.py")
    make_parent_dirs(project / ".decode" / "history")
    make_parent_dirs(project / ".decode" / "sessions" / "s.jsonl")
    (project / ".decode" / "sessions" / "s.jsonl").write_text("{}\n")
    assert git(project, "status", "--porcelain") == "A  app.py\n"  # nothing of decode's shows
    exclude = (project / ".git" / "info" / "exclude").read_text()
    assert exclude.count("/.decode/.gitignore\n") == 1
    assert not (project / ".gitignore").exists()  # never the team's file
    (project / ".decode" / ".gitignore").unlink()
    make_parent_dirs(project / ".decode" / "history")  # written again: the line is not repeated
    assert (project / ".git" / "info" / "exclude").read_text().count("/.decode/.gitignore") == 1
    (project / ".decode" / "settings.json").write_text("{}")  # the team's: it still shows, to commit
    assert "?? .decode/" in git(project, "status", "--porcelain")


def test_a_subfolder_of_a_checkout_gets_its_own_path(tmp_path: Path) -> None:
    root = init(tmp_path / "repo")
    make_parent_dirs(root / "sub dir" / ".decode" / "history")
    assert "/sub dir/.decode/.gitignore\n" in (root / ".git" / "info" / "exclude").read_text()
    assert git(root, "status", "--porcelain") == ""


def test_a_linked_or_odd_git_is_left_alone(tmp_path: Path) -> None:
    real = init(tmp_path / "real")
    linked = tmp_path / "linked"
    linked.mkdir()
    (linked / ".git").symlink_to(real / ".git")  # a .git that is a link
    make_parent_dirs(linked / ".decode" / "history")
    worktree = tmp_path / "wt"
    subprocess.run(
        ["git", "-c", "user.name=t", "-c", "user.email=t@t", "commit", "-q", "--allow-empty", "-m", "first"],
        cwd=real,
        check=True,
    )
    git(real, "worktree", "add", "-q", str(worktree))  # its .git is a file
    make_parent_dirs(worktree / ".decode" / "history")
    odd = init(tmp_path / "odd")
    target = tmp_path / "elsewhere"
    target.write_text("")
    exclude = odd / ".git" / "info" / "exclude"
    exclude.unlink(missing_ok=True)
    exclude.symlink_to(target)  # an exclude file that leads elsewhere
    make_parent_dirs(odd / ".decode" / "history")
    assert ".decode" not in (real / ".git" / "info" / "exclude").read_text()
    assert target.read_text() == ""
    assert (worktree / ".decode" / ".gitignore").exists()  # decode's own write still happened


def test_outside_a_checkout_nothing_happens(tmp_path: Path) -> None:
    make_parent_dirs(tmp_path / "plain" / ".decode" / "history")
    assert (tmp_path / "plain" / ".decode" / ".gitignore").exists()
    assert not (tmp_path / "plain" / ".git").exists()


def test_an_odd_exclude_file_is_left_alone_unread(tmp_path: Path) -> None:
    """An archive's own `.git/` may hold an exclude that is huge (read whole, it would fill the
    memory), a FIFO (opened, it would wait forever) or a hard link to one of its files (appended
    to, it would change that file): decode's write goes on, the file is left."""
    import os

    from decode.config.safe_read import MAX_BYTES

    huge = init(tmp_path / "huge")
    exclude = huge / ".git" / "info" / "exclude"
    with exclude.open("wb") as file:
        os.truncate(file.fileno(), MAX_BYTES + 1)  # sparse: no disk, no time
    make_parent_dirs(huge / ".decode" / "history")
    assert exclude.stat().st_size == MAX_BYTES + 1
    fifo = init(tmp_path / "fifo")
    (fifo / ".git" / "info" / "exclude").unlink(missing_ok=True)
    os.mkfifo(fifo / ".git" / "info" / "exclude")
    make_parent_dirs(fifo / ".decode" / "history")
    hard = init(tmp_path / "hard")
    (hard / "app.py").write_text("x = 1\n")
    (hard / ".git" / "info" / "exclude").unlink(missing_ok=True)
    os.link(hard / "app.py", hard / ".git" / "info" / "exclude")  # the same file as one of the archive's
    make_parent_dirs(hard / ".decode" / "history")
    assert (hard / "app.py").read_text() == "x = 1\n"
    for project in (huge, fifo, hard):
        assert (project / ".decode" / ".gitignore").exists()  # decode's own write still happened
