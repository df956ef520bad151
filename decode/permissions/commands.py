"""What a bash command really runs, for the gate to judge.

`shell.py` finds the simple commands of a script; this module knows what some of them *mean*:

- wrappers run another command: `timeout 5 npm test` is judged as `npm test`, `/bin/rm` as `rm`
  when looking for a deny, `sudo rm -rf x` is denied by a deny on `rm` (but only an allow rule
  that names `sudo` allows it). The wrappers are a closed table (`_WRAPPERS`), each with the
  options that take a value; an option the table does not know is read both ways (taking a
  value and not), so a deny cannot be skipped by an unusual option;
- `bash -c STRING`, `sh -c`, `eval`, `trap`, `su -c`, `watch`, `ssh host …` run a string as a
  script: the string is parsed and checked for denies, and the whole never runs without asking;
- a shell reading its script from a here-doc, a here-string or `echo … |` runs that text (it is
  checked for denies too); from anywhere else (`curl … | sh`) it runs something unknown;
- `xargs CMD` runs CMD with arguments read at run time; `find -exec CMD ;` runs CMD too, and
  `find -delete` deletes: each part must be allowed on its own.

Every simple command becomes a `Check`: it runs without asking only if an allow rule matches one
of its `allow_forms`; a deny (or ask) rule matching any of its `block_forms` wins. Block forms
see through more disguises than allow forms: denying is broad, allowing is narrow. Where a
command could not be known at all, the analysis is `opaque`: every Bash deny rule then asks.
"""

import posixpath
import re
from dataclasses import dataclass, field

from decode.permissions.foreign_shells import FOREIGN, FOREIGN_SHELLS, is_foreign_shell, program_name, runs_a_string
from decode.permissions.launchers import ALIASES, launched
from decode.permissions.shell import (
    ARITHMETIC,
    SETS_VARIABLES,
    Glob,
    Redirect,
    SimpleCommand,
    glob_matches,
    parse_script,
    quiet_name,
)
from decode.permissions.subcommands import GLOBAL_OPTIONS, drop_toolchain

Words = tuple[str | None, ...]

SHELLS = frozenset(
    {"sh", "bash", "zsh", "dash", "ksh", "mksh", "ash", "rbash", "yash"}
    | {"hush", "sash", "osh", "loksh", "pdksh", "posh"}  # busybox's, standalone, oils', BSD's, Debian's
)
_SHELL_NAME = re.compile(r"(?:ba|da|z|k|mk|a|rba|ya|lk|po|o?k|pdk|hu|sa|lok)?sh[0-9.]*|ksh93")
_STDIN_FILES = frozenset({"-", "/dev/stdin", "/dev/fd/0", "/proc/self/fd/0"})
_FIND_EXEC = frozenset({"-exec", "-execdir", "-ok", "-okdir"})
_FIND_WRITES = frozenset({"-fprint", "-fprint0", "-fprintf", "-fls"})
_MAX_DEPTH = 4  # scripts inside scripts (`bash -c "bash -c '…'"`)
_MAX_UNWRAP = 8  # wrappers inside wrappers (`sudo nice timeout 5 …`)
_VARIABLES = "variables set for a command can change what it runs (LD_PRELOAD, PATH, GIT_*…)"
_UNKNOWN_NAME = "the command's name is only known at run time"
_EVERY_LETTER = "abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789"


@dataclass(frozen=True)
class _Wrapper:
    """How a wrapper's command line reads: `WRAPPER [options] [positionals] COMMAND…`."""

    valued: str = ""  # short options that take a value (`-u root`, `-uroot`)
    long_valued: frozenset[str] = frozenset()  # long options that take one (`--user root`)
    flags: str = ""  # short options known to take none; any other letter is read both ways
    long_flags: frozenset[str] = frozenset()
    positionals: int = 0  # words between the options and the command (`timeout DURATION`)
    transparent: bool = False  # an allow rule on the wrapped command covers it
    quiet: frozenset[str] = frozenset()  # options after which nothing runs (`command -v`)
    loose: bool = False  # options with several values (`bwrap --bind A B`): any later word may be the command


