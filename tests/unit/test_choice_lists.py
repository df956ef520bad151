"""Every list of Permission Modes and sandboxes a user can pick from is its enum's (`Mode`, `SandboxMode`).

The CLI's options are walked from the `decode` group down, so a new command or option that takes
`--permission-mode` or `--sandbox` is checked without being named here.
"""

from collections.abc import Iterator
from typing import get_args

import click

from decode.cli import _commands, cli
from decode.config.settings import Settings
from decode.permissions.modes import Mode
from decode.runtime.cli_options import CODEX_SANDBOXES
from decode.sandbox.modes import SandboxMode
from decode.tui.approvals import MODE_HELP
from decode.tui.asking import PLAN_MODES

MODES = [mode.value for mode in Mode]
SANDBOXES = [mode.value for mode in SandboxMode]


def commands() -> Iterator[tuple[str, click.Command]]:
    """Every command and subcommand of `decode`, by its full name."""
    context = click.Context(cli)
    stack = [(f"decode {name}", cli.get_command(context, name)) for name in _commands()]
    while stack:
        name, command = stack.pop()
        assert command is not None, name
        yield name, command
        if isinstance(command, click.Group):
            stack += [(f"{name} {sub}", command.commands[sub]) for sub in command.commands]


def options(name: str) -> list[tuple[str, click.Option]]:
    found = [("decode", param) for param in cli.params if isinstance(param, click.Option) and param.name == name]
    for command_name, command in commands():
        found += [(command_name, p) for p in command.params if isinstance(p, click.Option) and p.name == name]
    return found


def test_every_permission_mode_option_offers_the_modes() -> None:
    found = options("permission_mode") + options("mode")
    assert {where for where, _ in found} >= {"decode", "decode run", "decode remote run", "decode permissions"}
    for where, option in found:
        if isinstance(option.type, click.Choice):
            choices = list(option.type.choices)
            assert choices[: len(MODES)] == MODES, where
            assert all(Mode.parse(extra).value in MODES for extra in choices[len(MODES) :]), where  # Claude Code's
        else:  # parsed by `Mode.parse`, which takes Claude Code's spellings too: the help names them
            assert all(mode in (option.help or "") for mode in MODES), where


def test_every_sandbox_option_offers_the_sandboxes() -> None:
    """decode's sandboxes, then Codex's `--sandbox` values (each maps to a mode and a sandbox)."""
    found = options("sandbox")
    assert {where for where, _ in found} == {"decode", "decode run"}
    for where, option in found:
        assert isinstance(option.type, click.Choice), where
        assert list(option.type.choices) == [*SANDBOXES, *CODEX_SANDBOXES], where


def test_the_settings_take_the_same_sandboxes() -> None:
    assert list(get_args(Settings.model_fields["sandbox_mode"].annotation)) == SANDBOXES


def test_the_repl_explains_every_mode_and_its_keys_switch_to_modes() -> None:
    assert set(MODE_HELP) == set(MODES)
    assert set(PLAN_MODES.values()) <= set(MODES)
