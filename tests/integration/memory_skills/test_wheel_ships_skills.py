"""The built wheel carries the built-in skills: an installed decode can load `commit`."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]


def test_the_wheel_holds_every_builtin_skill_md(wheel_files: set[str]) -> None:
    shipped = wheel_files

    builtins = sorted((REPO / "decode" / "skills" / "builtin").glob("*/SKILL.md"))
    assert builtins, "decode ships at least one built-in skill"
    for skill in builtins:
        assert skill.relative_to(REPO).as_posix() in shipped
    assert "decode/skills/builtin/commit/SKILL.md" in shipped