def _w(
    valued: str = "",
    long_valued: str = "",
    flags: str = "",
    long_flags: str = "",
    *,
    positionals: int = 0,
    transparent: bool = False,
    quiet: str = "",
    loose: bool = False,
) -> _Wrapper:
    """A `_Wrapper`, its long options written as one string: `_w("u", "--user", "E", "--login")`."""
    return _Wrapper(
        valued,
        frozenset(long_valued.split()),
        flags,
        frozenset(long_flags.split()),
        positionals,
        transparent,
        frozenset(quiet.split()),
        loose,
    )


# Wrappers judged as the command they wrap (transparent ones for allows too).
_WRAPPERS: dict[str, _Wrapper] = {
    "env": _w("uCS", "--unset --chdir --split-string", "i0v", "--ignore-environment --null --debug", transparent=True),
    "command": _w(flags="pvV", transparent=True, quiet="-v -V"),
    "builtin": _w(transparent=True),
    "exec": _w("a", flags="cl", transparent=True),
    "nohup": _w(transparent=True),
    "time": _w("fo", "--format --output", "apqv", "--append --portability --quiet --verbose", transparent=True),
    "nice": _w("n", "--adjustment", "0123456789", transparent=True),
    "timeout": _w(
        "sk", "--signal --kill-after", "v", "--preserve-status --foreground --verbose", positionals=1, transparent=True
    ),
    "stdbuf": _w("ioe", "--input --output --error", transparent=True),
    # These change who runs the command, or how: a deny sees through them, an allow must name them.
    "sudo": _w(
        "ughpCDUrtTR",
        "--user --group --host --prompt --close-from --chdir --other-user --role --type --command-timeout --chroot",
        "AbEeHiKklnPSsVv",
        "--askpass --background --preserve-env --edit --set-home --login --remove-timestamp --reset-timestamp "
        "--list --non-interactive --preserve-groups --stdin --shell --validate --version --help",
    ),
    "doas": _w("uC", flags="nsL"),
    "pkexec": _w(long_valued="--user", long_flags="--disable-internal-agent --keep-cwd"),
    "coproc": _w(),
    "setsid": _w(flags="cfw", long_flags="--ctty --fork --wait"),
    "ionice": _w("cnpPu", "--class --classdata --pid --pgid --uid", "th", "--ignore"),
    "taskset": _w(flags="apc", long_flags="--all-tasks --pid --cpu-list", positionals=1),
    "chrt": _w("TPD", "--sched-runtime --sched-period --sched-deadline", "abdefiomprRv", positionals=1),
    "strace": _w(
        "abeEIOopPsSuUX",
        "--trace --signal --status --output --attach --string-limit --user --env",
        "cCdDfFhiknqrtTvVwxyzZ",
    ),
    "ltrace": _w("aAeFlnopsuxX", "--output --library", "bcCdfhiLrStTV"),
    "valgrind": _w(flags="qhv"),
    "chronic": _w(flags="ev"),
    "unbuffer": _w(flags="p"),
    "unshare": _w(
        "SGRw",
        "--setuid --setgid --root --wd --propagation --setgroups --map-user --map-group --map-users --map-groups",
        "muinpUCTfrclh",
    ),
    "nsenter": _w("tSGwWr", "--target --setuid --setgid --wd --root", "muinpUCTaFZ"),
    "chroot": _w(long_valued="--userspec --groups", long_flags="--skip-chdir", positionals=1),
    "prlimit": _w("p", "--pid"),
    "systemd-run": _w("pEuMHs", "--property --setenv --unit --machine --host --slice --uid --gid", loose=True),
    "firejail": _w(loose=True),
    "fakeroot": _w("lsi", "--lib --faked", "uvh"),
    "faketime": _w(flags="f", positionals=1),
    "torsocks": _w("uapP", flags="idqh"),
    "proxychains": _w("f", flags="q"),
    "proxychains4": _w("f", flags="q"),
    "xvfb-run": _w("nsefpw", "--server-num --server-args --error-file --auth-file", "alh"),
    "dbus-run-session": _w(),
    "catchsegv": _w(),
    "numactl": _w("CNmpiP", "--physcpubind --cpunodebind --membind --preferred --interleave"),
    "cgexec": _w("g", flags="h", long_flags="--sticky"),
    "npx": _w("p", "--package --call"),
    "bunx": _w(),
    "busybox": _w(),
    "setpriv": _w(flags="dh", long_flags="--clear-groups --keep-groups --init-groups --reset-env --nnp"),
    "gosu": _w(positionals=1),  # `gosu USER CMD`
    "su-exec": _w(positionals=1),
    "chpst": _w("uUbenlmdofcr"),
    "tini": _w("sp", flags="vwgle"),
    "dumb-init": _w("r", "--rewrite", "cv", "--single-child --verbose"),
    "catatonit": _w(flags="gP"),
    "bwrap": _w(loose=True),  # `--bind SRC DEST`: options with two values
    "nsjail": _w(loose=True),
    "schroot": _w("cu", "--chroot --user --directory"),
    "s6-setuidgid": _w(positionals=1),
    "expect": _w(),
    "toybox": _w(),
    "daemonize": _w("ceoplu", flags="av"),
    "proot": _w(loose=True),
    "tsp": _w(loose=True),
    "rlwrap": _w(loose=True),
    "dotenv": _w(loose=True),  # `dotenv run CMD`, `dotenv -e .env -- CMD`
    "screen": _w("ScehpTtlL", flags="dDmrRxaAfFiOqUvw"),  # `screen -dm CMD` (`-X`: launchers.py)
}
# `uv run CMD`, `poetry run CMD`…: run any command, like a wrapper whose name is two words.
_RUNNERS: dict[tuple[str, str], _Wrapper] = {
    ("uv", "run"): _w("p", "--with --python --project --directory --env-file --package --group --extra"),
    ("poetry", "run"): _w(),
    ("pipenv", "run"): _w(),
    ("pdm", "run"): _w(),
    ("conda", "run"): _w("np", "--name --prefix"),
    ("hatch", "run"): _w(),
    ("pixi", "run"): _w("e", "--environment --manifest-path"),
    ("rye", "run"): _w(),
    ("mise", "exec"): _w(),
    ("asdf", "exec"): _w(),
    ("bundle", "exec"): _w(),
    ("npm", "exec"): _w("c", "--call --package"),
    ("pnpm", "exec"): _w(),
    ("yarn", "exec"): _w(),
    ("direnv", "exec"): _w(positionals=1),  # `direnv exec DIR CMD`
    ("ip", "netns"): _w(positionals=2),  # `ip netns exec NAME CMD`
    ("op", "run"): _w(long_valued="--env-file --environment --account"),
    ("doppler", "run"): _w("pc", "--project --config --token --fallback --mount"),
    ("aws-vault", "exec"): _w(loose=True),  # `aws-vault exec PROFILE [options] -- CMD`
    ("tox", "exec"): _w(loose=True),
    ("perf", "stat"): _w(loose=True),
    ("perf", "record"): _w(loose=True),
    ("perf", "trace"): _w(loose=True),
}
# Commands that run a string as a script (the rest of `_explain_words` knows how to find it).
_STRING_RUNNERS = frozenset({"eval", "trap", "su", "runuser", "script", "flock", "sg", "watch", "parallel", "ssh"})
_KNOWN = frozenset(
    {*_WRAPPERS, *SHELLS, *_STRING_RUNNERS, *GLOBAL_OPTIONS, *FOREIGN_SHELLS, "xargs", "find", "source", "."}
)
_XARGS = _w("adEILnPs", "--arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var", "0oprtxeil")
_SSH = _w("BbcDEeFIiJLlmOoPpQRSWw", flags="46AaCfGgKkMNnqsTtVvXxYy", positionals=1)
_WATCH = _w("nq", "--interval", "bcCdegtxprwhv", "--beep --color --no-color --differences --errexit --chgexit --exec")
_FLOCK = _w(
    "wE", "--timeout --wait --conflict-exit-code", "sxenuoFhV", "--shared --exclusive --unlock --nonblock --close"
)
_SU = _w(
    "ugGsw",
    "--group --supp-group --shell --whitelist-environment --user",
    "lmpPf",
    "--login --preserve-environment --pty",
)
_SCRIPT = _w(
    "ETIOBm", "--echo --timing --log-in --log-out --log-io --logging-format", "aefqt", "--append --flush --quiet"
)
_PARALLEL = _w("jSaEIdnNLlXsC", "--jobs --arg-file --delimiter --sshlogin --results --joblog --colsep", "0kquvgt")
_GLOBALS = {
    name: _w(spec.valued, spec.long_valued, spec.flags, spec.long_flags) for name, spec in GLOBAL_OPTIONS.items()
}
_BASH = _w("oO", "--rcfile --init-file", "abefhkmnptuvxBCEHPTilrsD", "--login --norc --noprofile --posix --restricted")


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
    opaque: bool = field(default=False, repr=False)
    """Some command it runs cannot be known before it runs: every Bash deny rule may match it."""
    files: tuple[str, ...] = field(default=(), repr=False)
    """Words of its commands that may name files (checked for secret files and Read rules)."""


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
    parsed = parse_script(script)
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
        out.hazards.append(_VARIABLES)
    out.files.extend(command.files)
    if words[0] is not None and _base(words[0]) in ("xargs", "gxargs") and command.stdin_text is not None:
        out.files.extend(command.stdin_text.split())  # `xargs cat <<< .env` names .env, as `echo .env |` does
    scripts: list[str | None] = []
    extra: list[Check] = []
    block: list[Words] = []
    stdin = command.stdin_text if command.stdin_text is not None else command.stdin_fed
    for form in (words, *command.alternatives):
        _block_forms(form, stdin, _Found(block, scripts, out.hazards, extra), 0)
    out.checks.append(Check(command.text, tuple(dict.fromkeys(_allow_forms(words))), tuple(dict.fromkeys(block))))
    out.checks.extend(extra)
    return scripts


