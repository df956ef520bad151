"""Helpers for the skills tests: write a SKILL.md where a test wants one."""

from collections.abc import Callable
from pathlib import Path

import pytest

WriteSkill = Callable[..., Path]


@pytest.fixture
def write_skill() -> WriteSkill:
    """`write_skill(root, name, description=…, body=…, front=None)` writes root/name/SKILL.md.

    `front` replaces the whole front matter block (to write broken ones).
    """

    def write(
        root: Path, name: str, description: str = "Does a thing.", body: str = "Do it.", front: str | None = None
    ) -> Path:
        path = root / name / "SKILL.md"
        path.parent.mkdir(parents=True, exist_ok=True)
        header = front if front is not None else f"name: {name}\ndescription: {description}"
        path.write_text(f"---\n{header}\n---\n\n{body}\n", encoding="utf-8")
        return path

    return write
