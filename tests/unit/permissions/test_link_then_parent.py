"""`link/..` is beside the link's target, as the kernel reads it: a path the gate judges by text
alone (`..` collapsed first) would be a different file from the one a command opens."""

from pathlib import Path

import pytest

from decode.permissions import paths
from decode.permissions.gate import PermissionGate
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.bash import BASH
from decode.tools.read import READ


@pytest.fixture
def world(tmp_path: Path) -> dict[str, Path]:
    home, project = tmp_path / "home", tmp_path / "project"
    (home / ".ssh").mkdir(parents=True)
    (home / ".config").mkdir()
    (home / ".ssh" / "id_rsa").write_text("key\n")
    (project / ".git" / "refs").mkdir(parents=True)
    (project / "cfg").symlink_to(home / ".config")  # a repository can ship this link
    (project / "h").symlink_to(".git/refs")
    return {"home": home, "project": project}


def test_resolve_follows_the_link_before_the_parent(world: dict[str, Path]) -> None:
    real = paths.resolve("cfg/../.ssh/id_rsa", str(world["project"]), str(world["home"]))
    assert real == str(world["home"] / ".ssh" / "id_rsa")


def gate(world: dict[str, Path], *rules: tuple[str, Decision], mode: Mode = Mode.DEFAULT) -> PermissionGate:
    parsed = [parse_rule(text, action) for text, action in rules]
    return PermissionGate(parsed, mode, workspace=world["project"], home=world["home"])


@pytest.mark.parametrize("command", ["cat cfg/../.ssh/id_rsa", "head cfg/../.ssh/id_rsa", "grep . cfg/../.ssh/id_rsa"])
async def test_a_read_deny_holds_through_link_then_parent(world: dict[str, Path], command: str) -> None:
    checked = gate(world, ("Read(~/.ssh/**)", Decision.DENY))
    verdict = await checked.check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is not Decision.ALLOW, verdict.reason  # not the read-only list's allow


async def test_the_read_tool_is_denied_the_file_the_kernel_would_open(world: dict[str, Path]) -> None:
    checked = gate(world, ("Read(~/.ssh/**)", Decision.DENY))
    verdict = await checked.check("read", {"path": "cfg/../.ssh/id_rsa"}, READ.traits)
    assert verdict.decision is Decision.DENY


@pytest.mark.parametrize("command", ["cp x h/../hooks/pre-commit", "echo x > h/../config"])
async def test_a_protected_folder_reached_through_link_then_parent_asks(world: dict[str, Path], command: str) -> None:
    checked = gate(world, ("Bash(cp:*)", Decision.ALLOW), ("Bash(echo:*)", Decision.ALLOW))
    verdict = await checked.check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.ASK, verdict.reason
