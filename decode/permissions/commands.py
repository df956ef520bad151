"""What a bash command really runs, for the gate to judge.

`shell.py` finds the simple commands of a script; this module knows what some of them *mean*:

- wrappers run another command: `timeout 5 npm test` is judged as `npm test`, `/bin/rm` as `rm`
  when looking for a deny, `sudo rm -rf x` is denied by a deny on `rm` (but only an allow rule
  that names `sudo` allows it);
- `bash -c STRING`, `sh -c`, `eval` run a string as a script: the string is parsed and checked
  for denies, and the whole never runs without asking;
- a shell reading its script from a pipe, a here-string or a here-doc (`curl … | sh`) asks;
- `xargs CMD` runs CMD with arguments read at run time; `find -exec CMD ;` runs CMD too, and
  `find -delete` deletes: each part must be allowed on its own.

Every simple command becomes a `Check`: it runs without asking only if an allow rule matches one
of its `allow_forms`; a deny (or ask) rule matching any of its `block_forms` wins. Block forms
see through more disguises than allow forms: denying is broad, allowing is narrow.
"""

import posixpath
from dataclasses import dataclass

from decode.permissions.shell import Redirect, SimpleCommand, parse_script

Words = tuple[str | None, ...]

SHELLS = frozenset({"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "fish", "csh", "tcsh", "busybox"})
# Wrappers judged as the command they wrap, with the options that take a value.
_TRANSPARENT: dict[str, frozenset[str]] = {
    "env": frozenset({"-u", "--unset", "-C", "--chdir"}),
    "command": frozenset(),
    "builtin": frozenset(),
    "exec": frozenset({"-a"}),
    "nohup": frozenset(),
    "time": frozenset(),
    "nice": frozenset({"-n", "--adjustment"}),
    "timeout": frozenset({"-s", "--signal", "-k", "--kill-after"}),
    "stdbuf": frozenset({"-i", "-o", "-e", "--input", "--output", "--error"}),
}
# Wrappers that change who runs the command: a deny sees through them, an allow must name them.
_PRIVILEGED: dict[str, frozenset[str]] = {
    "sudo": frozenset({"-u", "-g", "-h", "-p", "-C", "-D", "-U", "-r", "-t", "-T"}),
    "doas": frozenset({"-u", "-C"}),
}
_WRAPPERS = _TRANSPARENT | _PRIVILEGED
_POSITIONALS = {"timeout": 1}  # `timeout DURATION CMD`
_XARGS_VALUED = frozenset({"-I", "-n", "-P", "-L", "-s", "-d", "-E", "-a", "-i", "-l"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_MAX_DEPTH = 4
_VARIABLES = "variables set for a command can change what it runs (LD_PRELOAD, PATH, GIT_*…)"


@dataclass(frozen=True)
class Check:
    """One command that must be allowed for the whole to run without asking."""

    text: str
    allow_forms: tuple[Words, ...]
    block_forms: tuple[Words, ...]


@dataclass(frozen=True)
class CommandAnalysis:
    """A bash command as the gate sees it: commands to check, files touched, reasons to ask."""

    checks: tuple[Check, ...]
    redirects: tuple[Redirect, ...]
    hazards: tuple[str, ...]


def analyse_command(script: str) -> CommandAnalysis:
    """Parse `script` and explain every command it would run (including `bash -c` strings)."""
    checks: list[Check] = []
    redirects: list[Redirect] = []
    hazards: list[str] = []
    _analyse(script, 0, checks, redirects, hazards)
    return CommandAnalysis(tuple(checks), tuple(redirects), tuple(dict.fromkeys(hazards)))


def _analyse(script: str, depth: int, checks: list[Check], redirects: list[Redirect], hazards: list[str]) -> None:
    if depth > _MAX_DEPTH:
        hazards.append("scripts nested too deep to follow")
        return
    parsed = parse_script(script)
    redirects.extend(parsed.redirects)
    hazards.extend(parsed.hazards)
    for command in parsed.commands:
        nested = _explain(command, checks, hazards)
        if nested is not None:
            _analyse(nested, depth + 1, checks, redirects, hazards)


def _explain(command: SimpleCommand, checks: list[Check], hazards: list[str]) -> str | None:
    """Add the checks and hazards of one simple command; return a script it runs from a string."""
    words = command.words
    if not words:
        return None
    if words[0] is None:
        hazards.append("the command's name is only known at run time")
    if command.sets_variables:
        hazards.append(_VARIABLES)
    allow_forms, block_forms, core = _unwrap(words, hazards)
    name = posixpath.basename(core[0]) if core and core[0] else None
    if name == "xargs":
        inner = _skip_options(core, 1, _XARGS_VALUED)
        if inner is None:
            hazards.append("cannot tell which command xargs runs")
        else:
            # xargs appends words read at run time: judged as its command with one unknown word
            # more, which a prefix rule (`Bash(wc:*)`) covers and an exact rule never does.
            inner_allow, inner_block, core = _unwrap(inner or ("echo",), hazards)
            allow_forms = (*allow_forms, *((*form, None) for form in inner_allow))
            block_forms = (*block_forms, *inner_block)
            name = posixpath.basename(core[0]) if core and core[0] else None
    checks.append(Check(command.text, allow_forms, block_forms))
    if name in SHELLS:
        return _shell(core, command.stdin_fed, hazards)
    if name == "eval":
        hazards.append("eval runs its arguments as a script")
        return _join(core[1:])
    if name == "find":
        _find(core, command.text, checks, hazards)
    return None


def _unwrap(words: Words, hazards: list[str]) -> tuple[tuple[Words, ...], tuple[Words, ...], Words]:
    """See through wrappers: (allow forms, block forms, the command that finally runs)."""
    allow_forms, block_forms = [words], [words, _basename(words)]
    core, transparent = words, True
    while core and core[0] is not None and (name := posixpath.basename(core[0])) in _WRAPPERS:
        if name == "env":
            if any(w is not None and w.startswith(("-S", "--split-string")) for w in core[1:]):
                hazards.append("env -S splits a string into a command")
            if any(w is not None and "=" in w and w.split("=", 1)[0].isidentifier() for w in core[1:]):
                hazards.append(_VARIABLES)
        transparent = transparent and name in _TRANSPARENT
        inner = _skip_options(core, 1, _WRAPPERS[name], env=name == "env")
        if inner is None:
            hazards.append(f"cannot tell which command {name} runs")
            break
        inner = inner[_POSITIONALS.get(name, 0) :]
        if not inner:
            break
        core = inner
        block_forms += [core, _basename(core)]
        if transparent:
            allow_forms.append(core)
    return tuple(dict.fromkeys(allow_forms)), tuple(dict.fromkeys(block_forms)), core


def _skip_options(words: Words, start: int, valued: frozenset[str], *, env: bool = False) -> Words | None:
    """The words after a command's options (None when an option is only known at run time)."""
    index = start
    while index < len(words):
        word = words[index]
        if word is None:
            return None
        if word == "--":
            return words[index + 1 :]
        if word.startswith("-") and len(word) > 1:
            index += 2 if word in valued else 1
        elif env and "=" in word and word.split("=", 1)[0].isidentifier():
            index += 1  # env NAME=VALUE (reported as a hazard by `_unwrap`)
        else:
            break
    return words[index:]


def _shell(core: Words, stdin_fed: bool, hazards: list[str]) -> str | None:
    """`bash -c STRING` runs STRING; a shell with no script file runs whatever it reads."""
    for index, word in enumerate(core[1:], start=1):
        if word is None:
            hazards.append("a shell with arguments only known at run time")
            return None
        if word.startswith("-") and not word.startswith("--") and "c" in word:
            hazards.append(f"{core[0]} -c runs a string as a script")
            rest = core[index + 1 :]
            return rest[0] if rest else None
        if not word.startswith(("-", "+")):
            return None  # `bash script.sh`: the script file is the command
    fed = "from a pipe, a here-string or a here-doc" if stdin_fed else "from its input"
    hazards.append(f"a shell running commands {fed}")
    return None


def _find(core: Words, text: str, checks: list[Check], hazards: list[str]) -> None:
    """`find -exec CMD {} ;` runs CMD on every file found; `-delete` deletes them."""
    for index, word in enumerate(core):
        if word == "-delete":
            hazards.append("find -delete removes files")
        elif word in _FIND_EXEC:
            end = next((i for i in range(index + 1, len(core)) if core[i] in (";", "+")), len(core))
            inner = tuple(None if w is None or "{}" in w else w for w in core[index + 1 : end])
            if inner:
                checks.append(Check(text, (inner,), (inner, _basename(inner))))


def _basename(words: Words) -> Words:
    """`/usr/bin/rm -rf x` → `rm -rf x`, the name a deny rule uses."""
    if not words or words[0] is None or "/" not in words[0]:
        return words
    return (posixpath.basename(words[0]), *words[1:])


def _join(words: Words) -> str | None:
    return None if any(w is None for w in words) else " ".join(w for w in words if w is not None)
