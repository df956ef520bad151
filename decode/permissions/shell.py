"""Read a shell command the way bash will, with a real parser (tree-sitter-bash).

Permission rules talk about *simple commands* (`git diff --stat`), but the model writes whole
scripts: `git status && rm -rf build`, `cat x | sh`, `echo $(curl …)`. `parse_script()` splits a
script into every simple command it would run — across `;`, `&&`, `||`, pipes, subshells,
braces, loops, function bodies and newlines — with its words after quote removal (`'r'\\m` is
`rm`), plus the files its redirections write or read, plus *hazards*: constructs whose effect
cannot be known before the script runs (command or process substitution, or text the parser
could not read). The gate never auto-allows a script with a hazard.

A word known only at run time (`$HOME`, `$(…)`, `{a,b}`) is None: rules cannot vouch for it.
"""

from __future__ import annotations

import codecs
import re
from dataclasses import dataclass, field
from functools import cache
from typing import TYPE_CHECKING

if TYPE_CHECKING:  # the parser loads on the first bash check, not when decode starts
    from tree_sitter import Node, Parser

# Redirection targets that are not files: writing there changes nothing on disk.
DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
_WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
_BRACE_EXPANSION = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")


@dataclass(frozen=True)
class SimpleCommand:
    """One command the shell will run: its words (None where known only at run time)."""

    words: tuple[str | None, ...]
    text: str
    stdin_fed: bool = False  # its input comes from a pipe, a here-string, a here-doc or `<`
    sets_variables: bool = False  # `FOO=1 cmd`: the variables may change what cmd does

    @property
    def name(self) -> str | None:
        return self.words[0] if self.words else None


@dataclass(frozen=True)
class Redirect:
    """A file a redirection touches; `target` is None when it is only known at run time."""

    target: str | None
    writes: bool


@dataclass(frozen=True)
class ShellScript:
    """Everything a script would run and touch, and what makes it unpredictable."""

    commands: tuple[SimpleCommand, ...]
    redirects: tuple[Redirect, ...] = ()
    hazards: tuple[str, ...] = ()


@cache
def _parser() -> Parser:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse_script(script: str) -> ShellScript:
    """Split a shell script into its simple commands, redirections and hazards."""
    walker = _Walker()
    walker.walk(_parser().parse(script.encode()).root_node)
    return ShellScript(tuple(walker.commands), tuple(walker.redirects), tuple(dict.fromkeys(walker.hazards)))


