"""Programs that launch another command in a way of their own, for the gate to judge it.

`commands.py` sees through wrappers whose command is their last words (`sudo`, `timeout`). These
launch a command elsewhere: after an option (`fd -x rm`, `gdb --args`, `start-stop-daemon
--exec`), as a string given to a shell (`rsync -e STRING`, `nix-shell --run`, `hyperfine`), as
the script a scheduler reads (`at`), inside a terminal the gate cannot see (`tmux new`, `screen
-X`: a hazard, which asks and, with a Bash deny in force, is denied), or under another name
(`git-push`, `cmake -E rm`). Broad on purpose: what is found here only ever denies or asks.
"""

from dataclasses import dataclass, field

Words = tuple[str | None, ...]

# Subcommands of tmux that run a shell command or type keys into one.
_TMUX = frozenset(
    {"new", "new-session", "new-window", "neww", "split-window", "splitw", "send-keys", "send", "run-shell", "run"}
    | {"respawn-pane", "respawnp", "respawn-window", "respawnw", "if-shell", "if", "display-popup", "popup"}
    | {"pipe-pane", "pipep", "source-file", "source"}
)
HIDDEN = "a command runs inside a terminal decode cannot see"  # gate.py: denied while a Bash deny is in force


@dataclass
class Launch:
    """What a launcher runs: commands judged as written, scripts parsed as sh, reasons to ask."""

    commands: list[Words] = field(default_factory=list)
    scripts: list[str | None] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)
    reads_stdin: bool = False  # it runs the script it reads (`at now <<< 'git push'`)


def launched(name: str, words: Words) -> Launch | None:
    """What `words` (run as `name`) launches, or None if `name` launches nothing this module knows."""
    args = words[1:]
    if name.startswith("git-") and len(name) > 4:  # /usr/lib/git-core/git-push is `git push`
        return Launch([("git", name[4:], *args)])
    handler = _HANDLERS.get(name)
    return handler(args) if handler is not None else None


def _string(name: str, scripts: list[str | None]) -> Launch:
    return Launch(scripts=scripts, hazards=[f"{name} runs a string as a script"] if scripts else [])


def _after(args: Words, marks: tuple[str, ...]) -> Words | None:
    """The words after the first of `marks` (`gdb --args PROG…`), or None."""
    index = next((i for i, word in enumerate(args) if word in marks), None)
    return None if index is None else args[index + 1 :]


def _value(args: Words, short: str, longs: tuple[str, ...]) -> list[str | None]:
    """Every value of an option: `-e X`, `-eX`, `-ave X`, `--rsh X`, `--rsh=X`."""
    values: list[str | None] = []
    for index, word in enumerate(args):
        if word is None:
            continue
        following = args[index + 1] if index + 1 < len(args) else None
        if word in longs:
            values.append(following)
        elif word.startswith(tuple(f"{long}=" for long in longs)):
            values.append(word.partition("=")[2])
        elif short and word.startswith("-") and not word.startswith("--") and short in word:
            attached = word[word.index(short) + 1 :]
            values.append(attached or following)
    return values


def _git(args: Words) -> Launch | None:
    rest = _after(args, ("bisect",))
    if rest is not None and rest[:1] == ("run",):  # `git bisect run CMD`
        return Launch([rest[1:]], hazards=["git bisect run runs a command"])
    return None


def _fd(args: Words) -> Launch | None:
    rest = _after(args, ("-x", "--exec", "-X", "--exec-batch"))
    if rest is None:
        return None
    end = next((i for i, word in enumerate(rest) if word == ";"), len(rest))
    return Launch([tuple(None if w is None or "{" in w else w for w in rest[:end])])


def _tmux(args: Words) -> Launch | None:
    if any(word is None or word in _TMUX for word in args):
        return Launch(scripts=[None], hazards=[f"{HIDDEN} (tmux)"])
    return None


