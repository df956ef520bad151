"""Programs that launch a command their own way: the gate judges what they launch."""

from pathlib import Path

import pytest

from decode.permissions.commands import analyse_command
from decode.permissions.gate import PermissionGate
from decode.permissions.launchers import HIDDEN, Launch, launched
from decode.permissions.prefixes import command_prefix
from decode.permissions.rules import parse_rule
from decode.permissions.types import Decision, Mode
from decode.tools.catalog import default_tools

BASH = next(spec for spec in default_tools() if spec.name == "bash")


def gate_with(tmp_path: Path, *rules: str, mode: Mode = Mode.BYPASS) -> PermissionGate:
    parsed = [parse_rule(text, Decision(action)) for action, text in (rule.split(" ", 1) for rule in rules)]
    return PermissionGate(parsed, mode, workspace=tmp_path)


def launch(name: str, words: tuple[str, ...]) -> Launch:
    found = launched(name, words)
    assert found is not None
    return found


def test_what_each_launcher_runs() -> None:
    assert launch("git-push", ("git-push", "origin")).commands == [("git", "push", "origin")]
    assert launch("fd", ("fd", "-e", "py", "-x", "rm", "{}", ";", "x")).commands == [("rm", None)]
    assert launch("cmake", ("cmake", "-E", "remove_directory", "d")).commands == [("rm", "-r", "d")]
    assert launch("rsync", ("rsync", "-avze", "rm x", "a", "b")).scripts == ["rm x"]
    assert launch("wsl", ("wsl", "-d", "Ubuntu", "git", "push")).scripts == ["git push"]
    assert launch("at", ("at", "now")).reads_stdin
    assert not launch("at", ("at", "-l")).reads_stdin
    assert launched("tmux", ("tmux", "ls")) is None
    assert launched("ls", ("ls",)) is None


@pytest.mark.parametrize(
    "command",
    [
        "/usr/lib/git-core/git-reset --hard",
        "git-reset --hard HEAD~1",
        "git bisect run git reset --hard",
        "at now <<< 'git reset --hard'",
        "hyperfine -w 3 'git reset --hard'",
        "nix-shell -p git --run 'git reset --hard'",
        "start-stop-daemon -S -x /usr/bin/git -- reset --hard",
    ],
)
async def test_a_deny_sees_what_a_launcher_runs(tmp_path: Path, command: str) -> None:
    verdict = await gate_with(tmp_path, "deny Bash(git reset:*)").check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason


@pytest.mark.parametrize("command", ["tmux new -d 'ls'", "tmux send-keys ls Enter", "screen -X stuff ls"])
async def test_a_command_typed_into_a_terminal_is_denied_while_a_bash_deny_is_in_force(
    tmp_path: Path, command: str
) -> None:
    assert any(hazard.startswith(HIDDEN) for hazard in analyse_command(command).hazards)
    verdict = await gate_with(tmp_path, "deny Bash(git push:*)").check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.DENY, verdict.reason
    verdict = await gate_with(tmp_path, "allow Bash", mode=Mode.DEFAULT).check(
        "bash", {"command": command}, BASH.traits
    )
    assert verdict.decision is Decision.ASK, verdict.reason


@pytest.mark.parametrize("command", ["tmux ls", "screen -ls", "screen -r main", "git bisect good", "cmake --build ."])
async def test_what_launches_nothing_is_not_denied(tmp_path: Path, command: str) -> None:
    verdict = await gate_with(tmp_path, "deny Bash(git push:*)").check("bash", {"command": command}, BASH.traits)
    assert verdict.decision is Decision.ALLOW, verdict.reason


@pytest.mark.parametrize("command", ["at now", "hyperfine ls", "wsl ls", "nix-shell --run ls", "csh -c ls", "rc -c ls"])
def test_always_never_saves_a_launcher_or_a_foreign_shell_bare(command: str) -> None:
    assert command_prefix(tuple(command.split())) is None


def test_always_saves_a_fish_script_as_that_script() -> None:
    assert command_prefix(("fish", "build.fish")) == ("fish", "build.fish")
