"""The hand-back of a Workspace that is not on this machine (Modal's case): the work comes home as a
git bundle written by git inside, fetched host-side. The remote side here is a directory the test's
backend runs real commands in, standing in for Modal's cloud (which cannot exist here)."""

import asyncio
import os
import shutil
from collections.abc import Mapping, Sequence
from pathlib import Path

import pytest

from decode.entities.executor import ExecRequest, ExecResult, Process
from decode.processes.run import run_process
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.handback import Outcome, hand_back
from decode.sandbox.types import SandboxMode
from decode.sandbox.workspace import open_workspace
from tests.conftest import git

pytestmark = pytest.mark.integration


class ElsewhereBackend:
    """A sandbox whose Workspace is another directory, reached only through `run` (like Modal's)."""

    mode = SandboxMode.MODAL
    host_workspace = None

    def __init__(self, workspace: Path) -> None:
        self.workspace = workspace

    def preflight(self) -> None: ...

    async def start(self) -> None: ...

    async def run(self, request: ExecRequest) -> ExecResult:
        return await run_process(request)

    async def spawn(self, argv: Sequence[str], *, cwd: Path, env: Mapping[str, str]) -> Process:
        raise NotImplementedError

    async def close(self) -> None: ...


@pytest.fixture
def source(tmp_path: Path) -> Path:
    (Path(os.environ["HOME"]) / ".gitconfig").write_text("[user]\n\tname = Host\n\temail = h@x\n", encoding="utf-8")
    repo = tmp_path / "source"
    repo.mkdir()
    git(repo, "init", "-q", "-b", "main")
    for i in range(3):
        (repo / f"f{i}.txt").write_text(f"{i}\n", encoding="utf-8")
        git(repo, "add", ".")
        git(repo, "commit", "-qm", f"commit {i}")
    return repo


def remote_executor(local_clone: Path, tmp_path: Path) -> SandboxExecutor:
    """The clone uploaded to "the sandbox": a copy only `run` reaches."""
    remote = tmp_path / "remote" / "workspace"
    shutil.copytree(local_clone, remote, symlinks=True)
    env = {"PATH": os.environ["PATH"], "HOME": str(tmp_path), "LANG": "C.UTF-8"}
    return SandboxExecutor(ElsewhereBackend(remote), env=env)


def test_a_remote_workspaces_work_comes_back_through_a_bundle(source: Path, tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    workspace = open_workspace(tmp_path / "home", str(source), "r1")
    executor = remote_executor(workspace.path, tmp_path)
    remote = executor.workspace
    (remote / "model.txt").write_text("made remotely\n", encoding="utf-8")
    git(remote, "add", "model.txt")
    git(remote, "-c", "user.name=Model", "-c", "user.email=m@x", "commit", "-qm", "the model, remotely")
    (remote / "f0.txt").write_text("changed remotely\n", encoding="utf-8")

    result = asyncio.run(hand_back(workspace, executor))

    assert result.outcome is Outcome.SHIPPED, result.report()
    assert git(source, "show", "decode/r1:model.txt") == "made remotely"
    assert git(source, "show", "decode/r1:f0.txt") == "changed remotely"
    assert git(source, "log", "--format=%s", "main..decode/r1").splitlines() == [
        "decode: the work of session r1",
        "the model, remotely",
    ]
    assert not (workspace.path / "model.txt").exists()  # the host clone was only the base
    # The bundle carried only what the host did not have: it needs the base.
    bundle = workspace.handback_repository / "decode-snapshot.bundle"
    header = bundle.read_bytes().split(b"\n\n", 1)[0].decode()
    assert f"-{workspace.base}" in header
    assert git(remote, "status", "--porcelain") == "M f0.txt"  # inside, the Workspace is as it was


def test_nothing_to_ship_remotely(source: Path, tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    workspace = open_workspace(tmp_path / "home", str(source), "r1")
    executor = remote_executor(workspace.path, tmp_path)

    result = asyncio.run(hand_back(workspace, executor))

    assert result.outcome is Outcome.NOTHING


def test_a_remote_workspace_without_git_fails_clearly(source: Path, tmp_path: Path) -> None:
    (tmp_path / "home").mkdir()
    workspace = open_workspace(tmp_path / "home", str(source), "r1")
    executor = remote_executor(workspace.path, tmp_path)
    shutil.rmtree(executor.workspace / ".git")
    (executor.workspace / ".git").mkdir()

    result = asyncio.run(hand_back(workspace, executor))

    assert result.outcome is Outcome.FAILED
    assert "could not snapshot the Workspace inside the sandbox" in result.error
    assert git(source, "branch", "--list", "decode/*") == ""
