"""Bash rule patterns as Claude Code writes them, matched against the words a command runs.

    Bash(npm test)          exactly `npm test`
    Bash(git diff:*)        `git diff`, alone or followed by more words (not `git difftool`)
    Bash(ls *)              the same: a trailing ` *` is optional and starts a new word (not `lsof`)
    Bash(ls*)               `ls`, `lsof`, `ls -la`: a `*` stands for any text, spaces included
    Bash(git * main)        `git` … `main`: `git push origin main`, `git checkout main`
    Bash(*appsettings*)     every command that mentions `appsettings`
    Bash(echo \\*)          a `\\*` (or a quoted `*`) is a star, not a wildcard

The gate does not compare text: it compares the words the shell will run (quotes removed,
wrappers and `/bin/` seen through, `shell.py` and `commands.py`). So a rule is read into words
the same way, and matched against the command's words joined by a separator no word holds: a
`*` may cover part of a word, whole words or none, the rule's other characters only match
inside one word. A word known only at run time (`$VAR`) may become any words or none: where the
rule's answer depends on it, the answer is "cannot tell" (None), which never allows.
"""

import re
from collections.abc import Sequence
from dataclasses import dataclass
from functools import lru_cache

from decode.permissions.shell_glob import Glob

_SEP = "\x00"  # between words: no word of a command holds a NUL
_STAR = object()  # a wildcard: any text, separators included
_ONE = object()  # one character (a `?` or `[…]` of a bash glob)
Token = str | object


@dataclass(frozen=True)
class CommandPattern:
    """A Bash rule's specifier, read: its literal words and how it matches."""

    words: tuple[str, ...]  # the words of the rule without a wildcard (`Bash(cat .env)`: cat, .env)
    regex: re.Pattern[str]
    shapes: tuple[tuple[Token, ...], ...]  # the same as token lists, one per way the rule can match
    inner_wildcard: bool  # a `*` other than a trailing ` *` or `:*`
    first: str | None  # the first word, when it holds no `*`: most commands differ there
    by_name: "CommandPattern | None" = None  # `/usr/bin/curl x` as `curl x`, for a deny or ask

    @property
    def is_prefix(self) -> bool:
        """`git diff:*` or `git diff *`: the words, then anything or nothing."""
        return len(self.shapes) > 1


class PatternError(ValueError):
    """A Bash specifier that cannot be read; the message says why."""


class JoinedCommands(PatternError):
    """A specifier with `&&`, `|`, `;`, `>`…: it can never match one command."""


_OPERATORS = ("&&", "||", "2>&1", ">>", ";", "|", "&", ">", "<")


def _split(text: str) -> list[list[Token]]:
    """Words of a specifier, each a list of characters and `_STAR`s (unquoted, unescaped `*`)."""
    words: list[list[Token]] = []
    word: list[Token] = []
    in_word, quote = False, ""
    chars = iter(text)
    for char in chars:
        if quote:
            if char == quote:
                quote = ""
            elif char == "\\" and quote == '"':
                following = next(chars, "")
                word.extend(following if following in '"\\$`' else "\\" + following)
            else:
                word.append(char)
            continue
        if char.isspace():
            in_word = False
            continue
        if not in_word:
            in_word, word = True, []
            words.append(word)
        if char in "'\"":
            quote = char
        elif char in ";|&<>":
            raise JoinedCommands(_joined(text))
        elif char == "\\":
            following = next(chars, None)
            if following is None:
                raise PatternError("it ends with a lone backslash")
            word.append(following)
        else:
            word.append(_STAR if char == "*" else char)
    if quote:
        raise PatternError("No closing quotation")
    return words


def _joined(text: str) -> str:
    """Why a specifier holding a shell operator (`cd x && make`) is refused, naming the operator."""
    operator = next((op for op in _OPERATORS if op in text), "an operator")
    return (
        f"`{operator}` is the shell's, and the gate judges each command of a script on its own: "
        "a Bash rule names one command; write one rule per command"
    )


@lru_cache(maxsize=1024)
def command_pattern(specifier: str) -> CommandPattern:
    """Read a Bash specifier (`git diff:*`, `npm run test*`), or raise `PatternError`."""
    legacy = specifier.endswith(":*")
    words = _split(specifier[:-2] if legacy else specifier)
    if not words:
        raise PatternError("no command" + (" before :*" if legacy else ""))
    stars = sum(token is _STAR for word in words for token in word)
    if legacy and stars:
        raise PatternError("`:*` ends a prefix of plain words; with other wildcards write ` *` instead")
    if any(word[i] == ":" and word[i + 1] is _STAR for word in words for i in range(len(word) - 1)):
        raise PatternError("`:*` may only end the rule, as in Bash(git diff:*)")
    # A single trailing ` *` (and `:*`) is optional: `ls *` is `ls` too, never `lsof`.
    optional = legacy or (stars == 1 and words[-1] == [_STAR] and len(words) > 1)
    body = words[:-1] if optional and not legacy else words
    shape: list[Token] = []
    for index, word in enumerate(body):
        shape.extend([_SEP] if index else [])
        shape.extend(word)
    shapes = (tuple(shape), (*shape, _SEP, _STAR)) if optional else (tuple(shape),)
    regex = "".join(re.escape(t) if isinstance(t, str) else ".*" for t in shape)
    if optional:
        regex += f"(?:{_SEP}.*)?"
    literal = tuple("".join(t for t in w if isinstance(t, str)) for w in words if _STAR not in w)
    inner = stars > (1 if optional and not legacy else 0)
    first = "".join(t for t in words[0] if isinstance(t, str)) if _STAR not in words[0] else None
    by_name = None
    if first is not None and "/" in first.rstrip("/") and specifier.startswith(first):
        # `Bash(/usr/bin/curl:*)` denies `curl x` and `/bin/curl x` too: the program by any path.
        by_name = command_pattern(first.rstrip("/").rsplit("/", 1)[1] + specifier[len(first) :])
    return CommandPattern(literal, re.compile(regex, re.DOTALL), shapes, inner, first, by_name)


