"""The built-in read-only list: what the gate lets run in default mode when no rule allows it."""

import os
from pathlib import Path

import pytest

from decode.permissions.gate import PermissionGate
from decode.permissions.readonly import ReadOnly, judge
from decode.permissions.types import Decision, Mode
from decode.processes.local import local_realpath
from decode.tools.bash import BASH


async def decide(gate: PermissionGate, command: str) -> Decision:
    return (await gate.check("bash", {"command": command}, BASH.traits)).decision


@pytest.mark.parametrize(
    ("words", "paths"),
    [
        (("cat", "a", "-n", "b"), ("a", "b")),
        (("tail", "-n", "5", "x"), ("x",)),
        (("git", "log", "--since=2.weeks", "--", "src"), ("2.weeks", "src")),
        (("grep", "-fpats", "x"), ("pats", "x")),
        (("find", ".", "-newer", "ref", "-name", "*.py"), (".", "ref")),
        (("rg", "-e", "x", "f"), ("f",)),
    ],
)
def test_the_words_the_gate_checks_are_the_files(words: tuple[str, ...], paths: tuple[str, ...]) -> None:
    found = judge(words)
    assert isinstance(found, ReadOnly)
    assert found.paths == paths


@pytest.mark.parametrize(
    "words",
    [("echo", "x"), ("git",), ("git", "push"), ("sudo", "ls"), ("/bin/ls",)],
)
def test_commands_off_the_list_are_not_judged(words: tuple[str, ...]) -> None:
    assert judge(words) is None or isinstance(judge(words), str)
    assert not isinstance(judge(words), ReadOnly)


async def test_git_asks_where_the_project_could_pass_for_a_bare_repository(tmp_path: Path) -> None:
    """`HEAD`, `objects/`, `refs/` and a `config` written in the project make git read that config
    (`diff.external`, `gpg.program`…): every git command of the list asks then."""
    gate = PermissionGate([], Mode.DEFAULT, workspace=tmp_path)
    assert await decide(gate, "git diff HEAD~1") is Decision.ALLOW
    (tmp_path / "HEAD").write_text("ref: refs/heads/main\n", encoding="utf-8")
    assert await decide(gate, "git diff HEAD~1") is Decision.ASK
    assert await decide(gate, "git log") is Decision.ASK
    assert await decide(gate, "ls") is Decision.ALLOW


async def test_another_executor_gets_no_folder_or_git_guesses(tmp_path: Path) -> None:
    """Resolving through an executor (not the local one), the gate cannot look: rg and git ask."""

    async def realpath(path: Path) -> Path:
        return await local_realpath(path)

    gate = PermissionGate([], Mode.DEFAULT, workspace=tmp_path, realpath=realpath)
    (tmp_path / "a.py").write_text("x\n", encoding="utf-8")
    assert await decide(gate, "cat a.py") is Decision.ALLOW
    assert await decide(gate, "rg x a.py") is Decision.ASK
    assert await decide(gate, "git status") is Decision.ASK


@pytest.mark.parametrize("mode", [Mode.DEFAULT, Mode.ACCEPT_EDITS])
async def test_the_list_holds_in_default_and_accept_edits(tmp_path: Path, mode: Mode) -> None:
    gate = PermissionGate([], mode, workspace=tmp_path)
    assert await decide(gate, "ls -la && pwd") is Decision.ALLOW
    assert await decide(gate, "ls; touch x") is Decision.ASK


async def test_plan_mode_still_refuses_bash(tmp_path: Path) -> None:
    assert await decide(PermissionGate([], Mode.PLAN, workspace=tmp_path), "ls") is Decision.DENY


async def test_a_fifo_or_device_in_the_project_asks(tmp_path: Path) -> None:
    """`cat pipe` would wait for a writer until the time-out (a tarball can ship a FIFO): it asks."""
    os.mkfifo(tmp_path / "pipe")
    (tmp_path / "zero").symlink_to("/dev/zero")
    gate = PermissionGate([], Mode.DEFAULT, workspace=tmp_path)
    verdict = await gate.check("bash", {"command": "cat pipe"}, BASH.traits)
    assert verdict.decision is Decision.ASK
    assert "cat reads pipe, a FIFO or device: the read may never end" in verdict.reason
    assert await decide(gate, "head -c 1 zero") is Decision.ASK  # a link out of the project, to a device
    (tmp_path / "a.txt").write_text("x\n", encoding="utf-8")
    assert await decide(gate, "cat a.txt && ls") is Decision.ALLOW
