"""Reference solution to lesson 07's exercise, and a plausible wrong answer (the check rejects it)."""

import re

from decode.permissions.shell import parse_script


def allowed(command: str, prefixes: list[str]) -> bool:
    """Every simple command starts with a prefix's words; no hazard, no variable set for a command
    (`GIT_EXTERNAL_DIFF=./evil git diff`), nothing opaque; no redirection writes a file."""
    script = parse_script(command)
    if script.hazards or script.opaque or not script.commands:
        return False
    if any(simple.sets_variables for simple in script.commands):
        return False
    if any(redirect.writes for redirect in script.redirects):
        return False
    wanted = [tuple(prefix.split()) for prefix in prefixes]
    return all(any(simple.words[: len(words)] == words for words in wanted) for simple in script.commands)


def wrong_allowed(command: str, prefixes: list[str]) -> bool:
    """Splits on the separators, so chaining is closed; `$(…)`, backticks and redirections are not."""
    parts = [part.strip() for part in re.split(r";|&&|\|\||\||&|\n", command)]
    return all(any(part.split()[: len(p.split())] == p.split() for p in prefixes) for part in parts if part)
