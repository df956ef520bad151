"""What reading a shell script yields: its simple commands, redirections and hazards, and the limits.

`parse_script` (`decode.permissions.shell`) returns a `ShellScript`: every `SimpleCommand` the
script would run, every `Redirect` it makes, and the *hazards* that make it unpredictable (the
gate shows them to the user as the reason it asks).
"""

from dataclasses import dataclass, field

Words = tuple[str | None, ...]
Fed = bool | str  # a command's stdin: not fed, fed from somewhere unknown, or fed this text

MAX_SCRIPT = 100_000  # characters; a longer script is not parsed (it asks)
MAX_DEPTH = 150  # syntax-tree levels; deeper nesting is not followed (it asks)
MAX_SUBSTITUTIONS = 32  # `$(…)`, backticks, `<(…)`: a script with more is not followed (it asks)
MAX_COMMANDS = 200  # simple commands followed in one script; past them it asks

# Hazards (the gate shows them to the user as the reason to ask).
UNREADABLE = "the shell parser cannot read all of it"
SUBSTITUTION = "command substitution ($(…) or backticks) runs a command to build another"
PROCESS_SUBSTITUTION = "process substitution (<(…) or >(…)) runs a hidden command"
ARITHMETIC = "arithmetic ($((…)), ((…)), let, [[ … -eq … ]]) can run commands hidden in array subscripts"
SETS_VARIABLES = (
    "the script sets variables (x=…, for x in, read, export, declare…), which can change what later commands do"
)
EXPANSION = "a parameter expansion that can run code or set variables (${x@P}, ${!x}, ${x:=…}, ${a[i]}, ${x:i})"
TOO_DEEP = "nested too deep to check"
TOO_LONG = f"longer than {MAX_SCRIPT} characters, too long to check"
PLACEHOLDER = "holds U+E000 or U+E001, characters the permission checker uses for { and [ while it reads"
TOO_LARGE = f"more than {MAX_COMMANDS} commands or {MAX_SUBSTITUTIONS} substitutions, too many to check"
UNKNOWN_SYNTAX = "a shell construct the permission checker does not know"
NETWORK = "a redirection to /dev/tcp or /dev/udp opens a network connection"


@dataclass(frozen=True)
class SimpleCommand:
    """One command the shell will run: its words (None where known only at run time)."""

    words: Words
    text: str
    stdin_fed: bool = False  # its input comes from a pipe, a here-string, a here-doc or `<`
    sets_variables: bool = False  # `FOO=1 cmd`: the variables may change what cmd does
    stdin_text: str | None = field(default=None, repr=False)
    """What it reads on stdin when the script says (a here-doc, a here-string, `echo … |`)."""
    alternatives: tuple[Words, ...] = field(default=(), repr=False)
    """The words after brace expansion (`{rm,x} y` is `rm x y`), when the command has braces."""
    files: tuple[str, ...] = field(default=(), repr=False)
    """Words that may name files, as paths (`~` the home folder; relative to the workspace;
    `$X` left in where only run time knows): the gate checks them for secret files."""

    @property
    def name(self) -> str | None:
        return self.words[0] if self.words else None


@dataclass(frozen=True)
class Redirect:
    """A file a redirection touches; `target` is None when it is only known at run time."""

    target: str | None
    writes: bool


@dataclass(frozen=True)
class ShellScript:
    """Everything a script would run and touch, and what makes it unpredictable."""

    commands: tuple[SimpleCommand, ...]
    redirects: tuple[Redirect, ...] = ()
    hazards: tuple[str, ...] = ()
    opaque: bool = field(default=False, repr=False)
    """Part of it could not be followed at all: it may run any command (a deny rule asks)."""


def quiet_name(name: str) -> bool:
    """A lower-case shell variable (`f`, `file_1`): not one programs read from the environment
    (`PATH`, `HOME`, `LD_PRELOAD`, `GIT_DIR`…), and not an array element (`a[i]`, arithmetic)."""
    return name.isidentifier() and name.islower()
