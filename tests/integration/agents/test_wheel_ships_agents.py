"""The built wheel carries the built-in agents and their index: an installed decode has `explore`."""

from pathlib import Path

import pytest

pytestmark = pytest.mark.integration

REPO = Path(__file__).resolve().parents[3]


def test_the_wheel_holds_every_builtin_agent_and_the_index(wheel_files: set[str]) -> None:
    shipped = wheel_files

    builtins = sorted((REPO / "decode" / "agents" / "builtin").glob("*.md"))
    assert len(builtins) == 5
    for agent in builtins:
        assert agent.relative_to(REPO).as_posix() in shipped
    assert "decode/agents/builtin/index.json" in shipped
