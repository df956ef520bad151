"""Fixtures for the process machinery's tests: a real workspace directory, and whether a pid lives."""

from collections.abc import Callable
from pathlib import Path

import pytest


def process_alive(pid: int) -> bool:
    """Is `pid` a live process (a zombie waiting to be reaped counts as gone)?"""
    try:
        state = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()[0]
    except FileNotFoundError:
        return False
    return state != "Z"


@pytest.fixture
def alive() -> Callable[[int], bool]:
    return process_alive
