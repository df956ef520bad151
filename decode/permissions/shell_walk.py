"""The walk over tree-sitter-bash's syntax tree that finds every simple command a script runs.

`Walker.walk` visits a closed set of node types: lists, pipelines, subshells, loops, function
bodies… are walked for what they contain; a command becomes a `SimpleCommand` (its words after
quote removal, the files it may name, what it is fed); a redirection a `Redirect`; command and
process substitution, arithmetic, assignments and risky expansions add *hazards*. Any node type it
does not know is a hazard too, so a new construct asks until someone has proved it harmless.
"""

from __future__ import annotations

import posixpath
import re
from dataclasses import dataclass, field
from typing import TYPE_CHECKING

from decode.permissions.shell_braces import BRACE_EXPANSION, alternatives
from decode.permissions.shell_files import named_files
from decode.permissions.shell_glob import Glob
from decode.permissions.shell_nodes import assigned_names, literal_value, node_operator, node_text
from decode.permissions.shell_output import printed
from decode.permissions.shell_quotes import ansi_c, unescape, unescape_double_quoted
from decode.permissions.shell_script import (
    ARITHMETIC,
    EXPANSION,
    MAX_COMMANDS,
    MAX_DEPTH,
    MAX_SUBSTITUTIONS,
    NETWORK,
    PROCESS_SUBSTITUTION,
    SETS_VARIABLES,
    SUBSTITUTION,
    TOO_DEEP,
    UNKNOWN_SYNTAX,
    UNREADABLE,
    Fed,
    Redirect,
    SimpleCommand,
    quiet_name,
)

if TYPE_CHECKING:
    from tree_sitter import Node

# Redirection targets that are not files: writing there changes nothing on disk. Nothing else
# under /dev is a device: `/dev/fd/../../x` is the file `/x`.
DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
_FD_DEVICE = re.compile(r"/dev/fd/[0-9]+")
_WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
_GLOB_CHARS = re.compile(r"(?<!\\)[*?]|(?<!\\)\[.*\]")
# `[[ … ]]` operators that only look at files and strings (the rest compare numbers, which bash
# evaluates as arithmetic, or name variables: `-v 'a[$(id)]'` runs `id`).
_SAFE_TEST_OPERATORS = frozenset(
    {"-a", "-b", "-c", "-d", "-e", "-f", "-g", "-h", "-k", "-p", "-r", "-s", "-t", "-u", "-w", "-x"}
    | {"-G", "-L", "-N", "-O", "-S", "-z", "-n", "-o", "-ef", "-nt", "-ot"}
)
_SAFE_EXPANSION_OPERATORS = frozenset(
    {"#", "##", "%", "%%", "/", "//", "/#", "/%", "^", "^^", ",", ",,", ":-", "-", ":+", "+", ":?", "?"}
)
# Node types walked for what they contain; anything not here (or handled by name) is a hazard.
_STRUCTURE_TYPES = """
    program list pipeline subshell compound_statement do_group if_statement elif_clause else_clause
    while_statement case_statement case_item negated_command function_definition heredoc_body
    heredoc_content heredoc_start heredoc_end array binary_expression unary_expression
    parenthesized_expression ternary_expression postfix_expression test_command word string
    raw_string string_content ansi_c_string translated_string concatenation number command_name
    variable_name special_variable_name simple_expansion regex extglob_pattern brace_expression
    file_descriptor
"""
_STRUCTURE = frozenset(_STRUCTURE_TYPES.split())


class TooLarge(Exception):
    """More simple commands than `MAX_COMMANDS`: the walk stops."""


