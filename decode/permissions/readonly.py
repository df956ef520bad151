"""Read-only commands: what runs without asking in `default` mode when no rule allows it.

A short, closed list, as Claude Code has one (ADR-0046). A command qualifies only as written
(no wrapper, no `xargs`), with every word known before it runs, no pattern (`*.py`), and only
options this module knows to be harmless:

    ls  pwd  cat  head  tail  wc  sort  uniq  grep  rg  find
    git status | diff | log | show

`judge(words)` answers `ReadOnly` (with the words that name files: the gate checks each one is
inside the project), a reason the command is on the list but this use of it is not read-only
(`tail -f` never ends, `sort -o` writes, `find -exec` runs a command), or None (not on the list).
Everything else the gate checks still holds: hazards, redirections (`git log > f` writes a file),
deny and ask rules, secret files and decode's own folders.

Options are read one of two ways:

- **known only** (`tail`, `sort`, `uniq`, `rg`, `find`, git's own options): options are parsed as
  getopt parses them, and any option not listed (an abbreviation such as `--out` included) means
  the command is not read-only;
- **any but the blocked** (`ls`, `cat`, `head`, `wc`, `grep`, git's subcommands, whose options
  are many and harmless): every word starting with `-` is read as an option, even after `--`, and
  compared with the blocked names *and their abbreviations* (GNU tools and git accept `--outp`
  for `--output`); the value of `--opt=VALUE` is a path the gate checks. No option is taken to
  consume the next word, so a value is either checked as an option or as a path.
"""

import re
from dataclasses import dataclass

from decode.permissions.shell import Glob

Words = tuple[str | None, ...]


@dataclass(frozen=True)
class ReadOnly:
    """A command the built-in list lets run: its name and the words the gate must find inside the project."""

    name: str
    paths: tuple[str, ...]
    folders: bool = True  # may a path be a folder (`rg` reads every file in one: it may not)
    git: bool = False  # git: only where the project cannot pass for a bare repository


@dataclass(frozen=True)
class _Known:
    """Options parsed exactly: short letters without and with a value, long names likewise."""

    flags: str = ""
    valued: str = ""
    long_flags: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    extra: re.Pattern[str] | None = None  # other option words allowed whole (`tail -5`)
    notes: tuple[tuple[str, str], ...] = ()  # why some options refuse (`-f`: never ends)


def _known(
    flags: str = "",
    valued: str = "",
    long_flags: str = "",
    long_valued: str = "",
    extra: str = "",
    notes: dict[str, str] | None = None,
) -> _Known:
    return _Known(
        flags,
        valued,
        frozenset(long_flags.split()),
        frozenset(long_valued.split()),
        re.compile(extra) if extra else None,
        tuple((notes or {}).items()),
    )


