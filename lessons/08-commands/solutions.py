"""Reference solution to lesson 08's exercise, and a plausible wrong answer (the check rejects it)."""

import posixpath

_PLAIN = {"sudo", "nohup", "time", "command"}


def inner_command(words: tuple[str, ...]) -> tuple[str, ...]:
    """Drop wrappers and their own arguments from the front, then the program's folder."""
    while words:
        name = posixpath.basename(words[0])
        rest = words[1:]
        if name in _PLAIN:
            words = rest
        elif name == "nice":
            words = rest[2:] if rest[:1] == ("-n",) else rest
        elif name == "timeout":
            rest = rest[2:] if rest[:1] == ("-s",) else rest
            words = rest[1:]
        elif name == "env":
            while rest and "=" in rest[0]:
                rest = rest[1:]
            words = rest
        else:
            return (name, *rest)
    return ()


def wrong_inner_command(words: tuple[str, ...]) -> tuple[str, ...]:
    """Drops known wrapper names only: `timeout 5 npm test` comes back as `5 npm test`."""
    while words and posixpath.basename(words[0]) in {*_PLAIN, "nice", "timeout", "env"}:
        words = words[1:]
    return (posixpath.basename(words[0]), *words[1:]) if words else ()
