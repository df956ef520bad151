"""What a bash command really runs, for the gate to judge.


`shell.py` finds the simple commands of a script; this module knows what some of them *mean*:

- wrappers run another command: `timeout 5 npm test` is judged as `npm test`, `/bin/rm` as `rm`
  when looking for a deny, `sudo rm -rf x` is denied by a deny on `rm` (but only an allow rule
  that names `sudo` allows it). The wrappers are a closed table (`wrappers.WRAPPERS`), each with
  the options that take a value; an option the table does not know is read both ways (taking a
  value and not), so a deny cannot be skipped by an unusual option;
- `bash -c STRING`, `sh -c`, `eval`, `trap`, `su -c`, `watch`, `ssh host …` run a string as a
  script (`string_runners`): the string is parsed and checked for denies, and the whole never
  runs without asking;
- a shell reading its script from a here-doc, a here-string or `echo … |` runs that text (it is
  checked for denies too); from anywhere else (`curl … | sh`) it runs something unknown;
- `xargs CMD` runs CMD with arguments read at run time; `find -exec CMD ;` runs CMD too, and
  `find -delete` deletes: each part must be allowed on its own; `set -k`, `git -c` change what
  runs (`risky_options`).

Every simple command becomes a `Check`: it runs without asking only if an allow rule matches one
of its `allow_forms`; a deny (or ask) rule matching any of its `block_forms` wins. Block forms
see through more disguises than allow forms: denying is broad, allowing is narrow. Where a
command could not be known at all, the analysis is `opaque`: every Bash deny rule then asks.
"""

import posixpath
from dataclasses import dataclass, field

from decode.permissions.command_reading import VARIABLES, Check, CommandAnalysis, Found, Words
from decode.permissions.foreign_shells import FOREIGN, FOREIGN_SHELLS, is_foreign_shell, program_name, runs_a_string
from decode.permissions.launchers import ALIASES, launched
from decode.permissions.risky_options import git_config, replace_string, replaced, risky_set
from decode.permissions.script_reading import read_script
from decode.permissions.shell_glob import Glob, glob_matches
from decode.permissions.shell_script import ARITHMETIC, SETS_VARIABLES, Redirect, SimpleCommand, quiet_name
from decode.permissions.string_runners import (
    SHELL_NAME,
    SHELLS,
    STDIN_FILES,
    STRING_RUNNERS,
    shell,
    shell_flag,
    stdin_script,
    string_runner,
)
from decode.permissions.subcommands import GLOBAL_OPTIONS, drop_toolchain
from decode.permissions.wrappers import GLOBALS, TWO_WORD_WRAPPERS, WRAPPERS, XARGS, wrapped

__all__ = ["SHELLS", "Check", "CommandAnalysis", "Words", "analyse_command"]

_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_MAX_DEPTH = 4  # scripts inside scripts (`bash -c "bash -c '…'"`)
_MAX_UNWRAP = 8  # wrappers inside wrappers (`sudo nice timeout 5 …`)
_UNKNOWN_NAME = "the command's name is only known at run time"
_KNOWN = frozenset(
    {*WRAPPERS, *SHELLS, *STRING_RUNNERS, *GLOBAL_OPTIONS, *FOREIGN_SHELLS, "xargs", "find", "source", "."}
)


@dataclass
class _Out:
    checks: list[Check] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)
    files: list[str] = field(default_factory=list)
    opaque: bool = False


def analyse_command(script: str) -> CommandAnalysis:
    """Parse `script` and explain every command it would run (including `bash -c` strings)."""
    out = _Out()
    _analyse(script, 0, out)
    return CommandAnalysis(
        tuple(dict.fromkeys(out.checks)),
        tuple(dict.fromkeys(out.redirects)),
        tuple(dict.fromkeys(out.hazards)),
        out.opaque,
        tuple(dict.fromkeys(out.files)),
    )


