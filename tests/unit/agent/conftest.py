"""Fixtures for the Agent Loop's tests."""

from pathlib import Path

import pytest


@pytest.fixture
def home(tmp_path: Path) -> Path:
    """The launch directory (the Harness Home and, with the local executor, the Workspace)."""
    root = tmp_path / "home"
    root.mkdir()
    return root
