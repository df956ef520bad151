"""Files an option names without a space: `-t.git`, `-o.git/config`, `-d@.env`, `tar -C /etc shadow`.

GNU programs take a short option's value glued to it (`cp -t.git/hooks x` is `cp -t .git/hooks x`),
and after other short options (`curl -sSLo.git/config`). Which letter takes a value is each
program's own business, so each tail of a leading run of letters counts as a value that may
name a file: `-sSLo.git/config` gives `SLo.git/config` … `.git/config` (past the first letter,
only a tail that is not all letters: `-la` gives `a`). These words only ever make the gate
ask or deny (a secret file, a protected folder, a Read or Edit deny): a guess that names
nothing costs nothing, and no allow rule is widened by it.

curl's `@file` (`-d@.env`, `-F f=@/etc/shadow`) names the file after the `@`. tar's `-C DIR`
makes the names after it relative to DIR: `tar -cf - -C /etc shadow` reads `/etc/shadow`.
"""

import posixpath
from collections.abc import Sequence

_TARS = frozenset({"tar", "gtar", "bsdtar"})


def attached_values(word: str) -> list[str]:
    """The values an option word may carry (`-t.git` -> `.git`; `--out=@f` -> `f`); [] for none."""
    if word.startswith("--"):
        return [_file(word.partition("=")[2])] if "=" in word else []
    if not word.startswith("-"):
        return [_file(word.partition("=")[2])] if "=" in word else []  # `f=@/etc/shadow`
    values: list[str] = []
    for index in range(1, len(word)):
        if not word[index].isalnum():
            break
        tail = word[index + 1 :]
        # Every tail of `-la` would be a lot of words for little: past the first letter, only a
        # tail with a `.`, `/` or `@` (`-sSLo.git/config`) is taken for a file.
        if tail and (index == 1 or not tail.isalnum()):
            values.append(_file(tail))
    return [value for value in values if value]


def _file(value: str) -> str:
    """curl's `@file` names `file`."""
    return value.removeprefix("@")


def tar_paths(words: Sequence[str | None]) -> list[str]:
    """For tar, each name after `-C DIR` (`--directory=DIR`, `-CDIR`) as DIR/name."""
    if not words or words[0] is None or posixpath.basename(words[0]) not in _TARS:
        return []
    found: list[str] = []
    directory: str | None = None
    expect_directory = False
    for word in words[1:]:
        if word is None:
            expect_directory = False
            continue
        if expect_directory:
            directory, expect_directory = word, False
        elif word in ("-C", "--directory"):
            expect_directory = True
        elif word.startswith("--directory="):
            directory = word.partition("=")[2]
        elif word.startswith("-") and not word.startswith("--") and "C" in word:
            head, _, tail = word.partition("C")  # `-xC.git`, `-C/etc`; `-xC` takes the next word
            directory = tail if tail else directory
            expect_directory = not tail and head.strip("-").isalpha()
        elif directory and not word.startswith("-"):
            found.append(posixpath.join(directory, word))
    return found
