"""What bash does to a script before parsing it, done before tree-sitter reads it.

A backslash-newline inside a word joins it (`r\\⏎m` is `rm`), and a `{` that starts a word is a
brace expansion, not a group; tree-sitter knows neither. `normalise` rewrites the script as bash
tokenises it, with placeholders (`BRACE`, `BRACKET`) that the walker turns back into `{` and `[`.
"""

import re

from decode.permissions.shell_quotes import closing

NEEDS_NORMALISING = re.compile(r"\\\n|(?:^|[\s;&|(){}`])(?:\{[^\s}]|[A-Za-z_]\w*\[)")
"""A script this matches may read differently once normalised (a quick test before the full pass)."""
_SUBSCRIPT_WORD = re.compile(r"[A-Za-z_]\w*\[[^\s;&|()<>=]*(?=[\s;&|()<>]|$)")
BRACE = "\ue000"  # stands for a word-starting `{` while tree-sitter reads the script
BRACKET = "\ue001"  # stands for the `[` of `r[m] x` (a pattern, not an array element)


def normalise(script: str) -> str:
    """The script as bash tokenises it: backslash-newlines removed, word-starting `{` marked.

    Bash removes a backslash-newline everywhere except inside single quotes, `$'…'`, comments
    and quoted here-docs; tree-sitter does not, so `r\\⏎m` would be two words. A `{` that starts
    a word and is not followed by a blank is a brace expansion (`{rm,x}`), which tree-sitter reads
    as a broken group, and `r[m] x` is a pattern, which it reads as a broken array assignment:
    both become placeholders that the walker turns back into `{` and `[`.
    """
    out: list[str] = []
    contexts: list[list] = []  # ['"'], ['`'], [')', depth], ['((', depth]
    heredocs: list[tuple[str, bool, bool]] = []  # (delimiter, quoted, strip tabs) waiting for a newline
    index, length = 0, len(script)
    while index < length:
        char = script[index]
        top = contexts[-1] if contexts else None
        if char == "\\":
            if script.startswith("\\\n", index):
                index += 2
                continue
            out.append(script[index : index + 2])
            index += 2
            continue
        if top is not None and top[0] == '"':
            if char == '"':
                contexts.pop()
            elif char == "`":
                contexts.append(["`"])
            elif script.startswith("$(", index):
                contexts.append(["((", 0] if script.startswith("$((", index) else [")", 0])
                out.append("$(")
                index += 2
                continue
            out.append(char)
            index += 1
            continue
        arithmetic = top is not None and top[0] == "(("
        previous = out[-1][-1:] if out else "\n"
        word_start = previous in " \t\n;&|(){}`" or previous == ""
        if char == "'" and not arithmetic:
            end = script.find("'", index + 1)
            end = length - 1 if end < 0 else end
            out.append(script[index : end + 1])
            index = end + 1
        elif script.startswith("$'", index) and not arithmetic:
            end = index + 2
            while end < length and script[end] != "'":
                end += 2 if script[end] == "\\" else 1
            out.append(script[index : end + 1])
            index = end + 1
        elif char == "#" and word_start and not arithmetic:
            end = script.find("\n", index)
            end = length if end < 0 else end
            out.append(script[index:end])
            index = end
        elif char == '"':
            contexts.append(['"'])
            out.append(char)
            index += 1
        elif char == "`":
            if top is not None and top[0] == "`":
                contexts.pop()
            else:
                contexts.append(["`"])
            out.append(char)
            index += 1
        elif script.startswith("$((", index) or (script.startswith("((", index) and word_start):
            start = 3 if char == "$" else 2
            contexts.append(["((", 1])
            out.append(script[index : index + start])
            index += start
        elif script.startswith("$(", index):
            contexts.append([")", 0])
            out.append("$(")
            index += 2
        elif char == "(" and top is not None and top[0] in (")", "(("):
            top[1] += 1
            out.append(char)
            index += 1
        elif char == ")" and top is not None and top[0] in (")", "(("):
            if top[1] == 0 or (top[0] == "((" and top[1] == 1 and script.startswith("))", index)):
                contexts.pop()
                if top[0] == "((":
                    out.append(")")
                    index += 1
            else:
                top[1] -= 1
            out.append(char)
            index += 1
        elif script.startswith("<<", index) and not script.startswith("<<<", index) and not arithmetic:
            index = _heredoc_operator(script, index, out, heredocs)
        elif char == "{" and word_start and index + 1 < length and script[index + 1] not in " \t\n}":
            out.append(BRACE)
            index += 1
        elif word_start and (match := _SUBSCRIPT_WORD.match(script, index)) is not None:
            out.append(match.group().replace("[", BRACKET, 1))  # `r[m] x` runs `rm`: not `r[m]=…`
            index = match.end()
        elif char == "\n" and heredocs:
            out.append("\n")
            index = _heredoc_bodies(script, index + 1, out, heredocs)
            heredocs.clear()
        else:
            out.append(char)
            index += 1
    return "".join(out)


def _heredoc_operator(script: str, index: int, out: list[str], heredocs: list[tuple[str, bool, bool]]) -> int:
    """Copy `<<[-]WORD`; remember the delimiter (and whether it was quoted) for the next newline."""
    start = index
    index += 2
    strip = script.startswith("-", index)
    index += 1 if strip else 0
    while index < len(script) and script[index] in " \t":
        index += 1
    delimiter: list[str] = []
    quoted = False
    while index < len(script) and script[index] not in " \t\n;&|()<>":
        char = script[index]
        if script.startswith("\\\n", index):
            index += 2
            continue
        if char == "\\":
            quoted = True
            delimiter.append(script[index + 1 : index + 2])
            index += 2
        elif char in "'\"":
            quoted = True
            end = closing(script, index + 1, char)
            delimiter.append(script[index + 1 : end])
            index = end + 1
        else:
            delimiter.append(char)
            index += 1
    out.append(script[start:index].replace("\\\n", ""))
    heredocs.append(("".join(delimiter), quoted, strip))
    return index


def _heredoc_bodies(script: str, index: int, out: list[str], heredocs: list[tuple[str, bool, bool]]) -> int:
    """Copy the here-doc bodies that start after a newline, joining lines where bash does."""
    for delimiter, quoted, strip in heredocs:
        while index < len(script):
            end = script.find("\n", index)
            end = len(script) if end < 0 else end
            line = script[index:end]
            if not quoted:
                while line.endswith("\\") and (len(line) - len(line.rstrip("\\"))) % 2 and end < len(script):
                    following = script.find("\n", end + 1)
                    following = len(script) if following < 0 else following
                    line = line[:-1] + script[end + 1 : following]
                    end = following
            out.append(line + ("\n" if end < len(script) else ""))
            index = end + 1
            if (line.lstrip("\t") if strip else line) == delimiter:
                break
    return min(index, len(script))
