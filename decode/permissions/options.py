"""Options spelled another way mean the same: `rm -fr`, `rm -r -f` and `rm --recursive --force` are `rm -rf`.

A deny (or ask) rule written with options, `Bash(rm -rf:*)` or `Bash(git push --force:*)`, must
stop the same command however its options are written. For the commands of `_TABLE` (the common
destructive ones) a command is read as its program (and subcommand), a set of *canonical*
options and its other words in order:

- short options combine (`-fr` is `-f -r`), except after one that takes a value (`-ofoo`);
- long options and their abbreviations (`--rec`, as GNU tools and git accept) map to one short
  spelling: `--recursive` and `-R` are `-r`; `git branch -D` is `-d -f`;
- options count wherever they stand, before or after the other words (`git reset x --hard`,
  `git push origin --force`), since GNU tools and git read them there too; after `--` nothing
  is an option;
- a few arguments are options in disguise: `git push origin +main` forces (`-f`), `:main` deletes.
  `--force-with-lease` is a force push too.

The rule is read the same way. It matches when the programs are the same, the rule's options
are all among the command's, and its other words start the command's (all of them, and the same
options, for a rule without `:*`). This is only ever used to deny or ask: an allow rule still
matches the words as written (ADR-0021).
"""

from dataclasses import dataclass
from functools import lru_cache

from decode.permissions.rules import command_matches, command_pattern

Words = tuple[str | None, ...]


@dataclass(frozen=True)
class _Options:
    names: dict[str, tuple[str, ...]]  # every spelling -> the canonical options it stands for
    valued: frozenset[str]  # canonical options that take a value
    single_dash: bool = False  # `find -delete`: options are whole words, never combined letters


def _o(*groups: str, valued: str = "", also: dict[str, tuple[str, ...]] | None = None) -> _Options:
    """`_o("-r -R --recursive", "-f --force")`: each group's spellings mean its first one."""
    names: dict[str, tuple[str, ...]] = dict(also or {})
    for group in groups:
        spellings = group.split()
        for spelling in spellings:
            names[spelling] = (spellings[0],)
    return _Options(names, frozenset(valued.split()))


_RM = _o("-r -R --recursive", "-f --force", "-i", "-I", "--interactive", "-d --dir", "-v --verbose")
_CHOWN = _o("-R --recursive", "-f --silent --quiet", "-v --verbose", "-c --changes", "-h --no-dereference")
_TABLE: dict[tuple[str, ...], _Options] = {
    ("rm",): _RM,
    ("chmod",): _o("-R --recursive", "-f --silent --quiet", "-v --verbose", "-c --changes"),
    ("chown",): _CHOWN,
    ("chgrp",): _CHOWN,
    ("shred",): _o("-u --remove", "-f --force", "-z --zero", "-n --iterations", "-v --verbose", valued="-n"),
    ("git", "push"): _o(
        "-f --force --force-with-lease --force-if-includes",
        "-d --delete",
        "-u --set-upstream",
        "-n --dry-run",
        "-q --quiet",
        "-v --verbose",
        "-o --push-option",
        "--mirror",
        "--all --branches",
        "--tags",
        "--no-verify",
        valued="-o --repo --receive-pack --exec",
    ),
    ("git", "reset"): _o("--hard", "--soft", "--mixed", "--merge", "--keep", "-q --quiet", "-p --patch"),
    ("git", "clean"): _o(
        "-f --force", "-d", "-x", "-X", "-n --dry-run", "-q --quiet", "-i --interactive", "-e --exclude", valued="-e"
    ),
    ("git", "checkout"): _o(
        "-f --force", "-b", "-B", "-p --patch", "-m --merge", "-q --quiet", "--ours", "--theirs", valued="-b -B"
    ),
    ("git", "branch"): _o(
        "-d --delete",
        "-f --force",
        "-m --move",
        "-c --copy",
        "-r --remotes",
        "-a --all",
        also={"-D": ("-d", "-f"), "-M": ("-m", "-f"), "-C": ("-c", "-f")},
    ),
    ("git", "rm"): _o("-r", "-f --force", "-n --dry-run", "-q --quiet", "--cached"),
    ("git", "commit"): _o(
        "-n --no-verify", "-a --all", "-m --message", "-F --file", "--amend", "-q --quiet", valued="-m -F"
    ),
    ("git", "stash"): _o("-u --include-untracked", "-a --all", "-k --keep-index", "-m --message", valued="-m"),
    ("docker", "rm"): _o("-f --force", "-v --volumes", "-l --link"),
    ("docker", "rmi"): _o("-f --force", "--no-prune"),
    ("docker", "system", "prune"): _o("-a --all", "-f --force", "--volumes", "--filter", valued="--filter"),
    ("docker", "volume", "prune"): _o("-a --all", "-f --force", "--filter", valued="--filter"),
    ("docker", "image", "prune"): _o("-a --all", "-f --force", "--filter", valued="--filter"),
    ("docker", "container", "prune"): _o("-f --force", "--filter", valued="--filter"),
    ("kubectl", "delete"): _o(
        "--force",
        "--now",
        "--all",
        "-A --all-namespaces",
        "-f --filename",
        "-l --selector",
        "-n --namespace",
        "-R --recursive",
        "-k --kustomize",
        "-o --output",
        "--grace-period",
        valued="-f -l -n -k -o --grace-period",
    ),
}
_TABLE[("find",)] = _Options({}, frozenset({"-name", "-iname", "-path", "-type", "-maxdepth", "-mindepth"}), True)
# `docker container rm` is `docker rm`, `docker image rm` is `docker rmi`.
_ALIASES = {("docker", "container", "rm"): ("docker", "rm"), ("docker", "image", "rm"): ("docker", "rmi")}
_ALIASES |= {("docker", "container", "remove"): ("docker", "rm"), ("docker", "image", "remove"): ("docker", "rmi")}