def _analyse(script: str, depth: int, out: _Out) -> None:
    if depth > _MAX_DEPTH:
        out.hazards.append("scripts nested too deep to follow")
        out.opaque = True
        return
    parsed = read_script(script)
    out.redirects.extend(parsed.redirects)
    out.hazards.extend(parsed.hazards)
    out.opaque = out.opaque or parsed.opaque
    for command in parsed.commands:
        for nested in _explain(command, out):
            if nested is None:
                out.opaque = True
            else:
                _analyse(nested, depth + 1, out)


def _explain(command: SimpleCommand, out: _Out) -> list[str | None]:
    """Add the checks and hazards of one simple command; return the scripts it runs (None: unknown)."""
    words = command.words
    if not words:
        return []
    if command.sets_variables:
        out.hazards.append(VARIABLES)
    out.files.extend(command.files)
    if words[0] is not None and _base(words[0]) in ("xargs", "gxargs") and command.stdin_text is not None:
        out.files.extend(command.stdin_text.split())  # `xargs cat <<< .env` names .env, as `echo .env |` does
    scripts: list[str | None] = []
    extra: list[Check] = []
    block: list[Words] = []
    stdin = command.stdin_text if command.stdin_text is not None else command.stdin_fed
    for form in (words, *command.alternatives):
        _block_forms(form, stdin, Found(block, scripts, out.hazards, extra), 0)
    out.checks.append(Check(command.text, tuple(dict.fromkeys(_allow_forms(words))), tuple(dict.fromkeys(block))))
    out.checks.extend(extra)
    return scripts


def _block_forms(words: Words, stdin: bool | str, found: Found, level: int) -> None:
    """Every form of `words` a deny rule should see, through wrappers, shells and runners."""
    if not words:
        return
    found.forms += [words, _basename(words)]
    first = words[0]
    if first is None or isinstance(first, Glob):
        found.hazards.append(_UNKNOWN_NAME)
    if first is None:
        return
    if level > _MAX_UNWRAP:
        found.hazards.append("wrappers nested too deep to follow")
        found.scripts.append(None)
        return
    name = _base(first)
    names = [name]
    if isinstance(first, Glob):  # `sud? rm`: it could be sudo, so it could run rm
        if glob_matches(name, "any-name"):  # `*`: one of each kind of runner stands for them all
            names += ["busybox", "bash", "eval", "xargs", "find", "su"]
        else:
            names += [known for known in _KNOWN if glob_matches(name, known)]
    for name in names:
        for inner in _inner(name, words, stdin, found):
            _block_forms(inner, stdin, found, level + 1)


def _inner(name: str, words: Words, stdin: bool | str, found: Found) -> list[Words]:
    """The commands `words` (named `name`) runs directly; scripts it runs go to `found`."""
    name = ALIASES.get(program_name(name), program_name(name))  # `bash.exe`, `gtimeout`: bash, timeout
    launch = launched(name, words)
    if launch is not None and (launch.commands or launch.scripts or launch.reads_stdin):
        found.hazards.extend(launch.hazards)
        found.scripts.extend(launch.scripts)
        if launch.reads_stdin:
            stdin_script(stdin, found, None)
        return launch.commands
    if len(words) > 1 and (runner := TWO_WORD_WRAPPERS.get((name, words[1] or ""))) is not None:
        return wrapped(words[1:], runner, name, found)
    if name in WRAPPERS:
        cores = wrapped(words, WRAPPERS[name], name, found)
        if name in ("sudo", "doas", "chroot") and () in cores and (name == "chroot" or shell_flag(words)):
            stdin_script(stdin, found, None)  # `sudo -s`, `chroot DIR`: a shell reading its input
        return cores
    if name == "xargs":
        cores = [replaced(core, replace_string(words)) for core in wrapped(words, XARGS, name, found)]
        return [form for core in cores for form in ((core or ("echo",)), (*(core or ("echo",)), None))]
    if is_foreign_shell(name):
        if runs_a_string(words):  # `pwsh -c …`: nothing to parse; a Bash deny in force denies it (gate.py)
            found.hazards.append(f"{FOREIGN} ({name})")
            found.scripts.append(None)
    elif name in SHELLS or SHELL_NAME.fullmatch(name):
        shell(words, stdin, found)
    elif name in STRING_RUNNERS:
        return string_runner(name, words, stdin, found)
    elif name in ("source", "."):
        target = words[1] if len(words) > 1 else None
        if target is None or target in STDIN_FILES:
            stdin_script(stdin if target is not None else False, found, name)
    elif name == "find":
        _find(words, found)
    elif name in ("test", "[") and any(w in ("-v", "-R") for w in words):
        found.hazards.append(ARITHMETIC)  # `test -v 'a[$(id)]'` runs `id`
        found.scripts.append(None)
    elif name == "let":
        found.hazards.append(ARITHMETIC)
        found.scripts.append(None)
    elif (
        name in ("shopt", "enable", "alias")
        or (name == "hash" and "-p" in words)
        or (name == "set" and risky_set(words))
    ):
        # expand_aliases, dotglob, `hash -p /bin/rm ls`, `set -k`: what later commands run changes
        found.hazards.append(f"{name} changes how later commands run")
        found.scripts.append(None)
    elif name == "git":
        git_config(words, found)
    elif name in ("read", "mapfile", "readarray", "getopts") or (
        name in ("printf", "wait") and any(w is not None and w.startswith(("-v", "-p")) for w in words[1:])
    ):
        found.hazards.append(SETS_VARIABLES)
        if not all(w is not None and (w.startswith("-") or quiet_name(w)) for w in words[1:]):
            found.scripts.append(None)  # `read 'a[$(id)]'`, `printf -v PATH …`: code or the environment
    return _subcommand(name, words)


