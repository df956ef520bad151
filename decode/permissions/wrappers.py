"""Wrappers: commands that run another command (`timeout 5 npm test`, `sudo rm x`, `uv run pytest`).

Each wrapper is a row of a closed table (`WRAPPERS`, `TWO_WORD_WRAPPERS` for two-word ones such as `uv run`)
with the options that take a value. `cores` finds the command a wrapper runs; an option the table
does not know is read both ways (taking a value and not), so a deny cannot be skipped by an unusual
option.
"""

from dataclasses import dataclass

from decode.permissions.command_reading import VARIABLES, Found, Words, at
from decode.permissions.shell_script import quiet_name
from decode.permissions.subcommands import GLOBAL_OPTIONS


@dataclass(frozen=True)
class Wrapper:
    """How a wrapper's command line reads: `WRAPPER [options] [positionals] COMMAND…`."""

    valued: str = ""  # short options that take a value (`-u root`, `-uroot`)
    long_valued: frozenset[str] = frozenset()  # long options that take one (`--user root`)
    flags: str = ""  # short options known to take none; any other letter is read both ways
    long_flags: frozenset[str] = frozenset()
    positionals: int = 0  # words between the options and the command (`timeout DURATION`)
    transparent: bool = False  # an allow rule on the wrapped command covers it
    quiet: frozenset[str] = frozenset()  # options after which nothing runs (`command -v`)
    loose: bool = False  # options with several values (`bwrap --bind A B`): any later word may be the command