_NEVER_ENDS = "follows the file and never ends"
_TAIL = _known(
    "qvz",
    "nc",
    "--quiet --silent --verbose --zero-terminated",
    "--lines --bytes",
    r"-[0-9]+[bcl]?",
    {"-f": _NEVER_ENDS, "-F": _NEVER_ENDS, "--follow": _NEVER_ENDS, "--retry": _NEVER_ENDS, "--pid": _NEVER_ENDS},
)
_SORT = _known(
    "bdfgiMhnRrVcCmsuz",
    "ktS",
    "--ignore-leading-blanks --dictionary-order --ignore-case --general-numeric-sort --ignore-nonprinting "
    "--month-sort --human-numeric-sort --numeric-sort --random-sort --reverse --version-sort --check --merge "
    "--stable --unique --zero-terminated",
    "--key --field-separator --buffer-size --sort --parallel",
    notes={
        "-o": "writes a file",
        "--output": "writes a file",
        "-T": "writes temporary files in a folder",
        "--temporary-directory": "writes temporary files in a folder",
        "--compress-program": "runs a program",
    },
)
_UNIQ = _known(
    "cdDiuz",
    "fsw",
    "--count --repeated --ignore-case --unique --zero-terminated",
    "--skip-fields --skip-chars --check-chars",
)
_RG = _known(
    "abcFHhIilNnopqSsUVvwx0",
    "ABCdEegjMmrTt",
    "--ignore-case --smart-case --case-sensitive --fixed-strings --word-regexp --line-regexp --invert-match "
    "--count --count-matches --files-with-matches --files-without-match --line-number --no-line-number "
    "--with-filename --no-filename --only-matching --multiline --quiet --no-heading --heading --column "
    "--no-column --vimgrep --json --stats --trim --text --byte-offset --null --pretty --crlf --passthru",
    "--regexp --glob --iglob --type --type-not --max-count --max-depth --context --after-context "
    "--before-context --replace --max-columns --encoding --threads --color --colors --sort --sortr",
    notes={
        "--pre": "runs a program on every file",
        "-f": "reads its patterns from a file, which an error message prints whole",
        "--file": "reads its patterns from a file, which an error message prints whole",
        "--pre-glob": "runs a program on files",
        "-z": "runs decompression programs",
        "--search-zip": "runs decompression programs",
        "--hostname-bin": "runs a program",
        "-L": "follows links out of the project",
        "--follow": "follows links out of the project",
        "-u": "searches hidden and ignored files",
        "--hidden": "searches hidden files",
        "-.": "searches hidden files",
        "--no-ignore": "searches ignored files",
    },
)
# git's own options before the subcommand: anything else (`-C DIR`, `--git-dir`, `-c`) asks.
_GIT_OPTIONS = frozenset({"--no-pager", "-P", "--no-optional-locks"})
_GIT_SUBCOMMANDS = frozenset({"status", "diff", "log", "show"})
# Options of those subcommands that write a file, run a program or read outside the repository.
_GIT_BLOCKED = {
    "--output": "writes a file",
    "--ext-diff": "runs an external diff program",
    "--textconv": "runs a text conversion program",
    "--no-index": "compares files outside the repository",
    "--show-signature": "runs gpg",
}
_GIT_BLOCKED_SHORT = {"O": "reads an order file"}
_GREP_BLOCKED = {
    "--recursive": "searches every file of a folder",
    "--dereference-recursive": "searches every file of a folder",
    "--directories": "may search every file of a folder",
    "--devices": "may read devices",
}
_GREP_BLOCKED_SHORT = {"r": "searches every file of a folder", "R": "searches every file of a folder"}
_GREP_BLOCKED_SHORT |= {"d": "may search every file of a folder", "D": "may read devices"}
_LS_BLOCKED = {"--dereference": "follows links out of the project", "--dereference-command-line": "follows links"}
_WC_BLOCKED = {"--files0-from": "reads file names from a file"}
# find: tests and actions that only look, with how many words each takes.
_FIND_PRIMARIES = {
    **dict.fromkeys(
        [
            "-print",
            "-print0",
            "-ls",
            "-prune",
            "-quit",
            "-empty",
            "-true",
            "-false",
            "-not",
            "-a",
            "-and",
            "-o",
            "-or",
            "-depth",
            "-xdev",
            "-mount",
            "-noleaf",
            "-readable",
            "-writable",
            "-executable",
            "-nouser",
            "-nogroup",
            "(",
            ")",
            "!",
            ",",
        ],
        0,
    ),
    **dict.fromkeys(
        [
            "-name",
            "-iname",
            "-path",
            "-ipath",
            "-wholename",
            "-iwholename",
            "-regex",
            "-iregex",
            "-regextype",
            "-type",
            "-xtype",
            "-size",
            "-mtime",
            "-mmin",
            "-atime",
            "-amin",
            "-ctime",
            "-cmin",
            "-maxdepth",
            "-mindepth",
            "-perm",
            "-user",
            "-group",
            "-uid",
            "-gid",
            "-links",
            "-inum",
            "-printf",
            "-lname",
            "-ilname",
            "-used",
            "-fstype",
        ],
        1,
    ),
    **dict.fromkeys(["-newer", "-anewer", "-cnewer", "-samefile"], -1),  # one word, a file
}
_FIND_REFUSED = {
    "-exec": "runs a command",
    "-execdir": "runs a command",
    "-ok": "runs a command",
    "-okdir": "runs a command",
    "-delete": "deletes files",
    "-fprint": "writes a file",
    "-fprint0": "writes a file",
    "-fprintf": "writes a file",
    "-fls": "writes a file",
    "-follow": "follows links out of the project",
}
NAMES = ("ls", "pwd", "cat", "head", "tail", "wc", "sort", "uniq", "grep", "rg", "find", "git")
"""The programs of the list (git: only `status`, `diff`, `log` and `show`)."""


def judge(words: Words) -> ReadOnly | str | None:
    """Is this command, as written, read-only? `ReadOnly`, a reason it is not, or None (not listed)."""
    if not words or words[0] not in NAMES:
        return None
    name = words[0]
    if any(word is None for word in words):
        return f"{name}: a word is only known at run time"
    if any(isinstance(word, Glob) for word in words):
        return f"{name}: a pattern ({next(w for w in words if isinstance(w, Glob))}) may name any file"
    args = tuple(w for w in words[1:] if w is not None)
    match name:
        case "git":
            return _git(args)
        case "tail":
            found = _parse(name, args, _TAIL)
            if isinstance(found, ReadOnly) and any(p.startswith("+") and "f" in p.lower() for p in found.paths):
                return "tail +…f follows the file and never ends"
            return found
        case "sort":
            return _parse(name, args, _SORT)
        case "uniq":
            found = _parse(name, args, _UNIQ)
            if isinstance(found, ReadOnly) and len(found.paths) > 1:
                return "uniq INPUT OUTPUT writes its second file"
            return found
        case "rg":
            return _rg(args)
        case "find":
            return _find(args)
        case "grep":
            return _blocked(name, args, _GREP_BLOCKED, _GREP_BLOCKED_SHORT, files="f")
        case "ls":
            return _blocked(name, args, _LS_BLOCKED, {"L": "follows links out of the project"})
        case "wc":
            return _blocked(name, args, _WC_BLOCKED, {})
        case _:  # pwd, cat, head: no option writes or runs anything
            return _blocked(name, args, {}, {})


