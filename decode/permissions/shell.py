"""Read a shell command the way bash will, with a real parser (tree-sitter-bash).

Permission rules talk about *simple commands* (`git diff --stat`), but the model writes whole
scripts: `git status && rm -rf build`, `cat x | sh`, `echo $(curl …)`. `parse_script()` splits a
script into every simple command it would run — across `;`, `&&`, `||`, pipes, subshells,
braces, loops, function bodies and newlines — with its words after quote removal (`'r'\\m` is
`rm`), plus the files its redirections write or read, plus *hazards*: constructs whose effect
cannot be known before the script runs (command or process substitution, arithmetic, variables
the script sets, text the parser could not read…). The gate never auto-allows a script with a
hazard. The walker knows a closed set of node types: anything else is a hazard too, so a new
construct asks until someone has proved it harmless.

A word known only at run time (`$HOME`, `$(…)`) is None: rules cannot vouch for it. A word with
an unquoted `*`, `?` or `[…]` is a `Glob`: bash replaces it with file names. Brace expansion
(`{rm,x}`) is done here, as bash does it before running anything, so a deny sees `rm`.

Two things bash does before parsing are done before tree-sitter sees the text: a backslash-newline
inside a word joins it (`r\\⏎m` is `rm`), and a `{` that starts a word is a brace expansion, not a
group. The script is read both as written and so normalised, and everything either reading finds
counts.

The parts, one concept each: `shell_script` (what a reading yields, the hazards and limits),
`shell_normalise` (what bash does before parsing), `shell_walk` (the walk over the syntax tree),
`shell_nodes` (reading its nodes), `shell_quotes` (quote removal), `shell_braces` (brace
expansion), `shell_glob` (pattern matching), `shell_files` (words that may name files) and
`shell_output` (what `echo` and `printf` print into a pipe).
"""

from __future__ import annotations

from functools import cache
from typing import TYPE_CHECKING

from decode.permissions.shell_braces import expand_braces
from decode.permissions.shell_glob import Glob, glob_matches, globs_overlap
from decode.permissions.shell_normalise import BRACE, BRACKET, NEEDS_NORMALISING, normalise
from decode.permissions.shell_script import (
    ARITHMETIC,
    EXPANSION,
    MAX_SCRIPT,
    NETWORK,
    PLACEHOLDER,
    PROCESS_SUBSTITUTION,
    SETS_VARIABLES,
    SUBSTITUTION,
    TOO_DEEP,
    TOO_LARGE,
    TOO_LONG,
    UNKNOWN_SYNTAX,
    UNREADABLE,
    Redirect,
    ShellScript,
    SimpleCommand,
    Words,
    quiet_name,
)
from decode.permissions.shell_walk import TooLarge, Walker

if TYPE_CHECKING:  # the parser loads on the first bash check, not when decode starts
    from tree_sitter import Parser

__all__ = [
    "ARITHMETIC",
    "EXPANSION",
    "NETWORK",
    "PROCESS_SUBSTITUTION",
    "SETS_VARIABLES",
    "SUBSTITUTION",
    "TOO_DEEP",
    "TOO_LARGE",
    "TOO_LONG",
    "UNKNOWN_SYNTAX",
    "UNREADABLE",
    "Glob",
    "Redirect",
    "ShellScript",
    "SimpleCommand",
    "Words",
    "expand_braces",
    "glob_matches",
    "globs_overlap",
    "normalise",
    "parse_script",
    "quiet_name",
]


@cache
def _parser() -> Parser:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse_script(script: str) -> ShellScript:
    """Split a shell script into its simple commands, redirections and hazards."""
    if len(script) > MAX_SCRIPT:
        return ShellScript((), (), (TOO_LONG,), opaque=True)
    if BRACE in script or BRACKET in script:  # read back as `{`/`[`: bash would name another file
        return ShellScript((), (), (PLACEHOLDER,), opaque=True)
    readings = [script]
    if ("{" in script or "[" in script or "\\\n" in script) and NEEDS_NORMALISING.search(script):  # it needs one
        normalised = normalise(script)
        if normalised != script:
            readings.append(normalised)
    walker = Walker()
    for reading in readings:
        walker.directory_changed, walker.directories = False, []
        try:
            walker.walk(_parser().parse(reading.encode()).root_node, False, 0)
        except TooLarge:
            walker.hazards.append(TOO_LARGE)
            walker.opaque = True
        except RecursionError:  # the depth limit should prevent it; never crash on input
            walker.hazards.append(TOO_DEEP)
            walker.opaque = True
    return ShellScript(
        tuple(dict.fromkeys(walker.commands)),
        tuple(dict.fromkeys(walker.redirects)),
        tuple(dict.fromkeys(walker.hazards)),
        walker.opaque,
    )
