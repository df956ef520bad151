"""Fixtures for the whole suite.

Every test starts from a clean slate: none of the developer's own keys or DECODE_* settings leak
in (a real key must never reach a test), and HOME points at an empty directory so user-level
files (`~/.decode/…`) come only from the test itself.
"""

import os
from collections.abc import Callable
from pathlib import Path

import pytest

WriteText = Callable[[Path, str], Path]


def _is_decode_setting(name: str) -> bool:
    return name.startswith(("DECODE_", "SANDBOX_", "OPIK_", "KITARU_")) or name in {  # OPIK_: 16, KITARU_: 17
        "GEMINI_API_KEY",
        "GOOGLE_API_KEY",
        "GEMINI_BASE_URL",
        "OPENROUTER_API_KEY",
        "OPENROUTER_BASE_URL",
        "OPENAI_API_KEY",
        "OPENAI_BASE_URL",
    }


@pytest.fixture(autouse=True)
def clean_environment(monkeypatch: pytest.MonkeyPatch, tmp_path_factory: pytest.TempPathFactory) -> None:
    for name in list(os.environ):
        if _is_decode_setting(name):
            monkeypatch.delenv(name)
    monkeypatch.setenv("HOME", str(tmp_path_factory.mktemp("home")))


@pytest.fixture
def project(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    """An empty project directory, made the current directory (the launch directory)."""
    root = tmp_path / "project"
    root.mkdir()
    monkeypatch.chdir(root)
    return root


def _write(path: Path, text: str) -> Path:
    path.parent.mkdir(parents=True, exist_ok=True)
    path.write_text(text, encoding="utf-8")
    return path


@pytest.fixture
def write() -> WriteText:
    """`write(path, text)`: write a UTF-8 file, making its folders; returns the path."""
    return _write


def _trust_settings(project: Path) -> Path:
    from decode.permissions.project_trust import trust
    from decode.permissions.settings_files import load_permission_settings

    return trust(project, load_permission_settings(project).grants)


@pytest.fixture
def trust_settings() -> Callable[[Path], Path]:
    """`trust_settings(project)`: trust the project's settings files as they are now (what
    `decode permissions trust` does), so their allow rules and mode are in force."""
    return _trust_settings


def gone(pid: int, seconds: float = 20) -> bool:
    """Is `pid` gone (dead and reaped, or dead and left to init) within `seconds`? Polls /proc.

    A process decode killed just before it exited dies as init's child. PID 1 of some containers
    (this machine's among them) never reaps orphans, so its zombie stays in /proc for good: dead,
    holding nothing, and no longer decode's to reap. That counts as gone.
    """
    import time

    deadline = time.monotonic() + seconds
    while (stat := _stat(pid)) is not None:
        state, parent = stat
        if state == "Z" and parent == 1:
            return True
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # polling a condition, with a deadline
    return True


def _stat(pid: int) -> tuple[str, int] | None:
    """(state, parent pid) of `pid` from /proc, or None when it is not in the process table."""
    try:
        raw = Path(f"/proc/{pid}/stat").read_bytes()
    except OSError:
        return None
    fields = raw[raw.rfind(b")") + 2 :].split()  # the command name may hold spaces and parentheses
    return fields[0].decode(), int(fields[1])


def pids(folder: Path) -> list[int]:
    """The process ids the test's commands wrote into `*.pid` files in `folder`."""
    return [int(line) for path in sorted(folder.glob("*.pid")) for line in path.read_text().split()]


def git(cwd: Path, *args: str) -> str:
    """Run git in `cwd`, assert it succeeded, return its output (stripped)."""
    import subprocess

    done = subprocess.run(["git", *args], cwd=cwd, capture_output=True, text=True, check=False)
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stderr}"
    return done.stdout.strip()


def source_repository(parent: Path) -> Path:
    """`parent/source`: the user's repository, `main` with one commit of `a.txt`, and a host git identity in HOME."""
    (Path(os.environ["HOME"]) / ".gitconfig").write_text("[user]\n\tname = Host\n\temail = h@x\n", encoding="utf-8")
    repo = parent / "source"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    (repo / "a.txt").write_text("a\n", encoding="utf-8")
    git(repo, "add", "a.txt")
    git(repo, "commit", "-qm", "first")
    return repo