def _subcommand(name: str, words: Words) -> list[Words]:
    """`git -C x push` → `git push`: the command without the program's global options (subcommands.py)."""
    spec = GLOBALS.get(name)
    if spec is None or len(words) < 2:
        return []
    bare = drop_toolchain(words)
    cores = wrapped(bare, spec, name, Found([], [], [], []))  # a word known at run time: matched as None
    return [(words[0], *core) for core in cores if core and core != words[1:]]


def _allow_forms(words: Words) -> list[Words]:
    """The command as written, and inside transparent wrappers or xargs (each read one way only)."""
    forms = [words]
    first = words[0] if words else None
    if first is None or isinstance(first, Glob):
        return forms
    name = posixpath.basename(first)
    found = Found([], [], [], [])
    if name in WRAPPERS and WRAPPERS[name].transparent:
        cores = wrapped(words, WRAPPERS[name], name, found)
        if len(cores) == 1 and cores[0]:
            forms += _allow_forms(cores[0])
    elif name == "xargs":
        cores = wrapped(words, XARGS, name, found)
        if len(cores) == 1:
            # xargs appends words read at run time: judged as its command with one unknown word
            # more, which a prefix rule (`Bash(wc:*)`) covers and an exact rule never does.
            forms += [(*form, None) for form in _allow_forms(cores[0] or ("echo",))]
    return forms


def _find(words: Words, found: Found) -> None:
    """`find -exec CMD {} ;` runs CMD on every file found; `-delete` deletes them."""
    for index, word in enumerate(words):
        if word == "-delete":
            found.hazards.append("find -delete removes files")
        elif word in _FIND_WRITES:
            found.hazards.append(f"find {word} writes a file")
        elif word in _FIND_EXEC:
            end = next((i for i in range(index + 1, len(words)) if words[i] in (";", "+")), len(words))
            inner = tuple(None if w is None or "{}" in w else w for w in words[index + 1 : end])
            if inner:
                nested = Found([], found.scripts, found.hazards, found.checks)
                _block_forms(inner, False, nested, 1)
                found.checks.append(
                    Check(" ".join(w or "{}" for w in inner), (inner,), tuple(dict.fromkeys(nested.forms)))
                )


def _base(word: str) -> str:
    """A command word's program name: `/usr/bin/rm` → `rm` (a pattern stays a pattern)."""
    name = posixpath.basename(word)
    return Glob(name) if isinstance(word, Glob) else name


def _basename(words: Words) -> Words:
    """`/usr/bin/rm -rf x` → `rm -rf x`, the name a deny rule uses."""
    if not words or words[0] is None or "/" not in words[0]:
        return words
    return (_base(words[0]), *words[1:])