@dataclass
class _Found:
    """What reading one command found: the forms a deny sees, scripts it runs, reasons to ask."""

    forms: list[Words]
    scripts: list[str | None]
    hazards: list[str]
    checks: list[Check]  # commands it runs as separate checks (`find -exec`)


def _block_forms(words: Words, stdin: bool | str, found: _Found, level: int) -> None:
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


def _inner(name: str, words: Words, stdin: bool | str, found: _Found) -> list[Words]:
    """The commands `words` (named `name`) runs directly; scripts it runs go to `found`."""
    name = ALIASES.get(program_name(name), program_name(name))  # `bash.exe`, `gtimeout`: bash, timeout
    launch = launched(name, words)
    if launch is not None and (launch.commands or launch.scripts or launch.reads_stdin):
        found.hazards.extend(launch.hazards)
        found.scripts.extend(launch.scripts)
        if launch.reads_stdin:
            _stdin_script(stdin, found, None)
        return launch.commands
    if len(words) > 1 and (runner := _RUNNERS.get((name, words[1] or ""))) is not None:
        return _cores(words[1:], runner, name, found)
    if name in _WRAPPERS:
        cores = _cores(words, _WRAPPERS[name], name, found)
        if name in ("sudo", "doas", "chroot") and () in cores and (name == "chroot" or _shell_flag(words)):
            _stdin_script(stdin, found, None)  # `sudo -s`, `chroot DIR`: a shell reading its input
        return cores
    if name == "xargs":
        cores = [_replaced(core, _replace_string(words)) for core in _cores(words, _XARGS, name, found)]
        return [form for core in cores for form in ((core or ("echo",)), (*(core or ("echo",)), None))]
    if is_foreign_shell(name):
        if runs_a_string(words):  # `pwsh -c …`: nothing to parse; a Bash deny in force denies it (gate.py)
            found.hazards.append(f"{FOREIGN} ({name})")
            found.scripts.append(None)
    elif name in SHELLS or _SHELL_NAME.fullmatch(name):
        _shell(words, stdin, found)
    elif name in _STRING_RUNNERS:
        return _string_runner(name, words, stdin, found)
    elif name in ("source", "."):
        target = words[1] if len(words) > 1 else None
        if target is None or target in _STDIN_FILES:
            _stdin_script(stdin if target is not None else False, found, name)
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
        or (name == "set" and _risky_set(words))
    ):
        # expand_aliases, dotglob, `hash -p /bin/rm ls`, `set -k`: what later commands run changes
        found.hazards.append(f"{name} changes how later commands run")
        found.scripts.append(None)
    elif name == "git":
        _git_config(words, found)
    elif name in ("read", "mapfile", "readarray", "getopts") or (
        name in ("printf", "wait") and any(w is not None and w.startswith(("-v", "-p")) for w in words[1:])
    ):
        found.hazards.append(SETS_VARIABLES)
        if not all(w is not None and (w.startswith("-") or quiet_name(w)) for w in words[1:]):
            found.scripts.append(None)  # `read 'a[$(id)]'`, `printf -v PATH …`: code or the environment
    return _subcommand(name, words)