@dataclass
class _Walker:
    commands: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)
    directory_changed: bool = False  # after `cd`, a relative redirect target is not where it looks

    def walk(self, node: Node, fed: bool = False) -> None:
        kind = node.type
        if node.is_error or node.is_missing:
            self.hazards.append("the shell parser cannot read all of it")
        if kind == "command":
            self._command(node, fed)
        elif kind == "declaration_command":  # export/declare/local/readonly: can change what runs next
            self.commands.append(SimpleCommand(tuple(self._word(c) for c in node.children), _text(node), fed))
        elif kind == "pipeline":
            for index, child in enumerate(node.named_children):
                self.walk(child, fed or index > 0)
        elif kind == "redirected_statement":
            # tree-sitter hangs `a && b > f` and `a | b > f` on the whole list: treat every part as
            # redirected (the safe reading), and walk the body first so a `cd` in it is seen.
            redirects = node.children_by_field_name("redirect")
            if (body := node.child_by_field_name("body")) is not None:
                self.walk(body, fed or any(_feeds_stdin(r) for r in redirects))
            for redirect in redirects:
                self._redirect(redirect)
        elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            self._redirect(node)
        elif kind == "command_substitution":
            self.hazards.append("command substitution ($(…) or backticks) runs a command to build another")
            self._walk_children(node)
        elif kind == "process_substitution":
            self.hazards.append("process substitution (<(…) or >(…)) runs a hidden command")
            self._walk_children(node)
        elif kind != "comment":
            self._walk_children(node, fed)

    def _walk_children(self, node: Node, fed: bool = False) -> None:
        for child in node.children:
            self.walk(child, fed)

    def _command(self, node: Node, fed: bool) -> None:
        words: list[str | None] = []
        sets_variables = False
        for index, child in enumerate(node.children):
            role = node.field_name_for_child(index)
            if role in ("name", "argument"):
                words.append(self._word(child))
            elif role == "redirect":
                fed = fed or _feeds_stdin(child)
                self._redirect(child)
            else:  # env prefixes (`FOO=1 cmd`) and anything else: look inside for hidden commands
                sets_variables = sets_variables or child.type == "variable_assignment"
                self.walk(child)
        self.commands.append(SimpleCommand(tuple(words), _text(node), fed, sets_variables))
        if words and words[0] in _DIRECTORY_CHANGERS:
            self.directory_changed = True

    def _redirect(self, node: Node) -> None:
        """Record the file a redirection writes or reads."""
        if node.type != "file_redirect":
            self._walk_children(node)  # here-docs and here-strings: their text may hold `$(…)`
            return
        operator = _operator(node)
        destination = node.child_by_field_name("destination")
        if destination is None:
            return
        if (operator in (">&", "<&") and destination.type == "number") or _text(destination) == "-":
            return  # `2>&1`, `>&-`: file descriptors, not files
        target = self._word(destination)
        if target in DEVICES or (target or "").startswith("/dev/fd/"):
            return
        if target is not None and self.directory_changed and not target.startswith(("/", "~")):
            target = None  # relative to a directory we cannot follow
        self.redirects.append(Redirect(target, writes=operator in _WRITE_OPERATORS))

    def _word(self, node: Node) -> str | None:
        """A word after quote removal, or None when only the running shell can know it."""
        kind, text = node.type, _text(node)
        if not node.is_named:  # a keyword such as `export`
            return text
        if kind == "command_name":
            return self._word(node.children[0]) if node.children else None
        if kind == "word":
            return _unescape(text)
        if kind == "number":
            return text
        if kind == "raw_string":
            return text[1:-1]
        if kind in ("string", "translated_string"):
            parts = [c for c in node.named_children if c.type != "string_content"]
            if parts:
                self._walk_children(node)
                return None
            return _unescape_double_quoted(text[text.index('"') + 1 : -1])
        if kind == "ansi_c_string":
            return _ansi_c(text[2:-1])
        if kind == "variable_assignment":  # `export A=1` (the argument of a declaration)
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            word = self._word(value) if value is not None else ""
            return None if word is None or name is None else f"{_text(name)}={word}"
        if kind == "concatenation":
            pieces = [self._word(child) for child in node.children]
            if _BRACE_EXPANSION.search(text) or None in pieces:
                return None
            return "".join(piece or "" for piece in pieces)
        self.walk(node)  # expansions, substitutions, anything else: look inside for hazards
        return None


def _operator(node: Node) -> str:
    return next((child.type for child in node.children if not child.is_named), "")


def _feeds_stdin(redirect: Node) -> bool:
    """Here-docs, here-strings and `< file` give a command its input (a shell would run it)."""
    return redirect.type != "file_redirect" or _operator(redirect) == "<"


def _text(node: Node) -> str:
    return node.text.decode(errors="replace") if node.text is not None else ""


def _unescape(word: str) -> str:
    """Quote removal for an unquoted word: `r\\m` is `rm`, a backslash-newline disappears."""
    return re.sub(r"\\(.)", r"\1", word.replace("\\\n", ""), flags=re.DOTALL)


def _unescape_double_quoted(body: str) -> str:
    """Inside double quotes only `\\$`, `` \\` ``, `\\"`, `\\\\` and backslash-newline are escapes."""
    return re.sub(r'\\([$`"\\\n])', lambda m: "" if m.group(1) == "\n" else m.group(1), body)


def _ansi_c(body: str) -> str | None:
    """`$'\\x72m'` is `rm`: decode the escapes, or give up (None) on anything unusual."""
    if not body.isascii():
        return None
    try:
        return codecs.decode(body, "unicode_escape")
    except UnicodeDecodeError:
        return None