@dataclass
class Walker:
    """What the walk found so far: the commands, redirections and hazards of every reading."""

    commands: list[SimpleCommand] = field(default_factory=list)
    redirects: list[Redirect] = field(default_factory=list)
    hazards: list[str] = field(default_factory=list)
    opaque: bool = False
    substitutions: int = 0
    directory_changed: bool = False  # after `cd`, a relative redirect target is not where it looks
    directories: list[str | None] = field(default_factory=list)  # where a `cd` may have gone

    def walk(self, node: Node, fed: Fed, depth: int) -> None:
        if depth > MAX_DEPTH:
            self.hazards.append(TOO_DEEP)
            self.opaque = True
            return
        kind = node.type
        if node.is_error or node.is_missing:
            self.hazards.append(UNREADABLE)
            self.opaque = True
        if not node.is_named or kind == "comment":
            return
        depth += 1
        if kind == "command":
            self._command(node, fed, depth)
        elif kind in ("declaration_command", "unset_command"):  # export/declare/local/readonly/unset
            words = tuple(node_text(c) if c.type == "variable_name" else self._word(c, depth) for c in node.children)
            integer = any(w is not None and w.startswith("-") and "i" in w for w in words[1:])
            self._sets(node, opaque=integer or any(w is None or "[" in w for w in words[1:]))
            self.commands.append(SimpleCommand(words, node_text(node), bool(fed)))
        elif kind == "list":  # `a && b && c` nests to the left: walk it flat, so depth is nesting
            items, stack = [], [node]
            while stack:
                item = stack.pop()
                if item.type == "list":
                    stack.extend(reversed(item.children))
                else:
                    items.append(item)
            for item in items:
                self.walk(item, fed, depth)
        elif kind == "pipeline":
            feed: Fed = fed
            for child in node.named_children:
                count = len(self.commands)
                self.walk(child, feed, depth)
                feed = self._output_of(child, count)
        elif kind == "redirected_statement":
            # tree-sitter hangs `a && b > f` and `a | b > f` on the whole list: treat every part as
            # redirected (the safe reading), and walk the body first so a `cd` in it is seen.
            redirects = node.children_by_field_name("redirect")
            if (body := node.child_by_field_name("body")) is not None:
                inner = next((f for r in redirects if (f := self._feed(r))), fed)
                self.walk(body, inner, depth)
            for redirect in redirects:
                self._redirect(redirect, depth)
        elif kind in ("file_redirect", "heredoc_redirect", "herestring_redirect"):
            self._redirect(node, depth)
        elif kind in ("command_substitution", "process_substitution"):
            self.hazards.append(SUBSTITUTION if kind == "command_substitution" else PROCESS_SUBSTITUTION)
            self.substitutions += 1
            if self.substitutions > MAX_SUBSTITUTIONS:  # each is a hazard already: more prove nothing
                raise TooLarge
            self._walk_children(node, False, depth)
        elif kind == "arithmetic_expansion" or kind == "c_style_for_statement":
            self._risk(ARITHMETIC)
            self._walk_children(node, fed, depth)
        elif kind in ("variable_assignment", "variable_assignments"):
            self._sets(node)
            self._walk_children(node, False, depth)
        elif kind == "for_statement":  # `for HOME in …; do git status; done` sets HOME
            self._sets(node)
            self._walk_children(node, fed, depth)
        elif kind == "expansion":
            self._expansion(node, depth)
        elif kind == "subscript":
            index = node.child_by_field_name("index")
            if index is None or not (index.type == "number" or node_text(index) in ("@", "*")):
                self._risk(EXPANSION)
            self._walk_children(node, False, depth)
        elif kind == "test_operator":
            if node_text(node) not in _SAFE_TEST_OPERATORS:
                self._risk(ARITHMETIC)
        elif kind == "ERROR":  # already a hazard: still look inside for denied commands
            self._walk_children(node, fed, depth)
        elif kind in _STRUCTURE:
            if kind in ("compound_statement", "test_command") and node.child_count and node.children[0].type == "((":
                self._risk(ARITHMETIC)
            self._walk_children(node, fed, depth)
        else:
            self._risk(UNKNOWN_SYNTAX)
            self._walk_children(node, False, depth)

    def _risk(self, hazard: str) -> None:
        """A hazard that can run code the text does not show: in bypass, a Bash deny asks for it."""
        self.hazards.append(hazard)
        self.opaque = True

    def _sets(self, node: Node, *, opaque: bool = False) -> None:
        """The script sets variables. `HOME=…`, `PATH=…`, `a[i]=…` can run code: opaque."""
        self.hazards.append(SETS_VARIABLES)
        if opaque or not all(quiet_name(name) for name in assigned_names(node)):
            self.opaque = True

    def _walk_children(self, node: Node, fed: Fed, depth: int) -> None:
        for child in node.children:
            self.walk(child, fed, depth)

    def _expansion(self, node: Node, depth: int) -> None:
        """`${…}`: the plain forms are harmless; transformations, indirection, `:=`, offsets are not."""
        for index, child in enumerate(node.children):
            operator = node_text(child) if node.field_name_for_child(index) == "operator" else None
            numbers = operator == ":" and all(c.type == "number" for c in node.named_children[1:])
            if operator is not None and operator not in _SAFE_EXPANSION_OPERATORS and not numbers:
                self._risk(EXPANSION)  # `${x:1:2}` is harmless; `${x:i}` is arithmetic
            self.walk(child, False, depth)

    def _output_of(self, node: Node, count: int) -> Fed:
        """What a pipeline stage writes to the next: known for `echo`, `printf` and a `cat` of its input."""
        if node.type not in ("command", "redirected_statement") or len(self.commands) <= count:
            return True
        last = self.commands[-1]
        return printed(last.words, last.stdin_text)

    def _output_of_heredoc(self, redirect: Node) -> Fed:
        """What the command a here-doc feeds prints, when it is `cat` (its last command walked)."""
        owner = self.commands[-1] if self.commands else None
        if owner is not None and owner.words in (("cat",), ("cat", "-")) and owner.stdin_text is not None:
            return owner.stdin_text
        return True

    def _feed(self, redirect: Node) -> Fed:
        """What a redirection gives a command on stdin (False: nothing; True: something unknown)."""
        if redirect.type == "heredoc_redirect":
            body = next((c for c in redirect.named_children if c.type == "heredoc_body"), None)
            return node_text(body) if body is not None else True
        if redirect.type == "herestring_redirect":
            value = next(iter(redirect.named_children), None)
            return literal_value(value) or True if value is not None else True
        return node_operator(redirect) == "<"

    def _command(self, node: Node, fed: Fed, depth: int) -> None:
        words: list[str | None] = []
        word_nodes: list[Node] = []
        raws: list[str] = []
        sets_variables = False
        for index, child in enumerate(node.children):
            role = node.field_name_for_child(index)
            if role in ("name", "argument"):
                raw = node_text(child)
                words.append(self._word(child, depth, raw))
                word_nodes.append(child)
                raws.append(raw)
            elif role == "redirect":
                fed = self._feed(child) or fed
                self._redirect(child, depth)
            elif child.type == "variable_assignment":  # `FOO=1 cmd`: a hazard of its own kind
                sets_variables = True
                self.opaque = self.opaque or not all(quiet_name(name) for name in assigned_names(child))
                self._walk_children(child, False, depth)
            else:  # anything else: look inside for hidden commands
                self.walk(child, False, depth)
        values = tuple(words)
        braced = any("{" in raw for raw in raws)
        command = SimpleCommand(
            values,
            node_text(node),
            bool(fed),
            sets_variables,
            fed if isinstance(fed, str) else None,
            alternatives(word_nodes, raws, values) if braced else (),
            named_files(word_nodes, raws, values, self.directory_changed, self.directories),
        )
        self.commands.append(command)
        if len(self.commands) > MAX_COMMANDS:
            raise TooLarge
        if words and words[0] in _DIRECTORY_CHANGERS:
            self.directory_changed = True
            target = words[1] if len(words) == 2 and words[0] == "cd" else None
            if target is None or target.startswith("-") or isinstance(target, Glob) or len(self.directories) >= 4:
                self.directories.append(None)
            else:
                self.directories += [target] + [posixpath.join(d, target) for d in self.directories if d]

    def _redirect(self, node: Node, depth: int) -> None:
        """Record the file a redirection writes or reads."""
        if node.type != "file_redirect":  # here-docs and here-strings: their text may hold `$(…)`
            for child in node.children:
                # tree-sitter hangs `cat <<E | sh` on the here-doc: the pipe reads what the command prints
                self.walk(child, self._output_of_heredoc(node) if child.type == "pipeline" else False, depth)
            return
        operator = node_operator(node)
        if node.has_error:
            # tree-sitter-bash has no `<>` (open read-write): it reads `<` and an error. Whatever the
            # parser could not read may write, so it is not judged by what it seems to be.
            self.hazards.append(UNREADABLE)
            operator = "<>"
        destination = node.child_by_field_name("destination")
        if destination is None:
            return
        if (operator in (">&", "<&") and destination.type == "number") or node_text(destination) == "-":
            return  # `2>&1`, `>&-`: file descriptors, not files
        target = self._word(destination, depth)
        if target is not None and target.startswith("/"):
            target = posixpath.normpath(target)  # `/dev/fd/../x` is `/x`, not a device
            if target.startswith(("/dev/tcp/", "/dev/udp/")):
                self.hazards.append(NETWORK)
        if target in DEVICES or (target is not None and _FD_DEVICE.fullmatch(target)):
            return
        if isinstance(target, Glob):
            target = None  # bash may expand it (or refuse to): where it lands is not known
        if target is not None and self.directory_changed and not target.startswith(("/", "~")):
            target = None  # relative to a directory we cannot follow
        self.redirects.append(Redirect(target, writes=operator in _WRITE_OPERATORS))

    def _word(self, node: Node, depth: int, text: str | None = None) -> str | None:
        """A word after quote removal, or None when only the running shell can know it."""
        kind = node.type
        if text is None:
            text = node_text(node)
        if not node.is_named:  # a keyword such as `export`
            return text
        if kind == "command_name":
            return self._word(node.children[0], depth) if node.children else None
        if kind == "word":
            if text.startswith("~") and not (text == "~" or text.startswith("~/")):
                return None  # `~root/x`, `~+/x`, `~-`: another user's home, $PWD, $OLDPWD
            if "{" in text and BRACE_EXPANSION.search(text):  # `in` first: this runs for every word
                return None
            value = unescape(text)
            return Glob(value) if ("*" in text or "?" in text or "[" in text) and _GLOB_CHARS.search(text) else value
        if kind == "number":
            return text
        if kind == "raw_string":
            return text[1:-1]
        if kind in ("string", "translated_string"):
            parts = [c for c in node.named_children if c.type != "string_content"]
            if parts:
                self._walk_children(node, False, depth)
                return None
            return unescape_double_quoted(text[text.index('"') + 1 : -1])
        if kind == "ansi_c_string":
            return ansi_c(text[2:-1])
        if kind == "extglob_pattern":
            return Glob(text)
        if kind == "variable_assignment":  # `export A=1` (the argument of a declaration)
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            word = self._word(value, depth) if value is not None else ""
            return None if word is None or name is None else f"{node_text(name)}={word}"
        if kind == "concatenation":
            pieces = [self._word(child, depth) for child in node.children]
            if BRACE_EXPANSION.search(text) or None in pieces:
                return None
            joined = "".join(piece or "" for piece in pieces)
            unquoted = "".join(node_text(child) if child.type == "word" else "x" for child in node.children)
            pattern = any(isinstance(piece, Glob) for piece in pieces) or _GLOB_CHARS.search(unquoted)
            return Glob(joined) if pattern else joined
        self.walk(node, False, depth)  # expansions, substitutions, anything else: look inside for hazards
        return None