def _subcommand(name: str, words: Words) -> list[Words]:
    """`git -C x push` → `git push`: the command without the program's global options (subcommands.py)."""
    spec = _GLOBALS.get(name)
    if spec is None or len(words) < 2:
        return []
    bare = drop_toolchain(words)
    cores = _cores(bare, spec, name, _Found([], [], [], []))  # a word known at run time: matched as None
    return [(words[0], *core) for core in cores if core and core != words[1:]]


def _allow_forms(words: Words) -> list[Words]:
    """The command as written, and inside transparent wrappers or xargs (each read one way only)."""
    forms = [words]
    first = words[0] if words else None
    if first is None or isinstance(first, Glob):
        return forms
    name = posixpath.basename(first)
    found = _Found([], [], [], [])
    if name in _WRAPPERS and _WRAPPERS[name].transparent:
        cores = _cores(words, _WRAPPERS[name], name, found)
        if len(cores) == 1 and cores[0]:
            forms += _allow_forms(cores[0])
    elif name == "xargs":
        cores = _cores(words, _XARGS, name, found)
        if len(cores) == 1:
            # xargs appends words read at run time: judged as its command with one unknown word
            # more, which a prefix rule (`Bash(wc:*)`) covers and an exact rule never does.
            forms += [(*form, None) for form in _allow_forms(cores[0] or ("echo",))]
    return forms


