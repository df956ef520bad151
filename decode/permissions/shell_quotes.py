"""Quote removal and bracket matching on a shell word's raw text, the way bash reads it.

`r\\m` is `rm`, `"a\\$b"` is `a$b`, `$'\\x72m'` is `rm`; `closing` and `matching` skip quoted text
to find where a quote or a bracket ends (brace expansion and glob patterns need both).
"""

import codecs
import re


def closing(text: str, start: int, quote: str) -> int:
    """The index of the `quote` that closes a quoted text opened before `start`, or len(text)."""
    index = start
    while index < len(text) and text[index] != quote:
        index += 2 if text[index] == "\\" and quote == '"' else 1
    return index


def matching(text: str, start: int) -> int:
    """The index of the bracket closing the one at `start` (quotes skipped), or len(text)."""
    opening = text[start]
    closer = "}" if opening == "{" else ")"
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char in "'\"":
            index = closing(text, index + 1, char) + 1
            continue
        if char == opening:
            depth += 1
        elif char == closer:
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return len(text)


_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_QUOTED_ESCAPE = re.compile(r'\\([$`"\\\n])')


def unescape(word: str) -> str:
    """Quote removal for an unquoted word: `r\\m` is `rm`, a backslash-newline disappears."""
    if "\\" not in word:
        return word
    return _ESCAPE.sub(r"\1", word.replace("\\\n", ""))


def unescape_double_quoted(body: str) -> str:
    """Inside double quotes only `\\$`, `` \\` ``, `\\"`, `\\\\` and backslash-newline are escapes."""
    if "\\" not in body:
        return body
    return _QUOTED_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), body)


def ansi_c(body: str) -> str | None:
    """`$'\\x72m'` is `rm`: decode the escapes, or give up (None) on anything unusual."""
    if not body.isascii():
        return None
    try:
        return codecs.decode(body, "unicode_escape")
    except UnicodeDecodeError:
        return None