def _parse(name: str, args: tuple[str, ...], known: _Known, seen: set[str] | None = None) -> ReadOnly | str:
    """Options as getopt reads them (permuted, `--` ends them); any unknown one refuses.
    `seen` collects the options found (`-e`, `--regexp`)."""
    seen = set() if seen is None else seen
    notes = dict(known.notes)
    paths: list[str] = []
    index = 0
    while index < len(args):
        word = args[index]
        index += 1
        if word == "--":
            paths += args[index:]
            break
        if word.startswith("--"):
            option, equals, _ = word.partition("=")
            seen.add(option)
            if option in known.long_flags and not equals:
                continue
            if option in known.long_valued:
                index += 0 if equals else 1
                continue
            return f"{name} {option} {notes.get(option, 'is not an option known to be read-only')}"
        if word.startswith("-") and len(word) > 1:
            if known.extra is not None and known.extra.fullmatch(word):
                continue
            for position, letter in enumerate(word[1:], start=1):
                seen.add(f"-{letter}")
                if letter in known.valued:
                    index += 0 if word[position + 1 :] else 1
                    break
                if letter not in known.flags:
                    why = notes.get(f"-{letter}", "is not an option known to be read-only")
                    return f"{name} -{letter} {why}"
            continue
        paths.append(word)
    if index > len(args):
        return f"{name}: an option lacks its value"
    return ReadOnly(name, tuple(paths))


def _blocked(
    name: str, args: tuple[str, ...], blocked: dict[str, str], short: dict[str, str], files: str = ""
) -> ReadOnly | str:
    """Any option but the blocked ones (and their abbreviations); every other word is a path."""
    paths: list[str] = []
    ended = False
    for word in args:
        if word == "--" and not ended:
            ended = True
            continue
        if ended:
            paths.append(word)  # an operand, even `-x`: `-/../../x` is a path
        if not word.startswith("-") or word == "-":
            if not ended:
                paths.append(word)
            continue
        if word.startswith("--"):
            option, equals, value = word.partition("=")
            for full, why in blocked.items():
                if len(option) > 2 and full.startswith(option):
                    return f"{name} {full} {why}"
            if equals:
                paths.append(value)  # `--file=x`, `--since=…`: checked as a path, to be safe
            continue
        for position, letter in enumerate(word[1:], start=1):
            if letter in short:
                return f"{name} -{letter} {short[letter]}"
            if letter in files and word[position + 1 :]:
                paths.append(word[position + 1 :])  # `grep -fFILE`
                break
    return ReadOnly(name, tuple(paths))


def _git(args: tuple[str, ...]) -> ReadOnly | str | None:
    index = 0
    while index < len(args) and args[index].startswith("-"):
        if args[index] not in _GIT_OPTIONS:
            return f"git {args[index]}: only --no-pager, -P and --no-optional-locks may come before the subcommand"
        index += 1
    if index == len(args) or args[index] not in _GIT_SUBCOMMANDS:
        return None if index == len(args) else f"git {args[index]}: only status, diff, log and show are read-only"
    subcommand, rest = args[index], args[index + 1 :]
    if any("%G" in word for word in rest):
        return f"git {subcommand}: a %G format runs gpg"
    found = _blocked(f"git {subcommand}", rest, _GIT_BLOCKED, _GIT_BLOCKED_SHORT)
    if isinstance(found, str):
        return found
    return ReadOnly(f"git {subcommand}", found.paths, git=True)


def _rg(args: tuple[str, ...]) -> ReadOnly | str:
    seen: set[str] = set()
    found = _parse("rg", args, _RG, seen)
    if isinstance(found, str):
        return found
    given = bool(seen & {"-e", "-f", "--regexp", "--file"})  # then no word is the pattern
    targets = found.paths if given else found.paths[1:]
    if not targets:
        return "rg with no file searches a whole folder"
    # Every word, pattern included, is checked as a path; none may be a folder (rg searches it all).
    return ReadOnly("rg", found.paths, folders=False)


def _find(args: tuple[str, ...]) -> ReadOnly | str:
    index = 0
    while index < len(args) and args[index] in ("-H", "-P"):
        index += 1
    paths: list[str] = []
    while index < len(args) and not args[index].startswith(("-", "(", "!", ",")):
        paths.append(args[index])
        index += 1
    while index < len(args):
        word = args[index]
        if word in _FIND_REFUSED:
            return f"find {word} {_FIND_REFUSED[word]}"
        arity = _FIND_PRIMARIES.get(word)
        if arity is None:
            return f"find {word}: not a test known to be read-only"
        if abs(arity) and index + 1 >= len(args):
            return f"find {word}: lacks its value"
        if arity < 0:
            paths.append(args[index + 1])
        index += 1 + abs(arity)
    return ReadOnly("find", tuple(paths))
