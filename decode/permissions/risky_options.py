"""What some programs do that a deny must see: `set -k`, `git -c core.pager=…`, `xargs -I R`.

Each is a small reading of one program's options; `decode.permissions.commands` asks them.
"""

from decode.permissions.command_reading import Found, Words, at
from decode.permissions.wrappers import GLOBALS, wrapped

_SAFE_SET = frozenset({"-e", "+e", "-u", "+u", "-x", "+x", "-v", "+v", "-eu", "-ue", "-eux", "-euo", "-eo", "-o", "+o"})
_SAFE_SET_OPTIONS = frozenset({"errexit", "nounset", "pipefail", "xtrace", "verbose"})


def risky_set(words: Words) -> bool:
    """`set -e`, `set -euo pipefail` are harmless; `set -k`, `set -a`, `set +B`… change what runs."""
    for index, word in enumerate(words[1:], start=1):
        if word is None or (word not in _SAFE_SET and word not in _SAFE_SET_OPTIONS):
            return True
        if word in ("-o", "+o", "-euo", "-eo") and at(words, index + 1) not in _SAFE_SET_OPTIONS:
            return True
    return False


def git_config(words: Words, found: Found) -> None:
    """`git -c core.pager='rm x' log`, `-c alias.x='!rm x'`: git runs configuration values as commands."""
    # git's own options end where its subcommand starts: after the longest reading of them (`-C x -c …`).
    cores = wrapped(words, GLOBALS["git"], "git", Found([], [], [], []))
    end = len(words) - min((len(core) for core in cores), default=0)
    for index, word in enumerate(words[1:end], start=1):
        if word in ("-c", "--config-env") or (word or "").startswith("--config-env="):
            value = at(words, index + 1) if word in ("-c", "--config-env") else (word or "").partition("=")[2]
            found.hazards.append("git -c sets configuration that git may run as a command")
            found.scripts.append(None if value is None else value.partition("=")[2].removeprefix("!"))
            found.scripts.append(None)


def replace_string(words: Words) -> str | None:
    """The string `xargs -I R` (`-i`, `--replace`) replaces with what it reads, if it does."""
    for index, word in enumerate(words[1:], start=1):
        if word is None or word == "--" or not word.startswith("-"):
            break
        if word.startswith("-I"):
            return word[2:] or at(words, index + 1)
        if word.startswith("--replace"):
            return word.partition("=")[2] or "{}"
        if word.startswith("-i"):
            return word[2:] or "{}"
    return None


def replaced(core: Words, marker: str | None) -> Words:
    """`xargs -I{} sh -c 'rm {}'`: words holding the replace string are only known at run time."""
    if not marker:
        return core
    return tuple(None if w is None or marker in w else w for w in core)
