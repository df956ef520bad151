"""A `--repo` clone as the gate's scope: rules from the Harness Home, paths judged in the clone, which
lives inside the Harness Home's `.decode/` — protected around the clone, not in it. (Bypass mode writes
protected paths, as everywhere; inside a sandbox the Harness Home is read-only anyway.)"""

from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.types import Mode
from decode.tools.write import WRITE


@pytest.fixture
def gate(tmp_path: Path) -> PermissionGate:
    home = tmp_path / "home"
    (home / ".decode").mkdir(parents=True)
    (home / ".decode" / "settings.json").write_text('{"permissions": {"allow": ["Bash(make:*)"]}}')
    clone = home / ".decode" / "workspaces" / "s1"
    (clone / ".git").mkdir(parents=True)
    return PermissionGate.from_settings(home, mode=Mode.ACCEPT_EDITS, secret_files=(), scope=clone, trust_project=True)


async def decision(gate: PermissionGate, path: str) -> str:
    return (await gate.check("write", {"path": path, "content": "x"}, WRITE.traits)).decision


async def test_edits_in_the_clone_run_as_in_any_workspace(gate: PermissionGate) -> None:
    assert gate.workspace.endswith("/.decode/workspaces/s1")
    assert await decision(gate, "src/app.py") == "allow"


@pytest.mark.parametrize(
    "path", ["../../settings.json", "../../sessions/x.jsonl", "../s1.json", "../s1.git/config", ".git/config"]
)
async def test_the_harness_home_and_the_clones_git_stay_protected(gate: PermissionGate, path: str) -> None:
    assert await decision(gate, path) == "ask"  # accept-edits: only an allow rule naming it lets it through


def test_the_rules_are_the_harness_homes(gate: PermissionGate) -> None:
    assert any(str(rule) == "Bash(make:*)" for rule in gate.rules)
