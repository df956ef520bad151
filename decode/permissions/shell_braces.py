"""Bash's brace expansion, done before anything runs: `{rm,x} y` runs `rm x y`, `{1..3}` is `1 2 3`.

Bash expands braces before it looks up the command, so a deny rule for `rm` must see the
expansion of `{rm,x}`. `expand_braces` expands one raw word; `alternatives` gives a command's
words after expansion (and each expansion of its name as the name); `dequote` removes the quotes
of each resulting word.
"""

from __future__ import annotations

import re
from typing import TYPE_CHECKING

from decode.permissions.shell_glob import Glob
from decode.permissions.shell_quotes import ansi_c, closing, matching, unescape_double_quoted
from decode.permissions.shell_script import Words

if TYPE_CHECKING:
    from tree_sitter import Node

BRACE_EXPANSION = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")
"""A brace a word expands (a comma or a `..` inside): the word is only known after expansion."""
_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")
_MAX_EXPANSIONS = 64


def alternatives(nodes: list[Node], raws: list[str], words: Words) -> tuple[Words, ...]:
    """The command's words after brace expansion, and each expansion of its name as the name."""
    expanded: list[str | None] = []
    braced = False
    name_options: list[str | None] = []
    for index, node in enumerate(nodes):
        text = raws[index]
        if "{" in text and node.type in ("word", "concatenation", "brace_expression", "command_name"):
            options = expand_braces(text)
            if options is not None and options != [text]:
                braced = True
                values = [v for v in (dequote(option) for option in options) if v != ""]
                expanded.extend(values)
                if index == 0:
                    name_options = values
                continue
        expanded.append(words[index])
    if not braced:
        return ()
    forms: list[Words] = [tuple(expanded)]
    forms += [(option, *words[1:]) for option in name_options]
    return tuple(dict.fromkeys(forms))


def expand_braces(text: str) -> list[str] | None:
    """Bash's brace expansion of one raw word (`a{b,c}` → `ab ac`, `{1..3}`), None past 64 words."""
    results: list[str] = []
    pending = [text]
    while pending:
        current = pending.pop(0)
        found = _find_brace(current)
        if found is None:
            results.append(current)
        else:
            start, end, options = found
            pending[0:0] = [current[:start] + option + current[end + 1 :] for option in options]
        if len(results) + len(pending) > _MAX_EXPANSIONS:
            return None
    return results


def _find_brace(text: str) -> tuple[int, int, list[str]] | None:
    """The first `{…}` bash would expand in raw text: (start, end, its alternatives)."""
    index, length = 0, len(text)
    while index < length:
        char = text[index]
        if char == "\\":
            index += 2
        elif char == "'":
            index = closing(text, index + 1, "'") + 1
        elif char == '"':
            index = closing(text, index + 1, '"') + 1
        elif char == "$" and index + 1 < length and text[index + 1] in "{(":
            index = matching(text, index + 1) + 1
        elif char == "{":
            end = matching(text, index)
            if end >= length:
                return None
            inner = text[index + 1 : end]
            options = _split_commas(inner)
            if len(options) > 1:
                return index, end, options
            sequence = _sequence(inner)
            if sequence is not None:
                return index, end, sequence
            index += 1
        else:
            index += 1
    return None


def _split_commas(inner: str) -> list[str]:
    parts, depth, start, index = [], 0, 0, 0
    while index < len(inner):
        char = inner[index]
        if char == "\\":
            index += 2
            continue
        if char in "'\"":
            index = closing(inner, index + 1, char) + 1
            continue
        if char == "{":
            depth += 1
        elif char == "}":
            depth -= 1
        elif char == "," and depth == 0:
            parts.append(inner[start:index])
            start = index + 1
        index += 1
    parts.append(inner[start:])
    return parts


def _sequence(inner: str) -> list[str] | None:
    match = _SEQUENCE.fullmatch(inner)
    if match is None:
        return None
    if match.group(1) is not None:
        first, last, step = int(match.group(1)), int(match.group(2)), abs(int(match.group(3) or 1)) or 1
        if abs(last - first) // step > _MAX_EXPANSIONS:
            return [str(first), str(last), "…"]  # too many to list: the ends are what rules see
        sign = 1 if last >= first else -1
        return [str(n) for n in range(first, last + sign, sign * step)]
    first_char, last_char = ord(match.group(4)), ord(match.group(5))
    step = abs(int(match.group(6) or 1)) or 1
    sign = 1 if last_char >= first_char else -1
    return [chr(n) for n in range(first_char, last_char + sign, sign * step)]


def dequote(raw: str) -> str | None:
    """Quote removal on a piece of raw text; None if it expands anything at run time."""
    out: list[str] = []
    glob = False
    index, length = 0, len(raw)
    while index < length:
        char = raw[index]
        if char == "\\":
            out.append(raw[index + 1 : index + 2])
            index += 2
        elif char == "'":
            end = closing(raw, index + 1, "'")
            out.append(raw[index + 1 : end])
            index = end + 1
        elif char == '"':
            end = closing(raw, index + 1, '"')
            body = raw[index + 1 : end]
            if "$" in body or "`" in body:
                return None
            out.append(unescape_double_quoted(body))
            index = end + 1
        elif raw.startswith("$'", index):
            end = index + 2
            while end < length and raw[end] != "'":
                end += 2 if raw[end] == "\\" else 1
            decoded = ansi_c(raw[index + 2 : end])
            if decoded is None:
                return None
            out.append(decoded)
            index = end + 1
        elif char in "$`":
            return None
        else:
            glob = glob or char in "*?["
            out.append(char)
            index += 1
    value = "".join(out)
    return Glob(value) if glob else value