def wrapper(
    valued: str = "",
    long_valued: str = "",
    flags: str = "",
    long_flags: str = "",
    *,
    positionals: int = 0,
    transparent: bool = False,
    quiet: str = "",
    loose: bool = False,
) -> Wrapper:
    """A `Wrapper`, its long options written as one string: `wrapper("u", "--user", "E", "--login")`."""
    return Wrapper(
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
WRAPPERS: dict[str, Wrapper] = {
    "env": wrapper(
        "uCS", "--unset --chdir --split-string", "i0v", "--ignore-environment --null --debug", transparent=True
    ),
    "command": wrapper(flags="pvV", transparent=True, quiet="-v -V"),
    "builtin": wrapper(transparent=True),
    "exec": wrapper("a", flags="cl", transparent=True),
    "nohup": wrapper(transparent=True),
    "time": wrapper("fo", "--format --output", "apqv", "--append --portability --quiet --verbose", transparent=True),
    "nice": wrapper("n", "--adjustment", "0123456789", transparent=True),
    "timeout": wrapper(
        "sk", "--signal --kill-after", "v", "--preserve-status --foreground --verbose", positionals=1, transparent=True
    ),
    "stdbuf": wrapper("ioe", "--input --output --error", transparent=True),
    # These change who runs the command, or how: a deny sees through them, an allow must name them.
    "sudo": wrapper(
        "ughpCDUrtTR",
        "--user --group --host --prompt --close-from --chdir --other-user --role --type --command-timeout --chroot",
        "AbEeHiKklnPSsVv",
        "--askpass --background --preserve-env --edit --set-home --login --remove-timestamp --reset-timestamp "
        "--list --non-interactive --preserve-groups --stdin --shell --validate --version --help",
    ),
    "doas": wrapper("uC", flags="nsL"),
    "pkexec": wrapper(long_valued="--user", long_flags="--disable-internal-agent --keep-cwd"),
    "coproc": wrapper(),
    "setsid": wrapper(flags="cfw", long_flags="--ctty --fork --wait"),
    "ionice": wrapper("cnpPu", "--class --classdata --pid --pgid --uid", "th", "--ignore"),
    "taskset": wrapper(flags="apc", long_flags="--all-tasks --pid --cpu-list", positionals=1),
    "chrt": wrapper("TPD", "--sched-runtime --sched-period --sched-deadline", "abdefiomprRv", positionals=1),
    "strace": wrapper(
        "abeEIOopPsSuUX",
        "--trace --signal --status --output --attach --string-limit --user --env",
        "cCdDfFhiknqrtTvVwxyzZ",
    ),
    "ltrace": wrapper("aAeFlnopsuxX", "--output --library", "bcCdfhiLrStTV"),
    "valgrind": wrapper(flags="qhv"),
    "chronic": wrapper(flags="ev"),
    "unbuffer": wrapper(flags="p"),
    "unshare": wrapper(
        "SGRw",
        "--setuid --setgid --root --wd --propagation --setgroups --map-user --map-group --map-users --map-groups",
        "muinpUCTfrclh",
    ),
    "nsenter": wrapper("tSGwWr", "--target --setuid --setgid --wd --root", "muinpUCTaFZ"),
    "chroot": wrapper(long_valued="--userspec --groups", long_flags="--skip-chdir", positionals=1),
    "prlimit": wrapper("p", "--pid"),
    "systemd-run": wrapper("pEuMHs", "--property --setenv --unit --machine --host --slice --uid --gid", loose=True),
    "firejail": wrapper(loose=True),
    "fakeroot": wrapper("lsi", "--lib --faked", "uvh"),
    "faketime": wrapper(flags="f", positionals=1),
    "torsocks": wrapper("uapP", flags="idqh"),
    "proxychains": wrapper("f", flags="q"),
    "proxychains4": wrapper("f", flags="q"),
    "xvfb-run": wrapper("nsefpw", "--server-num --server-args --error-file --auth-file", "alh"),
    "dbus-run-session": wrapper(),
    "catchsegv": wrapper(),
    "numactl": wrapper("CNmpiP", "--physcpubind --cpunodebind --membind --preferred --interleave"),
    "cgexec": wrapper("g", flags="h", long_flags="--sticky"),
    "npx": wrapper("p", "--package --call"),
    "bunx": wrapper(),
    "busybox": wrapper(),
    "setpriv": wrapper(flags="dh", long_flags="--clear-groups --keep-groups --init-groups --reset-env --nnp"),
    "gosu": wrapper(positionals=1),  # `gosu USER CMD`
    "su-exec": wrapper(positionals=1),
    "chpst": wrapper("uUbenlmdofcr"),
    "tini": wrapper("sp", flags="vwgle"),
    "dumb-init": wrapper("r", "--rewrite", "cv", "--single-child --verbose"),
    "catatonit": wrapper(flags="gP"),
    "bwrap": wrapper(loose=True),  # `--bind SRC DEST`: options with two values
    "nsjail": wrapper(loose=True),
    "schroot": wrapper("cu", "--chroot --user --directory"),
    "s6-setuidgid": wrapper(positionals=1),
    "expect": wrapper(),
    "toybox": wrapper(),
    "daemonize": wrapper("ceoplu", flags="av"),
    "proot": wrapper(loose=True),
    "tsp": wrapper(loose=True),
    "rlwrap": wrapper(loose=True),
    "dotenv": wrapper(loose=True),  # `dotenv run CMD`, `dotenv -e .env -- CMD`
    "screen": wrapper("ScehpTtlL", flags="dDmrRxaAfFiOqUvw"),  # `screen -dm CMD` (`-X`: launchers.py)
}
# `uv run CMD`, `poetry run CMD`…: run any command, like a wrapper whose name is two words.
TWO_WORD_WRAPPERS: dict[tuple[str, str], Wrapper] = {
    ("uv", "run"): wrapper("p", "--with --python --project --directory --env-file --package --group --extra"),
    ("poetry", "run"): wrapper(),
    ("pipenv", "run"): wrapper(),
    ("pdm", "run"): wrapper(),
    ("conda", "run"): wrapper("np", "--name --prefix"),
    ("hatch", "run"): wrapper(),
    ("pixi", "run"): wrapper("e", "--environment --manifest-path"),
    ("rye", "run"): wrapper(),
    ("mise", "exec"): wrapper(),
    ("asdf", "exec"): wrapper(),
    ("bundle", "exec"): wrapper(),
    ("npm", "exec"): wrapper("c", "--call --package"),
    ("pnpm", "exec"): wrapper(),
    ("yarn", "exec"): wrapper(),
    ("direnv", "exec"): wrapper(positionals=1),  # `direnv exec DIR CMD`
    ("ip", "netns"): wrapper(positionals=2),  # `ip netns exec NAME CMD`
    ("op", "run"): wrapper(long_valued="--env-file --environment --account"),
    ("doppler", "run"): wrapper("pc", "--project --config --token --fallback --mount"),
    ("aws-vault", "exec"): wrapper(loose=True),  # `aws-vault exec PROFILE [options] -- CMD`
    ("tox", "exec"): wrapper(loose=True),
    ("perf", "stat"): wrapper(loose=True),
    ("perf", "record"): wrapper(loose=True),
    ("perf", "trace"): wrapper(loose=True),
}
# Commands that run a string as a script (the rest of `_explain_words` knows how to find it).
XARGS = wrapper("adEILnPs", "--arg-file --delimiter --max-args --max-procs --max-chars --process-slot-var", "0oprtxeil")
GLOBALS = {
    name: wrapper(spec.valued, spec.long_valued, spec.flags, spec.long_flags) for name, spec in GLOBAL_OPTIONS.items()
}


def wrapped(words: Words, spec: Wrapper, name: str, found: Found) -> list[Words]:
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
                found.hazards.append(VARIABLES)  # env NAME=VALUE
                if not quiet_name(word.split("=", 1)[0]):
                    found.scripts.append(None)  # `env LD_PRELOAD=… ls`: what runs is not `ls` alone
                index += 1
                continue
            if word.startswith("--") and len(word) > 2:
                option, equals, value = word.partition("=")
                if name == "env" and option == "--split-string":
                    _split_string(value if equals else at(words, index + 1), found)
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
    word: str, words: Words, index: int, spec: Wrapper, name: str, starts: list[int], found: Found
) -> int:
    """Read a cluster like `-nu root`; returns how many words it took."""
    for position in range(1, len(word)):
        letter = word[position]
        attached = word[position + 1 :]
        if letter in spec.valued:
            if name == "env" and letter == "S":
                _split_string(attached or at(words, index + 1), found)
            return 1 if attached else 2
        if letter not in spec.flags and not attached:
            starts.append(index + 2)  # unknown last letter: it may take the next word
    return 1


def _split_string(value: str | None, found: Found) -> None:
    """`env -S 'rm -rf /'` splits its string into a command: checked like a script."""
    found.hazards.append("env -S splits a string into a command")
    found.scripts.append(value)
