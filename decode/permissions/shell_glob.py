"""Bash's pattern matching: which names a glob (`*`, `?`, `[…]`, extglob groups) could match.

A word with an unquoted `*`, `?` or `[…]` is a `Glob`: bash replaces it with the file names it
matches. A deny rule must see `r?` as possibly `rm`, and a secret-file check `.e*` as possibly
`.env`: `glob_matches` and `globs_overlap` answer both, wider rather than narrower.
"""

import re
from functools import cache, lru_cache

from decode.permissions.shell_quotes import matching


class Glob(str):
    """A word with an unquoted `*`, `?` or `[…]`: bash may replace it with matching file names.

    It compares equal to its text (an allow rule must name the pattern itself); a deny rule
    matches it when the pattern could expand to the denied word (`r?` could be `rm`).
    """

    __slots__ = ()


_CLASSES = {
    "alpha": "a-zA-Z",
    "alnum": "a-zA-Z0-9",
    "digit": "0-9",
    "lower": "a-z",
    "upper": "A-Z",
    "space": " \\t\\n\\r\\f\\v",
    "blank": " \\t",
    "punct": "!-/:-@\\[-`{-~",
    "print": " -~",
    "graph": "!-~",
    "xdigit": "0-9a-fA-F",
    "word": "a-zA-Z0-9_",
    "cntrl": "\\x00-\\x1f\\x7f",
}


@lru_cache(maxsize=4096)
def _glob_regex(pattern: str) -> re.Pattern[str]:
    """Bash's pattern matching as a regex: `*`, `?`, `[…]` with classes, `\\x`; extglob groups match anything."""
    out: list[str] = []
    index, length = 0, len(pattern)
    while index < length:
        char = pattern[index]
        if char == "\\" and index + 1 < length:
            out.append(re.escape(pattern[index + 1]))
            index += 2
        elif char in "?*+@!" and pattern.startswith("(", index + 1):
            out.append(".*")  # an extglob group: could be anything
            depth, index = 0, index + 1
            while index < length:
                depth += {"(": 1, ")": -1}.get(pattern[index], 0)
                index += 1
                if depth == 0:
                    break
        elif char == "*":
            out.append(".*")
            index += 1
        elif char == "?":
            out.append(".")
            index += 1
        elif char == "[":
            end = index + 1
            if end < length and pattern[end] in "!^":
                end += 1
            if end < length and pattern[end] == "]":
                end += 1
            while end < length and pattern[end] != "]":
                closing = pattern[end + 1 : end + 2] + "]" if pattern[end] == "[" else ""
                if closing[:1] in (":", "=", ".") and closing in pattern[end + 2 :]:
                    end = pattern.index(closing, end + 2) + 2  # `[:alpha:]`, `[=a=]`, `[.a.]`
                else:
                    end += 1
            if end >= length:
                out.append(re.escape(char))
                index += 1
                continue
            body = pattern[index + 1 : end]
            negate = body[:1] in ("!", "^")
            body = body[1:] if negate else body
            rendered = []
            for part in re.split(r"(\[:\w+:\])", body):
                if (named := re.fullmatch(r"\[:(\w+):\]", part)) is not None:
                    rendered.append(_CLASSES.get(named.group(1), "\\s\\S"))  # unknown class: anything
                else:
                    part = re.sub(r"\[[=.](.)[=.]\]", r"\1", part)
                    rendered.append(part.replace("\\", "\\\\").replace("]", "\\]").replace("[", "\\["))
            body = "".join(rendered)
            out.append(f"[{'^' if negate else ''}{body}]" if body else ".")
            index = end + 1
        else:
            out.append(re.escape(char))
            index += 1
    try:
        return re.compile("".join(out), re.DOTALL)
    except re.error:
        return re.compile(".*", re.DOTALL)  # a pattern we cannot read could match anything


_STAR = "*"  # any characters but `/`
_GLOBSTAR = "**"  # any characters (a rule's `**`)
_ONE = re.compile("[^/]")  # `?`


@lru_cache(maxsize=4096)
def _glob_tokens(pattern: str, globstar: bool) -> tuple[str | re.Pattern[str], ...]:
    """A pattern as tokens: `*`, `**` (only when `globstar`), a one-character regex (`?`, `[…]`),
    or a literal character."""
    tokens: list[str | re.Pattern[str]] = []
    index = 0
    while index < len(pattern):
        char = pattern[index]
        if char == "\\" and index + 1 < len(pattern):
            tokens.append(pattern[index + 1])
            index += 2
        elif char in "?*+@!" and pattern.startswith("(", index + 1):
            tokens.append(_STAR)  # an extglob group: anything within a name
            index = matching(pattern, index + 1) + 1
        elif char == "*":
            star = _GLOBSTAR if globstar and pattern.startswith("**", index) else _STAR
            index += 2 if star == _GLOBSTAR else 1
            if not tokens or tokens[-1] not in (_STAR, _GLOBSTAR):
                tokens.append(star)
            elif star == _GLOBSTAR:
                tokens[-1] = _GLOBSTAR
        elif char == "?":
            tokens.append(_ONE)
            index += 1
        elif char == "[" and "]" in pattern[index + 2 :]:
            end = pattern.index("]", index + 2)
            tokens.append(_glob_regex(pattern[index : end + 1]))
            index = end + 1
        else:
            tokens.append(char)
            index += 1
    return tuple(tokens)


@lru_cache(maxsize=4096)
def globs_overlap(pattern: str, other: str) -> bool:
    """Could one name match both bash's `pattern` and `other`, a rule's or a secret-file pattern?

    Bash's `*`, `?` and `[…]` never match a `/`, nor a `.` that starts a name (`*` is not `.env`);
    in `other`, `*` stays within a name and `**` crosses folders (gitignore). Wider, never narrower:
    two character sets are taken to share a character.
    """
    left, right = _glob_tokens(pattern, False), _glob_tokens(other, True)

    def starts_name(i: int) -> bool:
        return i == 0 or left[i - 1] == "/"

    def one(i: int, b: str | re.Pattern[str]) -> bool:
        a = left[i]
        if isinstance(a, str):
            return a == b if isinstance(b, str) else b.fullmatch(a) is not None
        if isinstance(b, str):
            return a.fullmatch(b) is not None and b != "/" and not (b == "." and starts_name(i))
        return True

    @cache
    def meet(i: int, j: int, taken: bool) -> bool:  # `taken`: left[i], a star, took something
        if i == len(left) and j == len(right):
            return True
        if i < len(left) and left[i] == _STAR:
            if meet(i + 1, j, False):
                return True
            if j == len(right) or right[j] == "/" or (right[j] == "." and starts_name(i) and not taken):
                return False
            return meet(i, j + 1, True)  # the star takes right[j] (or what right[j] stands for)
        if j < len(right) and right[j] in (_STAR, _GLOBSTAR):
            if meet(i, j + 1, False):
                return True
            if i == len(left) or (right[j] == _STAR and left[i] == "/"):
                return False
            return meet(i + 1, j, False)
        return i < len(left) and j < len(right) and one(i, right[j]) and meet(i + 1, j + 1, False)

    if len(left) * len(right) > 10_000:
        return True  # too long to compare: it could
    return meet(0, 0, False)


def glob_matches(pattern: str, name: str) -> bool:
    """Could bash's pattern match the file name `name`? (`*` never matches a leading dot.)"""
    if name.startswith(".") and not pattern.startswith("."):
        return False
    return _glob_regex(pattern).fullmatch(name) is not None
