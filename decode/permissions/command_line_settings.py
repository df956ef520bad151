"""The command-line settings layer: `--settings FILE_OR_JSON`, Claude Code's option, read once at start.

Claude Code's order, highest first: managed (organisation) settings, then the command line, then
the local project file, the shared project file, the user's file. decode has no managed settings,
so this layer is the highest: its `defaultMode` wins over every file's (only `--permission-mode`
wins over it), and its rules merge as every layer's do (a deny anywhere stands, then an ask, then
an allow). The user typed it, so it needs no Project Trust and may choose `bypass`, as the user's
own settings file may.

The value is a file (relative to the launch directory, `~` for the home directory) or, when it
starts with `{`, the JSON itself. The file is read with decode's safe reader (1 MiB at most, never
a FIFO or a device). Anything wrong with it, a deny or ask rule that cannot be read included, is
a `SettingsArgumentError` whose text is one line naming it: the front ends exit 2 before anything
starts. A broken settings *file* on disk is another matter (its last good copy stands in,
`settings_files`): nobody chose it for this run.
"""

from dataclasses import dataclass
from pathlib import Path

from decode.permissions.settings_json import BrokenFile, read_text

INLINE = Path("--settings")
"""What stands for the file of settings given as JSON on the command line (`--settings:3` names its line)."""


class SettingsArgumentError(ValueError):
    """`--settings` cannot be used; `str()` is one line naming the file (or `--settings`), the line, and why."""


@dataclass(frozen=True)
class CommandLineSettings:
    """What `--settings` gave: the file (or `INLINE`) and its text, read once and checked."""

    path: Path
    text: str


def read_command_line_settings(value: str, cwd: Path) -> CommandLineSettings:
    """`--settings VALUE` read and checked against the settings format; `SettingsArgumentError` if not usable."""
    if value.lstrip().startswith("{"):
        given = CommandLineSettings(INLINE, value)
    else:
        if not value.strip():
            raise SettingsArgumentError("--settings: give a settings file or a JSON object")
        path = cwd / Path(value).expanduser()
        try:
            text = read_text(path)
        except BrokenFile as broken:
            raise SettingsArgumentError(_where(path, broken)) from None
        if text is None:
            raise SettingsArgumentError(f"--settings {value}: no such file")
        given = CommandLineSettings(path, text)
    from decode.permissions.settings_files import interpret_settings
    from decode.permissions.types import Layer

    try:
        interpret_settings(Layer.COMMAND_LINE, given.path, given.text)
    except BrokenFile as broken:
        raise SettingsArgumentError(_where(given.path, broken)) from None
    return given


def _where(path: Path, broken: BrokenFile) -> str:
    shown = "--settings" if path == INLINE else f"--settings {path}"
    line = f" (line {broken.line})" if broken.line else ""
    return f"{shown}{line}: {broken.message}"
