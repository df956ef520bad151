"""The `--add-dir` step: the folders reach the executor, the gate and a bwrap sandbox; docker refuses."""

from pathlib import Path

import pytest

from decode.agent.build import Build
from decode.agent.options import LoopOptions
from decode.agent.steps.added_dirs import add_dirs
from decode.config.settings import Settings
from decode.context.session import Session
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
    b.session = Session.start(tmp_path, model="test")  # its file appears with the first turn
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
    assert b.session.add_dirs == [str(other)]  # kept with each turn, for `--resume`


def test_docker_refuses_with_one_line(tmp_path: Path) -> None:
    backend = DockerBackend(tmp_path, Settings(_env_file=None))  # type: ignore[call-arg]
    b = build(tmp_path, SandboxExecutor(backend, env={}), tmp_path / "other")
    with pytest.raises(SandboxError, match=r"^--add-dir cannot be used with --sandbox docker yet") as raised:
        add_dirs(b)
    assert "\n" not in str(raised.value)
    assert b.executor.more_roots == ()


def conversation(executor: object, gate: PermissionGate) -> object:
    """What `add_dir_now` reads of a built conversation: its executor, its gate and its session."""
    from types import SimpleNamespace

    session = SimpleNamespace(add_dirs=[])
    return SimpleNamespace(loop=SimpleNamespace(deps=SimpleNamespace(executor=executor)), gate=gate, session=session)


def test_a_folder_added_later_reaches_the_executor_and_the_gate_once(tmp_path: Path) -> None:
    from decode.agent.steps.added_dirs import add_dir_now, added_dir

    (tmp_path / "ws").mkdir()
    (tmp_path / "other").mkdir()
    executor, gate = LocalExecutor(tmp_path / "ws"), PermissionGate(workspace=tmp_path / "ws")
    folder = added_dir("../other", tmp_path / "ws", "/add-dir")
    assert folder == (tmp_path / "other").resolve()
    built = conversation(executor, gate)
    assert add_dir_now(built, folder)  # type: ignore[arg-type]
    assert (executor.more_roots, gate.more_roots) == ((folder,), (str(folder),))
    assert built.session.add_dirs == [str(folder)]  # type: ignore[attr-defined]  # saved with the next turn
    assert not add_dir_now(conversation(executor, gate), folder)  # type: ignore[arg-type]
    assert executor.more_roots == (folder,)


def test_a_folder_that_cannot_be_added_is_one_line(tmp_path: Path) -> None:
    from decode.agent.steps.added_dirs import AddDirError, add_dir_now, added_dir

    (tmp_path / "file.txt").write_text("x")
    for value, said in (("nowhere", "no such directory"), ("file.txt", "not a directory"), ("/", "refused")):
        with pytest.raises(AddDirError, match=f"^/add-dir {value}: {said}"):
            added_dir(value, tmp_path, "/add-dir")
    backend = BwrapBackend(tmp_path, Settings(_env_file=None))  # type: ignore[call-arg]
    sandboxed = conversation(SandboxExecutor(backend, env={}), PermissionGate(workspace=tmp_path))
    with pytest.raises(AddDirError, match="running bwrap sandbox"):
        add_dir_now(sandboxed, tmp_path)  # type: ignore[arg-type]


def test_a_resumed_sessions_folders_come_back_unless_the_repository_brought_its_log(tmp_path: Path) -> None:
    from dataclasses import replace

    other = tmp_path / "other"
    other.mkdir()
    for planted, expected in ((False, (other,)), (True, ())):
        b = build(tmp_path, LocalExecutor(tmp_path))
        b.options = replace(b.options, resume="")
        b.session.add_dirs = [str(other)]  # what the resumed log's latest turn ran with
        b.planted = planted
        add_dirs(b)
        assert b.executor.more_roots == expected
        assert b.gate.problems == []
