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
    return name.startswith("DECODE_") or name in {
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


def gone(pid: int, seconds: float = 20) -> bool:
    """Is `pid` gone from the process table (dead and reaped) within `seconds`? Polls /proc."""
    import time

    deadline = time.monotonic() + seconds
    while Path(f"/proc/{pid}").exists():
        if time.monotonic() > deadline:
            return False
        time.sleep(0.02)  # polling a condition, with a deadline
    return True


def pids(folder: Path) -> list[int]:
    """The process ids the test's commands wrote into `*.pid` files in `folder`."""
    return [int(line) for path in sorted(folder.glob("*.pid")) for line in path.read_text().split()]
