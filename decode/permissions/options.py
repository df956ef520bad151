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
  `--force-with-lease` is a force push too, and `--mirror` both forces and deletes;
- a value can mean an option: `rm --interactive=never` never asks, as `-f` does.

The rule is read the same way. It matches when the programs are the same, the rule's options
are all among the command's, and its other words start the command's (all of them, and the same
options, for a rule without `:*`). A `*` ending the rule's last word (`rm -rf*`, `docker rm*`)
makes it a prefix; a whole-word `*` after the program (`git push * --force`) makes the words
after it options to find anywhere (a rule with a non-option word after its first `*`, or a `*`
inside a word, is compared as written only). npm's abbreviated commands (`npm publ`) are read
as the rule's. This is only ever used to deny or ask: an allow rule still matches the words as
written (ADR-0021).
"""

from dataclasses import dataclass, field, replace
from functools import lru_cache

from decode.permissions.command_patterns import _SEP
from decode.permissions.rules import command_matches, command_pattern

Words = tuple[str | None, ...]


@dataclass(frozen=True)
class _Options:
    names: dict[str, tuple[str, ...]]  # every spelling -> the canonical options it stands for
    valued: frozenset[str]  # canonical options that take a value
    single_dash: bool = False  # `find -delete`: options are whole words, never combined letters
    values: dict[str, tuple[tuple[str, ...], tuple[str, ...]]] = field(default_factory=dict)
    """A long option's values that mean other options: `--interactive=never` is `-f`."""


def _o(*groups: str, valued: str = "", also: dict[str, tuple[str, ...]] | None = None) -> _Options:
    """`_o("-r -R --recursive", "-f --force")`: each group's spellings mean its first one."""
    names: dict[str, tuple[str, ...]] = dict(also or {})
    for group in groups:
        spellings = group.split()
        for spelling in spellings:
            names[spelling] = (spellings[0],)
    return _Options(names, frozenset(valued.split()))


# `rm --interactive=never` (or `no`, `none`, or a start of them, as GNU reads it) is `rm -f`.
_RM = replace(
    _o("-r -R --recursive", "-f --force", "-i", "-I", "--interactive", "-d --dir", "-v --verbose"),
    values={"--interactive": (("never", "no", "none"), ("-f",))},
)
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
        "--all --branches",
        "--tags",
        "--no-verify",
        valued="-o --repo --receive-pack --exec",
        also={"--mirror": ("--mirror", "-f", "-d")},  # it overwrites and deletes the remote's refs
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


def cached_deny_matches(specifier: str | None, words: Words) -> bool | None:
    """`deny_matches`, remembered: every check meets every deny rule, and sessions repeat commands."""
    # The key says which words are globs (by their types, a loop in C): a `shell.Glob` equals its text
    # but a deny reads it wider.
    return _remembered(specifier, tuple(words), tuple(map(type, words)))


@lru_cache(maxsize=8192)
def _remembered(specifier: str | None, words: Words, _types: tuple[type, ...]) -> bool | None:
    return deny_matches(specifier, words)


def deny_matches(specifier: str | None, words: Words) -> bool | None:
    """`command_matches` for a deny or ask rule, with options read as `Reading`s too (None: cannot tell)."""
    plain = command_matches(specifier, words, broad=True)
    if plain is True or specifier is None:
        return plain
    if (whole := _unabbreviated(specifier, words)) is not None and deny_matches(specifier, whole):
        return True
    spelled = _spelled(specifier, words)
    return True if spelled else None if None in (plain, spelled) else False


def _unabbreviated(specifier: str, words: Words) -> Words | None:
    """`npm publ` as `npm publish` for a rule naming `npm publish`: npm runs a command from any
    unique start of its name. (A start shared with another command, `npm un`, is read as the rule's.)"""
    if len(words) < 2 or words[0] is None or words[0].rsplit("/", 1)[-1] != "npm" or len(words[1] or "") < 2:
        return None
    try:
        rule, first_star = _star_words(command_pattern(specifier).shapes[0])
    except ValueError:
        return None
    if (
        rule is None
        or len(rule) < 2
        or rule[0].rsplit("/", 1)[-1] != "npm"
        or (first_star is not None and first_star < 2)
    ):
        return None
    said = str(words[1])
    return (words[0], rule[1], *words[2:]) if rule[1] != said and rule[1].startswith(said) else None


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
    words, first_star = _star_words(pattern.shapes[0])
    if words is None or (reading := read(words)) is None:
        return None
    if first_star is None:
        return reading, pattern.is_prefix
    # After a `*` (`git push * --force`, `rm -rf*`) only options count, and the program stands before it.
    head = read(words[:first_star])
    if head is None or head.program != reading.program or head.rest != reading.rest:
        return None
    return reading, True


def _star_words(shape: tuple[object, ...]) -> tuple[tuple[str, ...] | None, int | None]:
    """A rule's words with its `*`s taken out, and how many words came before the first (None: no `*`).

    `rm -rf*` is `rm -rf` and anything after; `git push * --force` is `git push`, anything, and
    `--force`. A `*` inside a word other than at the end of the last (`rm -*f`) gives no words.
    """
    words: list[list[object]] = [[]]
    for token in shape:
        if token == _SEP:
            words.append([])
        else:
            words[-1].append(token)
    texts: list[str] = []
    first_star: int | None = None
    for index, word in enumerate(words):
        stars = [i for i, token in enumerate(word) if not isinstance(token, str)]
        if not stars:
            texts.append("".join(str(token) for token in word))
            continue
        if len(word) == 1:  # a whole-word `*`
            first_star = len(texts) if first_star is None else first_star
        elif stars == [len(word) - 1] and index == len(words) - 1:  # `-rf*` ending the rule
            texts.append("".join(str(token) for token in word[:-1]))
            first_star = len(texts) if first_star is None else first_star
        else:
            return None, None
    return tuple(texts), first_star


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
            for c in canonical:
                spelled, meaning = spec.values.get(c, ((), ()))
                if equals and value and any(word.startswith(value) for word in spelled):
                    options.update(meaning)
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