def _cores(words: Words, spec: _Wrapper, name: str, found: _Found) -> list[Words]:
    """The commands a wrapper may run: one per way of reading options the table does not know."""
    if spec.loose:  # every word that is not an option may start the command
        return [words[i:] for i, word in enumerate(words) if i and (word is None or not word.startswith("-"))][:16]
    cores: list[Words] = []
    starts = [1]
    while starts and len(cores) < 16:
        index = starts.pop()
        while index < len(words):
            word = words[index]
            if word is None:
                found.hazards.append(f"cannot tell which command {name} runs")
                break
            if word in spec.quiet:
                return cores
            if word == "--":
                index += 1
                break
            if name == "env" and "=" in word and word.split("=", 1)[0].isidentifier():
                found.hazards.append(_VARIABLES)  # env NAME=VALUE
                if not quiet_name(word.split("=", 1)[0]):
                    found.scripts.append(None)  # `env LD_PRELOAD=… ls`: what runs is not `ls` alone
                index += 1
                continue
            if word.startswith("--") and len(word) > 2:
                option, equals, value = word.partition("=")
                if name == "env" and option == "--split-string":
                    _split_string(value if equals else _at(words, index + 1), found)
                if equals or option in spec.long_flags:
                    index += 1
                elif option in spec.long_valued:
                    index += 2
                else:  # unknown: it may take the next word, or not
                    starts.append(index + 2)
                    index += 1
                continue
            if word.startswith("-") and len(word) > 1:
                index += _short_options(word, words, index, spec, name, starts, found)
                continue
            break
        index += spec.positionals
        if index <= len(words):
            cores.append(words[index:])
    return list(dict.fromkeys(cores))


def _short_options(
    word: str, words: Words, index: int, spec: _Wrapper, name: str, starts: list[int], found: _Found
) -> int:
    """Read a cluster like `-nu root`; returns how many words it took."""
    for position in range(1, len(word)):
        letter = word[position]
        attached = word[position + 1 :]
        if letter in spec.valued:
            if name == "env" and letter == "S":
                _split_string(attached or _at(words, index + 1), found)
            return 1 if attached else 2
        if letter not in spec.flags and not attached:
            starts.append(index + 2)  # unknown last letter: it may take the next word
    return 1


_SAFE_SET = frozenset({"-e", "+e", "-u", "+u", "-x", "+x", "-v", "+v", "-eu", "-ue", "-eux", "-euo", "-eo", "-o", "+o"})
_SAFE_SET_OPTIONS = frozenset({"errexit", "nounset", "pipefail", "xtrace", "verbose"})


