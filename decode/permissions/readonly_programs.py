"""The programs of the read-only list: the options each may take, and how git, rg and find are read.

`tail`, `sort`, `uniq` and `rg` take only the options listed here (`readonly_options.parse`);
`grep`, `ls`, `wc` and git's subcommands any but the blocked ones (`readonly_options.blocked`).
`find` takes only the tests and actions that look, never `-exec` or `-delete`.
"""

from decode.permissions.readonly_options import ReadOnly, blocked, known_options, parse

_NEVER_ENDS = "follows the file and never ends"
_TAIL = known_options(
    "qvz",
    "nc",
    "--quiet --silent --verbose --zero-terminated",
    "--lines --bytes",
    r"-[0-9]+[bcl]?",
    {"-f": _NEVER_ENDS, "-F": _NEVER_ENDS, "--follow": _NEVER_ENDS, "--retry": _NEVER_ENDS, "--pid": _NEVER_ENDS},
)
_SORT = known_options(
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
_UNIQ = known_options(
    "cdDiuz",
    "fsw",
    "--count --repeated --ignore-case --unique --zero-terminated",
    "--skip-fields --skip-chars --check-chars",
)
_RG = known_options(
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
_FIND_ZERO = """
    -print -print0 -ls -prune -quit -empty -true -false -not -a -and -o -or -depth -xdev -mount -noleaf
    -readable -writable -executable -nouser -nogroup ( ) ! ,
"""
_FIND_ONE = """
    -name -iname -path -ipath -wholename -iwholename -regex -iregex -regextype -type -xtype -size -mtime
    -mmin -atime -amin -ctime -cmin -maxdepth -mindepth -perm -user -group -uid -gid -links -inum -printf
    -lname -ilname -used -fstype
"""
_FIND_PRIMARIES = {
    **dict.fromkeys(_FIND_ZERO.split(), 0),
    **dict.fromkeys(_FIND_ONE.split(), 1),
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


def read_options(name: str, args: tuple[str, ...]) -> ReadOnly | str | None:
    """How `name` (on the list) reads `args`: `ReadOnly`, a reason it is not, or None (git: not listed)."""
    match name:
        case "git":
            return _git(args)
        case "tail":
            found = parse(name, args, _TAIL)
            if isinstance(found, ReadOnly) and any(p.startswith("+") and "f" in p.lower() for p in found.paths):
                return "tail +…f follows the file and never ends"
            return found
        case "sort":
            return parse(name, args, _SORT)
        case "uniq":
            found = parse(name, args, _UNIQ)
            if isinstance(found, ReadOnly) and len(found.paths) > 1:
                return "uniq INPUT OUTPUT writes its second file"
            return found
        case "rg":
            return _rg(args)
        case "find":
            return _find(args)
        case "grep":
            return blocked(name, args, _GREP_BLOCKED, _GREP_BLOCKED_SHORT, files="f")
        case "ls":
            return blocked(name, args, _LS_BLOCKED, {"L": "follows links out of the project"})
        case "wc":
            return blocked(name, args, _WC_BLOCKED, {})
        case _:  # pwd, cat, head: no option writes or runs anything
            return blocked(name, args, {}, {})


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
    found = blocked(f"git {subcommand}", rest, _GIT_BLOCKED, _GIT_BLOCKED_SHORT)
    if isinstance(found, str):
        return found
    return ReadOnly(f"git {subcommand}", found.paths, git=True)


def _rg(args: tuple[str, ...]) -> ReadOnly | str:
    seen: set[str] = set()
    found = parse("rg", args, _RG, seen)
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