@dataclass(frozen=True)
class Reading:
    """A command as options see it: its program, canonical options, and other words in order."""

    program: tuple[str, ...]
    options: frozenset[str]
    rest: Words
    unknown: bool = False  # a word only known at run time: it could be any option


def deny_matches(specifier: str | None, words: Words) -> bool | None:
    """`command_matches` for a deny or ask rule, with options read as `Reading`s too (None: cannot tell)."""
    plain = command_matches(specifier, words, broad=True)
    if plain is True or specifier is None:
        return plain
    spelled = _spelled(specifier, words)
    return True if spelled else None if None in (plain, spelled) else False


def _spelled(specifier: str, words: Words) -> bool | None:
    rule = _rule(specifier)
    if rule is None:
        return False
    (want, prefix), command = rule, read(words)
    if command is None or command.program != want.program:
        return False
    missing = want.options - command.options
    if prefix:
        fits = len(command.rest) >= len(want.rest) and command.rest[: len(want.rest)] == want.rest
    else:
        fits = command.rest == want.rest and not (command.options - want.options)
    if fits and not missing:
        return True
    return None if command.unknown else False


@lru_cache(maxsize=1024)
def _rule(specifier: str) -> tuple[Reading, bool] | None:
    """A Bash rule read as options see it (None: not a command of the table, or not plain words)."""
    try:
        pattern = command_pattern(specifier)
    except ValueError:
        return None
    if pattern.inner_wildcard or any("*" in word for word in pattern.words):
        return None
    reading = read(pattern.words)
    return None if reading is None else (reading, pattern.is_prefix)


def read(words: Words) -> Reading | None:
    """Read `words` with its program's option table; None for a program the table does not know."""
    if not words or words[0] is None:
        return None
    head = (words[0].rsplit("/", 1)[-1], *words[1:3])
    for size in (3, 2, 1):
        key = tuple(word for word in head[:size] if word is not None)
        program = _ALIASES.get(key, key)
        if len(key) == size and (spec := _TABLE.get(program)) is not None:
            return _read(program, spec, words[size:])
    return None


def _read(program: tuple[str, ...], spec: _Options, words: Words) -> Reading:
    options: set[str] = set()
    rest: list[str | None] = []
    index, ended = 0, False
    while index < len(words):
        word = words[index]
        index += 1
        if word is None or ended or word == "-" or not word.startswith("-"):
            rest.append(_disguised(program, word, options))
        elif word == "--":
            ended = True
        elif word.startswith("--") or spec.single_dash:
            name, equals, value = word.partition("=")
            canonical = _long(spec, name)
            options.update(canonical)
            if not equals and set(canonical) & spec.valued and index < len(words):
                value, index = words[index] or "", index + 1
            options.update(f"{c}={value}" for c in canonical if c in spec.valued)
        else:
            index = _short(spec, word, words, index, options)
    return Reading(program, frozenset(options), tuple(rest), None in words)


def _long(spec: _Options, name: str) -> tuple[str, ...]:
    """`--recursive` → `-r`; an abbreviation stands for every option it could abbreviate."""
    if name in spec.names:
        return spec.names[name]
    if spec.single_dash:
        return (name,)
    found = [c for spelling, canon in spec.names.items() if spelling.startswith(name) for c in canon]
    return tuple(dict.fromkeys(found)) or (name,)


def _short(spec: _Options, word: str, words: Words, index: int, options: set[str]) -> int:
    """`-fr` → `-f`, `-r`; a letter that takes a value takes the rest of the word, or the next one."""
    for position in range(1, len(word)):
        canonical = spec.names.get(f"-{word[position]}", (f"-{word[position]}",))
        options.update(canonical)
        if set(canonical) & spec.valued:
            value = word[position + 1 :]
            if not value and index < len(words):
                value, index = words[index] or "", index + 1
            options.update(f"{c}={value}" for c in canonical if c in spec.valued)
            break
    return index


def _disguised(program: tuple[str, ...], word: str | None, options: set[str]) -> str | None:
    """`git push origin +main` forces and `:main` deletes: the options they stand for, and the word."""
    if program != ("git", "push") or word is None or len(word) < 2:
        return word
    if word.startswith("+"):
        options.add("-f")
        return word[1:]
    if word.startswith(":"):
        options.add("-d")
    return word