def _risky_set(words: Words) -> bool:
    """`set -e`, `set -euo pipefail` are harmless; `set -k`, `set -a`, `set +B`… change what runs."""
    for index, word in enumerate(words[1:], start=1):
        if word is None or (word not in _SAFE_SET and word not in _SAFE_SET_OPTIONS):
            return True
        if word in ("-o", "+o", "-euo", "-eo") and _at(words, index + 1) not in _SAFE_SET_OPTIONS:
            return True
    return False


def _git_config(words: Words, found: _Found) -> None:
    """`git -c core.pager='rm x' log`, `-c alias.x='!rm x'`: git runs configuration values as commands."""
    # git's own options end where its subcommand starts: after the longest reading of them (`-C x -c …`).
    cores = _cores(words, _GLOBALS["git"], "git", _Found([], [], [], []))
    end = len(words) - min((len(core) for core in cores), default=0)
    for index, word in enumerate(words[1:end], start=1):
        if word in ("-c", "--config-env") or (word or "").startswith("--config-env="):
            value = _at(words, index + 1) if word in ("-c", "--config-env") else (word or "").partition("=")[2]
            found.hazards.append("git -c sets configuration that git may run as a command")
            found.scripts.append(None if value is None else value.partition("=")[2].removeprefix("!"))
            found.scripts.append(None)


def _shell_flag(words: Words) -> bool:
    """`sudo -s` / `sudo -i` (or their long forms) with no command start a shell."""
    return any(
        word in ("--shell", "--login")
        or (word.startswith("-") and not word.startswith("--") and ("s" in word or "i" in word))
        for word in words[1:]
        if word is not None
    )


def _replace_string(words: Words) -> str | None:
    """The string `xargs -I R` (`-i`, `--replace`) replaces with what it reads, if it does."""
    for index, word in enumerate(words[1:], start=1):
        if word is None or word == "--" or not word.startswith("-"):
            break
        if word.startswith("-I"):
            return word[2:] or _at(words, index + 1)
        if word.startswith("--replace"):
            return word.partition("=")[2] or "{}"
        if word.startswith("-i"):
            return word[2:] or "{}"
    return None


def _replaced(core: Words, marker: str | None) -> Words:
    """`xargs -I{} sh -c 'rm {}'`: words holding the replace string are only known at run time."""
    if not marker:
        return core
    return tuple(None if w is None or marker in w else w for w in core)


def _split_string(value: str | None, found: _Found) -> None:
    """`env -S 'rm -rf /'` splits its string into a command: checked like a script."""
    found.hazards.append("env -S splits a string into a command")
    found.scripts.append(value)


def _at(words: Words, index: int) -> str | None:
    return words[index] if index < len(words) else None


def _shell(words: Words, stdin: bool | str, found: _Found) -> None:
    """`bash -c STRING` runs STRING; a shell with no script file runs whatever it reads."""
    index, reads_stdin, command_string = 1, False, False
    while index < len(words):
        word = words[index]
        if word is None:
            found.hazards.append("a shell with arguments only known at run time")
            found.scripts.append(None)
            return
        if word == "--":
            index += 1
            break
        if word.startswith("--"):
            index += 2 if word in _BASH.long_valued else 1
            continue
        if word.startswith(("-", "+")) and len(word) > 1:
            letters = word[1:]
            command_string = command_string or (word.startswith("-") and "c" in letters)
            reads_stdin = reads_stdin or (word.startswith("-") and "s" in letters)  # `bash -s ARG…`
            index += 1 + sum(letter in "oO" for letter in letters)  # `-o errexit`
            continue
        break
    if command_string:  # the string is the first word after the options: `bash -c -e -- 'rm x'`
        found.hazards.append(f"{words[0]} -c runs a string as a script")
        found.scripts.append(_at(words, index))
        return
    if not reads_stdin and index < len(words) and words[index] not in _STDIN_FILES:
        return  # `bash script.sh`: the script file is the command
    _stdin_script(stdin, found, None)


