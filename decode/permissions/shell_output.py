"""What a pipeline stage prints, when the script says: `echo x | sh` runs `x`.

A shell fed by `echo`, `printf` or a `cat` of a here-doc runs text the script spells out; the
walker reads that text as a script of its own (`decode.permissions.commands`), so a deny sees the
command inside. `printf` is emulated near enough to find commands in what it prints.
"""

import re

from decode.permissions.shell_script import Fed, Words

_ECHO_OPTIONS = ("-n", "-e", "-E", "-ne", "-en")


def printed(words: Words, stdin_text: str | None) -> Fed:
    """What a command with these words prints (True: something unknown): known for `echo`,
    `printf` and a `cat` of its input (`stdin_text`, when the script says what it is)."""
    if not words or None in words:
        return True
    if words[0] == "echo":
        start = 1
        while start < len(words) and words[start] in _ECHO_OPTIONS:
            start += 1
        return " ".join(w for w in words[start:] if w is not None)
    if words[0] == "printf" and len(words) > 1:
        return printf(tuple(w for w in words[1:] if w is not None))
    if words in (("cat",), ("cat", "-")) and stdin_text is not None:
        return stdin_text  # `cat <<EOF | sh`
    return True


_DIRECTIVE = re.compile(r"%(?:%|[-+ #0-9.]*[a-zA-Z])")


def printf(words: tuple[str, ...]) -> str:
    """What `printf FORMAT ARG…` prints, near enough to find commands in it (escapes are decoded
    by the caller): each directive takes the next argument; the format repeats while any remain."""
    if words[:1] == ("--",):
        words = words[1:]
    if not words:
        return ""
    form, args = words[0], list(words[1:])
    out: list[str] = []
    for _ in range(64):
        used = 0

        def fill(match: re.Match[str]) -> str:
            nonlocal used
            if match.group() == "%%":
                return "%"
            used += 1
            return args.pop(0) if args else ""

        out.append(_DIRECTIVE.sub(fill, form))
        if not args or not used:
            break
    return "".join(out) + (" " + " ".join(args) if args else "")
