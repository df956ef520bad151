"""The `--add-dir` step: the folders reach the executor, the gate and a bwrap sandbox; docker refuses."""

from pathlib import Path

import pytest

from decode.agent.build import Build
from decode.agent.options import LoopOptions
from decode.agent.steps.added_dirs import add_dirs
from decode.config.settings import Settings
from decode.permissions.gate import PermissionGate
from decode.processes.local import LocalExecutor
from decode.sandbox.bwrap import BwrapBackend
from decode.sandbox.docker import DockerBackend
from decode.sandbox.executor import SandboxExecutor
from decode.sandbox.types import SandboxError


def build(tmp_path: Path, executor: object, *folders: Path) -> Build:
    b = Build(LoopOptions(home=tmp_path, add_dirs=folders), Settings(_env_file=None))  # type: ignore[call-arg]
    b.executor = executor  # type: ignore[assignment]
    b.gate = PermissionGate(workspace=tmp_path)
    return b


def test_no_folder_changes_nothing(tmp_path: Path) -> None:
    b = build(tmp_path, LocalExecutor(tmp_path))
    add_dirs(b)
    assert (b.executor.more_roots, b.gate.more_roots) == ((), ())


def test_the_folders_reach_the_executor_the_gate_and_bwrap(tmp_path: Path) -> None:
    other = tmp_path / "other"
    backend = BwrapBackend(tmp_path, Settings(_env_file=None))  # type: ignore[call-arg]
    b = build(tmp_path, SandboxExecutor(backend, env={}), other)
    add_dirs(b)
    assert b.executor.more_roots == (other,)
    assert b.gate.more_roots == (str(other),)
    assert backend.added == (other,)


def test_docker_refuses_with_one_line(tmp_path: Path) -> None:
    backend = DockerBackend(tmp_path, Settings(_env_file=None))  # type: ignore[call-arg]
    b = build(tmp_path, SandboxExecutor(backend, env={}), tmp_path / "other")
    with pytest.raises(SandboxError, match=r"^--add-dir cannot be used with --sandbox docker yet") as raised:
        add_dirs(b)
    assert "\n" not in str(raised.value)
    assert b.executor.more_roots == ()