def pattern_matches(pattern: CommandPattern, words: Sequence[str | None], *, broad: bool = False) -> bool | None:
    """Does the pattern match these words? None: it depends on a word known only at run time.

    For a deny or ask rule (`broad`), a file-name pattern (a `Glob`: `r?`) is every name it could
    expand to, so a possible match is a match: `/bin/r? x` is `rm x`. Such a rule whose program
    is a path also matches the program by its name (`/usr/bin/curl` denies `curl`).
    """
    if broad and pattern.by_name is not None:
        answers = (_matches(pattern, words, broad=True), _matches(pattern.by_name, words, broad=True))
        return True if True in answers else None if None in answers else False
    return _matches(pattern, words, broad=broad)


def _matches(pattern: CommandPattern, words: Sequence[str | None], *, broad: bool) -> bool | None:
    head = words[0] if words else None
    # The first word decides most rules: no need to read the rest (a deny reads a glob as any word).
    if (
        pattern.first is not None
        and head is not None
        and head != pattern.first
        and not (broad and isinstance(head, Glob))
    ):
        return False
    if None not in words and not (broad and any(isinstance(word, Glob) for word in words)):
        return pattern.regex.fullmatch(_SEP.join(words)) is not None  # ty: ignore[no-matching-overload]
    globs = [broad and isinstance(word, Glob) for word in words]
    command = _tokens(words, globs)
    possible = any(_overlap(shape, command) for shape in pattern.shapes)
    if None not in words:
        # A glob that could be a word the rule spells is that word (`r? x`: `rm x`); one a `*` of
        # the rule could meet (`cat */*` for `*appsettings*`) might be: cannot tell.
        literal = pattern.regex.fullmatch(_SEP.join(words)) is not None  # ty: ignore[no-matching-overload]
        return True if literal or (possible and not pattern.inner_wildcard) else None if possible else False
    if not possible:
        return False
    # Certain only when a wildcard takes whatever the unknown words become, none included.
    unknown = _SEP.join("\x01" if w is None else w for w in words)
    gone = _SEP.join(w for w in words if w is not None)
    certain = pattern.regex.fullmatch(unknown) is not None and pattern.regex.fullmatch(gone) is not None
    return True if certain else None


def _tokens(words: Sequence[str | None], globs: Sequence[bool]) -> list[Token]:
    """A command as tokens: a run-time word is any text (no separators around it: it may be none)."""
    tokens: list[Token] = []
    for index, word in enumerate(words):
        if word is None:
            tokens.append(_STAR)
            continue
        if index and words[index - 1] is not None:
            tokens.append(_SEP)
        tokens.extend(_glob_tokens(word) if globs[index] else word)
    return tokens


def _glob_tokens(word: str) -> list[Token]:
    """A bash glob as tokens, wider than bash (a `*` may cover `/` or a leading dot: never narrower)."""
    tokens: list[Token] = []
    i = 0
    while i < len(word):
        char = word[i]
        if char == "*":
            tokens.append(_STAR)
        elif char == "?":
            tokens.append(_ONE)
        elif char == "[" and (end := _bracket_end(word, i)) != -1:
            tokens.append(_ONE)
            i = end
        elif char == "\\" and i + 1 < len(word):
            i += 1
            tokens.append(word[i])
        else:
            tokens.append(char)
        i += 1
    return tokens


def _bracket_end(word: str, start: int) -> int:
    """Where the `[…]` opened at `start` closes (`[!]a]`, `[[:lower:]]` included), or -1."""
    i = start + 1
    i += word[i : i + 1] in ("!", "^")
    i += word[i : i + 1] == "]"  # a `]` first is one of the set
    while i < len(word):
        if word.startswith("[:", i) and (close := word.find(":]", i + 2)) != -1:
            i = close + 2
        elif word[i] == "]":
            return i
        else:
            i += 1
    return -1


def _overlap(left: Sequence[Token], right: Sequence[Token]) -> bool:
    """Is there a text both token lists match? (`_STAR`: any text; `_ONE`: one character.)"""
    seen: set[tuple[int, int]] = set()
    todo = [(0, 0)]
    while todo:
        i, j = todo.pop()
        if (i, j) in seen:
            continue
        seen.add((i, j))
        if i == len(left) and j == len(right):
            return True
        a = left[i] if i < len(left) else None
        b = right[j] if j < len(right) else None
        if a is _STAR:
            todo += [(i + 1, j)] + ([(i, j + 1)] if b is not None else [])
        elif b is _STAR:
            todo += [(i, j + 1)] + ([(i + 1, j)] if a is not None else [])
        elif a is not None and b is not None and (a == b or ((a is _ONE) != (b is _ONE) and _SEP not in (a, b))):
            todo.append((i + 1, j + 1))
    return False
