"""The two ways the read-only list reads a command's options (see `decode.permissions.readonly`).

- **known only** (`parse`): options are parsed as getopt parses them, and any option not listed
  (an abbreviation such as `--out` included) means the command is not read-only;
- **any but the blocked** (`blocked`): every word starting with `-` is read as an option, even
  after `--`, and compared with the blocked names *and their abbreviations* (GNU tools and git
  accept `--outp` for `--output`); the value of `--opt=VALUE` is a path the gate checks. No option
  is taken to consume the next word, so a value is either checked as an option or as a path.
"""

import re
from dataclasses import dataclass


@dataclass(frozen=True)
class ReadOnly:
    """A command the built-in list lets run: its name and the words the gate must find inside the project."""

    name: str
    paths: tuple[str, ...]
    folders: bool = True  # may a path be a folder (`rg` reads every file in one: it may not)
    git: bool = False  # git: only where the project cannot pass for a bare repository


@dataclass(frozen=True)
class Known:
    """Options parsed exactly: short letters without and with a value, long names likewise."""

    flags: str = ""
    valued: str = ""
    long_flags: frozenset[str] = frozenset()
    long_valued: frozenset[str] = frozenset()
    extra: re.Pattern[str] | None = None  # other option words allowed whole (`tail -5`)
    notes: tuple[tuple[str, str], ...] = ()  # why some options refuse (`-f`: never ends)


def known_options(
    flags: str = "",
    valued: str = "",
    long_flags: str = "",
    long_valued: str = "",
    extra: str = "",
    notes: dict[str, str] | None = None,
) -> Known:
    """A `Known`, its long options written as one string and its notes as a dict."""
    return Known(
        flags,
        valued,
        frozenset(long_flags.split()),
        frozenset(long_valued.split()),
        re.compile(extra) if extra else None,
        tuple((notes or {}).items()),
    )


def parse(name: str, args: tuple[str, ...], known: Known, seen: set[str] | None = None) -> ReadOnly | str:
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


def blocked(
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