def _stdin_script(stdin: bool | str, found: _Found, name: str | None) -> None:
    """A shell (or `source /dev/stdin`) running what it reads: known text is checked, else unknown."""
    if name is not None:
        found.hazards.append(f"{name} runs a file only known at run time")
    else:
        fed = "from a pipe, a here-string or a here-doc" if stdin else "from its input"
        found.hazards.append(f"a shell running commands {fed}")
    if isinstance(stdin, str):
        found.scripts.append(stdin)
        if (decoded := _printf_text(stdin)) != stdin:
            found.scripts.append(decoded)
    else:
        found.scripts.append(None)


def _printf_text(text: str) -> str:
    """`printf 'r\\x6d x'` prints `rm x`: the text with its escapes decoded, where they decode."""
    import codecs

    try:
        return codecs.decode(text, "unicode_escape") if text.isascii() else text
    except UnicodeDecodeError:
        return text


def _string_runner(name: str, words: Words, stdin: bool | str, found: _Found) -> list[Words]:
    """Commands that run a string as a script: find the string (or the command) each takes."""
    args = words[1:]
    if name == "eval":
        found.hazards.append("eval runs its arguments as a script")
        found.scripts.append(_join(args))
    elif name == "trap":
        script = next((w for w in args if w is None or not w.startswith("-")), "")
        found.hazards.append("trap runs a string as a script")
        found.scripts.append(script)
    elif name in ("su", "runuser", "script", "sg"):
        return _su_like(name, words, stdin, found)
    elif name == "flock":
        for core in _cores(words, _FLOCK, name, found):
            if len(core) >= 2 and core[1] in ("-c", "--command"):
                found.hazards.append("flock -c runs a string as a script")
                found.scripts.append(_at(core, 2))
            elif len(core) >= 2:
                return [core[1:]]
    elif name == "watch":
        for core in _cores(words, _WATCH, name, found):
            if any(w in ("-x", "--exec") for w in words[1:]):
                return [core]
            found.hazards.append("watch runs its arguments as a script")
            found.scripts.append(_join(core))
    elif name == "ssh":
        for core in _cores(words, _SSH, name, found):
            found.hazards.append("ssh runs its arguments as a script")
            found.scripts.append(_join(core) if core else None)
    elif name == "parallel":
        cores = _cores(words, _PARALLEL, name, found)
        for core in cores:
            end = next((i for i, w in enumerate(core) if w in (":::", "::::", ":::+", "::::+")), len(core))
            found.hazards.append("parallel runs its arguments as a script")
            command = _join(core[:end])
            if command and "{" not in command:
                found.scripts.append(command)
            elif command:  # `parallel sh -c {} ::: 'rm x'`: the arguments go into the command
                found.scripts += [None, command.replace("{}", " ")]
            if end < len(core) and not command:  # `parallel ::: 'rm x'`: each argument is a command
                found.scripts += [w for w in core[end + 1 :] if w not in (":::", "::::", ":::+", "::::+")]
            elif not command:
                _stdin_script(stdin, found, None)
    return []


def _su_like(name: str, words: Words, stdin: bool | str, found: _Found) -> list[Words]:
    """`su -c STRING`, `runuser -u USER CMD`, `script -c STRING`, `sg GROUP [-c] STRING`."""
    for index, word in enumerate(words[1:], start=1):
        if word is None:
            continue
        if word == "--":
            break
        if word in ("-c", "--command", "--session-command") or (
            word.startswith("-") and not word.startswith("--") and "c" in word and name != "sg"
        ):
            found.hazards.append(f"{name} -c runs a string as a script")
            found.scripts.append(_at(words, index + 1))
            return []
        if word.startswith(("--command=", "--session-command=")):
            found.hazards.append(f"{name} -c runs a string as a script")
            found.scripts.append(word.split("=", 1)[1])
            return []
    if name == "runuser" and any(w in ("-u", "--user") or (w or "").startswith("--user=") for w in words):
        return _cores(words, _SU, name, found)
    if name == "sg":
        rest = [w for w in words[1:] if w != "-"][1:]
        if rest:
            found.hazards.append("sg runs its arguments as a script")
            found.scripts.append(_join(tuple(rest)))
            return []
    _stdin_script(stdin, found, None)  # `su`, `script`: an interactive shell reading its input
    return []


def _find(words: Words, found: _Found) -> None:
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
                nested = _Found([], found.scripts, found.hazards, found.checks)
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


def _join(words: Words) -> str | None:
    return None if any(w is None for w in words) else " ".join(w for w in words if w is not None)
