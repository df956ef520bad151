"""The clone and the hand-back run no program a repository's files name: each kind of plant
(`tests.conftest.PLANTED_KINDS`) in the source that is cloned, and in a repository the agent
nests inside the Workspace."""

import asyncio
from pathlib import Path

import pytest

from decode.sandbox.handback import Outcome, hand_back
from decode.sandbox.workspace import open_workspace
from tests.conftest import GIT_HOOKS, PLANTED_KINDS, git, planted_repository

pytestmark = pytest.mark.integration

RECEIVING = ("pre-receive", "update", "post-receive", "post-update", "reference-transaction")
"""The source's own hooks that receive the push: the user's repository, the user's policy (ADR-0084).
The sandbox never sees the source: only the user or their own tools could have put them there."""


def fired(markers: Path) -> list[str]:
    return sorted(p.name for p in markers.iterdir())


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_cloning_and_handing_back_run_nothing_the_source_plants_but_its_receiving_hooks(
    tmp_path: Path, kind: str
) -> None:
    markers = tmp_path / "markers"
    source = planted_repository(tmp_path, kind, markers)
    home = tmp_path / "home"
    home.mkdir()

    workspace = open_workspace(home, str(source), "s1")
    (workspace.path / "work.txt").write_text("the agent's work\n", encoding="utf-8")
    result = asyncio.run(hand_back(workspace))

    assert result.outcome is Outcome.SHIPPED, result.report()
    assert git(source, "show", "decode/s1:work.txt") == "the agent's work"
    # What the source's own receiving git runs is the user's (a pre-receive may refuse the push).
    receiving = {f"{kind}-{hook}" for hook in RECEIVING} if kind in ("hooks", "hooks-path") else set()
    if kind == "alternate-refs":  # receive-pack lists the refs of its alternates by it
        receiving = {kind}
    assert set(fired(markers)) == receiving
    assert all(hook in GIT_HOOKS for hook in RECEIVING)


@pytest.mark.parametrize("kind", PLANTED_KINDS)
def test_a_repository_the_agent_nests_in_the_workspace_runs_nothing(tmp_path: Path, kind: str) -> None:
    home = tmp_path / "home"
    home.mkdir()
    source = tmp_path / "source"
    source.mkdir()
    git(source, "init", "-q", "-b", "main")
    git(source, "-c", "user.name=T", "-c", "user.email=t@x", "commit", "-q", "--allow-empty", "-m", "first")
    workspace = open_workspace(home, str(source), "s1")
    markers = tmp_path / "markers"
    planted_repository(workspace.path / "vendor", kind, markers)  # the agent's own repository, nested

    result = asyncio.run(hand_back(workspace))

    assert result.outcome is Outcome.SHIPPED, result.report()
    assert fired(markers) == []