def _screen(args: Words) -> Launch | None:
    if any(w is None or w == "stuff" or (w.startswith("-") and not w.startswith("--") and "X" in w) for w in args):
        return Launch(scripts=[None], hazards=[f"{HIDDEN} (screen -X)"])
    return None


def _at(args: Words) -> Launch:
    """`at`/`batch` read a script from their input (or `-f FILE`, a script file, like `bash x.sh`)."""
    listing = any(w is not None and w.startswith(("-l", "-d", "-r", "-c", "-f")) for w in args)
    return Launch(reads_stdin=not listing)


def _entr(args: Words) -> Launch:
    options = [w for w in args if w is not None and w.startswith("-")]
    rest = args[len(options) :]
    if any("s" in option for option in options):  # `entr -s 'rm x'`: a string for $SHELL
        return _string("entr -s", [rest[0] if rest else None])
    return Launch([rest])


def _start_stop_daemon(args: Words) -> Launch:
    programs = _value(args, "x", ("--exec", "--startas")) + _value(args, "a", ("--startas",))
    after = _after(args, ("--",)) or ()
    return Launch([(program, *after) for program in programs])


def _gdb(args: Words) -> Launch | None:
    rest = _after(args, ("--args",))
    shells = [v for v in _value(args, "", ("-ex", "--eval-command", "-iex")) if v is None or v.startswith("shell ")]
    launch = _string("gdb", [None if v is None else v.removeprefix("shell ") for v in shells])
    launch.commands += [rest] if rest else []
    return launch if launch.commands or launch.scripts else None


def _cmake(args: Words) -> Launch | None:
    rest = _after(args, ("-E",))
    if not rest:
        return None
    tool, tail = rest[0], rest[1:]
    if tool in ("rm", "remove"):
        return Launch([("rm", *tail)])
    if tool == "remove_directory":
        return Launch([("rm", "-r", *tail)])
    if tool in ("time", "env"):  # `cmake -E env NAME=VALUE CMD`: judged from every word on
        return Launch([tail[i:] for i in range(len(tail))][:8])
    if tool == "chdir":
        return Launch([tail[1:]])
    return None


def _wsl(args: Words) -> Launch | None:
    rest = _after(args, ("-e", "--exec"))
    if rest is not None:
        return Launch([rest])
    if (rest := _after(args, ("--",))) is not None:
        return _string("wsl", [_join(rest)])
    index = 0
    while index < len(args) and (args[index] or "").startswith("-"):
        valued = args[index] in ("-d", "--distribution", "-u", "--user", "--cd", "--shell-type", "--distribution-id")
        index += 2 if valued else 1
    return _string("wsl", [_join(args[index:])]) if args[index:] else None


def _join(words: Words) -> str | None:
    return None if any(w is None for w in words) else " ".join(w for w in words if w is not None)


_HANDLERS = {
    "git": _git,
    "fd": _fd,
    "tmux": _tmux,
    "screen": _screen,
    "at": _at,
    "batch": _at,
    "rsync": lambda args: _string("rsync -e", _value(args, "e", ("--rsh",))) if _value(args, "e", ("--rsh",)) else None,
    "hyperfine": lambda args: _string("hyperfine", [w for w in args if w is None or not w.startswith("-")]),
    "nix-shell": lambda args: _string("nix-shell", _value(args, "", ("--run", "--command"))),
    "doppler": lambda args: _string("doppler", _value(args, "", ("--command",))),
    "entr": _entr,
    "start-stop-daemon": _start_stop_daemon,
    "gdb": _gdb,
    "cmake": _cmake,
    "wsl": _wsl,
}
# Programs that launch commands: a prefix rule on one (`Bash(at:*)`) would allow anything (prefixes.py).
LAUNCHERS = frozenset(_HANDLERS) - {"git"}
# GNU tools under their Homebrew names, and fd under Debian's.
ALIASES = {"gtimeout": "timeout", "gxargs": "xargs", "gfind": "find", "genv": "env", "fdfind": "fd"}
