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
"""

from __future__ import annotations

import codecs
import posixpath
import re
from dataclasses import dataclass, field
from functools import cache, lru_cache
from typing import TYPE_CHECKING

from decode.permissions.option_values import attached_values, tar_paths

if TYPE_CHECKING:  # the parser loads on the first bash check, not when decode starts
    from tree_sitter import Node, Parser

Words = tuple[str | None, ...]

# Redirection targets that are not files: writing there changes nothing on disk. Nothing else
# under /dev is a device: `/dev/fd/../../x` is the file `/x`.
DEVICES = frozenset({"/dev/null", "/dev/stdout", "/dev/stderr", "/dev/tty"})
_FD_DEVICE = re.compile(r"/dev/fd/[0-9]+")
_WRITE_OPERATORS = frozenset({">", ">>", ">|", "&>", "&>>", "<>", ">&"})
_DIRECTORY_CHANGERS = frozenset({"cd", "pushd", "popd"})
_BRACE_EXPANSION = re.compile(r"\{[^{}]*(,|\.\.)[^{}]*\}")
_SEQUENCE = re.compile(r"(-?\d+)\.\.(-?\d+)(?:\.\.(-?\d+))?|([A-Za-z])\.\.([A-Za-z])(?:\.\.(-?\d+))?")
_GLOB_CHARS = re.compile(r"(?<!\\)[*?]|(?<!\\)\[.*\]")
_NEEDS_NORMALISING = re.compile(r"\\\n|(?:^|[\s;&|(){}`])(?:\{[^\s}]|[A-Za-z_]\w*\[)")
_SUBSCRIPT_WORD = re.compile(r"[A-Za-z_]\w*\[[^\s;&|()<>=]*(?=[\s;&|()<>]|$)")
_BRACE = "\ue000"  # stands for a word-starting `{` while tree-sitter reads the script
_BRACKET = "\ue001"  # stands for the `[` of `r[m] x` (a pattern, not an array element)
MAX_SCRIPT = 100_000  # characters; a longer script is not parsed (it asks)
MAX_DEPTH = 150  # syntax-tree levels; deeper nesting is not followed (it asks)
MAX_SUBSTITUTIONS = 32  # `$(…)`, backticks, `<(…)`: a script with more is not followed (it asks)
MAX_COMMANDS = 200  # simple commands followed in one script; past them it asks
_MAX_EXPANSIONS = 64

# Hazards (the gate shows them to the user as the reason to ask).
UNREADABLE = "the shell parser cannot read all of it"
SUBSTITUTION = "command substitution ($(…) or backticks) runs a command to build another"
PROCESS_SUBSTITUTION = "process substitution (<(…) or >(…)) runs a hidden command"
ARITHMETIC = "arithmetic ($((…)), ((…)), let, [[ … -eq … ]]) can run commands hidden in array subscripts"
SETS_VARIABLES = (
    "the script sets variables (x=…, for x in, read, export, declare…), which can change what later commands do"
)
EXPANSION = "a parameter expansion that can run code or set variables (${x@P}, ${!x}, ${x:=…}, ${a[i]}, ${x:i})"
TOO_DEEP = "nested too deep to check"
TOO_LONG = f"longer than {MAX_SCRIPT} characters, too long to check"
PLACEHOLDER = "holds U+E000 or U+E001, characters the permission checker uses for { and [ while it reads"
TOO_LARGE = f"more than {MAX_COMMANDS} commands or {MAX_SUBSTITUTIONS} substitutions, too many to check"
UNKNOWN_SYNTAX = "a shell construct the permission checker does not know"
NETWORK = "a redirection to /dev/tcp or /dev/udp opens a network connection"

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
_STRUCTURE = frozenset(
    {
        "program",
        "list",
        "pipeline",
        "subshell",
        "compound_statement",
        "do_group",
        "if_statement",
        "elif_clause",
        "else_clause",
        "while_statement",
        "case_statement",
        "case_item",
        "negated_command",
        "function_definition",
        "heredoc_body",
        "heredoc_content",
        "heredoc_start",
        "heredoc_end",
        "array",
        "binary_expression",
        "unary_expression",
        "parenthesized_expression",
        "ternary_expression",
        "postfix_expression",
        "test_command",
        "word",
        "string",
        "raw_string",
        "string_content",
        "ansi_c_string",
        "translated_string",
        "concatenation",
        "number",
        "command_name",
        "variable_name",
        "special_variable_name",
        "simple_expansion",
        "regex",
        "extglob_pattern",
        "brace_expression",
        "file_descriptor",
    }
)


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
            index = _matching(pattern, index + 1) + 1
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


@dataclass(frozen=True)
class SimpleCommand:
    """One command the shell will run: its words (None where known only at run time)."""

    words: Words
    text: str
    stdin_fed: bool = False  # its input comes from a pipe, a here-string, a here-doc or `<`
    sets_variables: bool = False  # `FOO=1 cmd`: the variables may change what cmd does
    stdin_text: str | None = field(default=None, repr=False)
    """What it reads on stdin when the script says (a here-doc, a here-string, `echo … |`)."""
    alternatives: tuple[Words, ...] = field(default=(), repr=False)
    """The words after brace expansion (`{rm,x} y` is `rm x y`), when the command has braces."""
    files: tuple[str, ...] = field(default=(), repr=False)
    """Words that may name files, as paths (`~` the home folder; relative to the workspace;
    `$X` left in where only run time knows): the gate checks them for secret files."""

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
    opaque: bool = field(default=False, repr=False)
    """Part of it could not be followed at all: it may run any command (a deny rule asks)."""


@cache
def _parser() -> Parser:
    import tree_sitter_bash
    from tree_sitter import Language, Parser

    return Parser(Language(tree_sitter_bash.language()))


def parse_script(script: str) -> ShellScript:
    """Split a shell script into its simple commands, redirections and hazards."""
    if len(script) > MAX_SCRIPT:
        return ShellScript((), (), (TOO_LONG,), opaque=True)
    if _BRACE in script or _BRACKET in script:  # read back as `{`/`[`: bash would name another file
        return ShellScript((), (), (PLACEHOLDER,), opaque=True)
    readings = [script]
    if ("{" in script or "[" in script or "\\\n" in script) and _NEEDS_NORMALISING.search(script):  # it needs one
        normalised = normalise(script)
        if normalised != script:
            readings.append(normalised)
    walker = _Walker()
    for reading in readings:
        walker.directory_changed, walker.directories = False, []
        try:
            walker.walk(_parser().parse(reading.encode()).root_node, False, 0)
        except _TooLarge:
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


Fed = bool | str  # not fed, fed from somewhere unknown, or fed this text


class _TooLarge(Exception):
    """More simple commands than `MAX_COMMANDS`: the walk stops."""


@dataclass
class _Walker:
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
            words = tuple(_text(c) if c.type == "variable_name" else self._word(c, depth) for c in node.children)
            integer = any(w is not None and w.startswith("-") and "i" in w for w in words[1:])
            self._sets(node, opaque=integer or any(w is None or "[" in w for w in words[1:]))
            self.commands.append(SimpleCommand(words, _text(node), bool(fed)))
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
                raise _TooLarge
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
            if index is None or not (index.type == "number" or _text(index) in ("@", "*")):
                self._risk(EXPANSION)
            self._walk_children(node, False, depth)
        elif kind == "test_operator":
            if _text(node) not in _SAFE_TEST_OPERATORS:
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
        if opaque or not all(_quiet_name(name) for name in _assigned_names(node)):
            self.opaque = True

    def _walk_children(self, node: Node, fed: Fed, depth: int) -> None:
        for child in node.children:
            self.walk(child, fed, depth)

    def _expansion(self, node: Node, depth: int) -> None:
        """`${…}`: the plain forms are harmless; transformations, indirection, `:=`, offsets are not."""
        for index, child in enumerate(node.children):
            operator = _text(child) if node.field_name_for_child(index) == "operator" else None
            numbers = operator == ":" and all(c.type == "number" for c in node.named_children[1:])
            if operator is not None and operator not in _SAFE_EXPANSION_OPERATORS and not numbers:
                self._risk(EXPANSION)  # `${x:1:2}` is harmless; `${x:i}` is arithmetic
            self.walk(child, False, depth)

    def _output_of(self, node: Node, count: int) -> Fed:
        """What a pipeline stage writes to the next: known for `echo`, `printf` and a `cat` of its input."""
        if node.type not in ("command", "redirected_statement") or len(self.commands) <= count:
            return True
        last = self.commands[-1]
        words = last.words
        if not words or None in words:
            return True
        if words[0] == "echo":
            start = 1
            while start < len(words) and words[start] in ("-n", "-e", "-E", "-ne", "-en"):
                start += 1
            return " ".join(w for w in words[start:] if w is not None)
        if words[0] == "printf" and len(words) > 1:
            return _printf(tuple(w for w in words[1:] if w is not None))
        if words in (("cat",), ("cat", "-")) and last.stdin_text is not None:
            return last.stdin_text  # `cat <<EOF | sh`
        return True

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
            return _text(body) if body is not None else True
        if redirect.type == "herestring_redirect":
            value = next(iter(redirect.named_children), None)
            return _literal_value(value) or True if value is not None else True
        return _operator(redirect) == "<"

    def _command(self, node: Node, fed: Fed, depth: int) -> None:
        words: list[str | None] = []
        word_nodes: list[Node] = []
        raws: list[str] = []
        sets_variables = False
        for index, child in enumerate(node.children):
            role = node.field_name_for_child(index)
            if role in ("name", "argument"):
                raw = _text(child)
                words.append(self._word(child, depth, raw))
                word_nodes.append(child)
                raws.append(raw)
            elif role == "redirect":
                fed = self._feed(child) or fed
                self._redirect(child, depth)
            elif child.type == "variable_assignment":  # `FOO=1 cmd`: a hazard of its own kind
                sets_variables = True
                self.opaque = self.opaque or not all(_quiet_name(name) for name in _assigned_names(child))
                self._walk_children(child, False, depth)
            else:  # anything else: look inside for hidden commands
                self.walk(child, False, depth)
        values = tuple(words)
        braced = any("{" in raw for raw in raws)
        command = SimpleCommand(
            values,
            _text(node),
            bool(fed),
            sets_variables,
            fed if isinstance(fed, str) else None,
            _alternatives(word_nodes, raws, values) if braced else (),
            self._files(word_nodes, raws, values),
        )
        self.commands.append(command)
        if len(self.commands) > MAX_COMMANDS:
            raise _TooLarge
        if words and words[0] in _DIRECTORY_CHANGERS:
            self.directory_changed = True
            target = words[1] if len(words) == 2 and words[0] == "cd" else None
            if target is None or target.startswith("-") or isinstance(target, Glob) or len(self.directories) >= 4:
                self.directories.append(None)
            else:
                self.directories += [target] + [posixpath.join(d, target) for d in self.directories if d]

    def _files(self, word_nodes: list[Node], raws: list[str], values: Words) -> tuple[str, ...]:
        """The words of a command that may name files (see `SimpleCommand.files`)."""
        files: list[str] = []
        for index, node in enumerate(word_nodes):
            raw, value = raws[index], values[index]
            if value is not None:
                texts: list[str] = [value]
            elif "$(" in raw or "`" in raw:
                continue  # built by a command: a hazard already, and nothing to read in it
            else:
                texts = [_path_text(node, self.directory_changed)]
                if "{" in raw and (options := expand_braces(raw)) is not None and len(options) > 1:
                    texts = [text for text in map(_dequote, options) if text] or texts  # `cat {a,.env}`
            for text in texts:
                if not text or (index == 0 and "/" not in text):
                    continue
                pattern = isinstance(text, Glob)
                if text[0] == "-" or "=" in text or text[0] == "@" or ":" in text:
                    found: list[str] = attached_values(text)  # `-t.git`, `-d@.env`, `f=@/etc/shadow`
                    if "=" in text:
                        found.append(text.split("=", 1)[1])  # `--env-file=.env`, `dd if=.env`
                    if ":" in text:
                        found.append(text.rsplit(":", 1)[1])  # `git show HEAD:.env`, `scp h:.env`
                    if text[0] != "-":
                        found.append(text.removeprefix("@"))  # `curl -d @.env`
                    files += [Glob(f) if pattern else f for f in found]
                else:
                    files.append(text)
        files += tar_paths(values)  # `tar -cf - -C /etc shadow` reads /etc/shadow
        if self.directories:
            relative = [f for f in files if not f.startswith(("/", "~", "$"))]
            for directory in self.directories:
                if directory:
                    files += [type(f)(posixpath.join(directory, f)) for f in relative]
        return tuple(dict.fromkeys(f for f in files if f))

    def _redirect(self, node: Node, depth: int) -> None:
        """Record the file a redirection writes or reads."""
        if node.type != "file_redirect":  # here-docs and here-strings: their text may hold `$(…)`
            for child in node.children:
                # tree-sitter hangs `cat <<E | sh` on the here-doc: the pipe reads what the command prints
                self.walk(child, self._output_of_heredoc(node) if child.type == "pipeline" else False, depth)
            return
        operator = _operator(node)
        if node.has_error:
            # tree-sitter-bash has no `<>` (open read-write): it reads `<` and an error. Whatever the
            # parser could not read may write, so it is not judged by what it seems to be.
            self.hazards.append(UNREADABLE)
            operator = "<>"
        destination = node.child_by_field_name("destination")
        if destination is None:
            return
        if (operator in (">&", "<&") and destination.type == "number") or _text(destination) == "-":
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
            text = _text(node)
        if not node.is_named:  # a keyword such as `export`
            return text
        if kind == "command_name":
            return self._word(node.children[0], depth) if node.children else None
        if kind == "word":
            if text.startswith("~") and not (text == "~" or text.startswith("~/")):
                return None  # `~root/x`, `~+/x`, `~-`: another user's home, $PWD, $OLDPWD
            if "{" in text and _BRACE_EXPANSION.search(text):  # `in` first: this runs for every word
                return None
            value = _unescape(text)
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
            return _unescape_double_quoted(text[text.index('"') + 1 : -1])
        if kind == "ansi_c_string":
            return _ansi_c(text[2:-1])
        if kind == "extglob_pattern":
            return Glob(text)
        if kind == "variable_assignment":  # `export A=1` (the argument of a declaration)
            name, value = node.child_by_field_name("name"), node.child_by_field_name("value")
            word = self._word(value, depth) if value is not None else ""
            return None if word is None or name is None else f"{_text(name)}={word}"
        if kind == "concatenation":
            pieces = [self._word(child, depth) for child in node.children]
            if _BRACE_EXPANSION.search(text) or None in pieces:
                return None
            joined = "".join(piece or "" for piece in pieces)
            unquoted = "".join(_text(child) if child.type == "word" else "x" for child in node.children)
            pattern = any(isinstance(piece, Glob) for piece in pieces) or _GLOB_CHARS.search(unquoted)
            return Glob(joined) if pattern else joined
        self.walk(node, False, depth)  # expansions, substitutions, anything else: look inside for hazards
        return None


def quiet_name(name: str) -> bool:
    """A lower-case shell variable (`f`, `file_1`): not one programs read from the environment
    (`PATH`, `HOME`, `LD_PRELOAD`, `GIT_DIR`…), and not an array element (`a[i]`, arithmetic)."""
    return name.isidentifier() and name.islower()


_quiet_name = quiet_name


def _assigned_names(node: Node) -> list[str]:
    """The names an assignment, a `for` loop or a declaration sets (`a[i]` stays `a[i]`)."""
    if node.type == "for_statement":
        variable = node.child_by_field_name("variable")
        return [_text(variable)] if variable is not None else [""]
    if node.type == "variable_assignment":
        name = node.child_by_field_name("name")
        return [_text(name)] if name is not None else [""]
    names: list[str] = []
    for child in node.named_children:
        if child.type == "variable_assignment":
            names += _assigned_names(child)
        elif child.type in ("variable_name", "subscript"):
            names.append(_text(child))
    return names


def _alternatives(nodes: list[Node], raws: list[str], words: Words) -> tuple[Words, ...]:
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
                values = [v for v in (_dequote(option) for option in options) if v != ""]
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
            index = _closing(text, index + 1, "'") + 1
        elif char == '"':
            index = _closing(text, index + 1, '"') + 1
        elif char == "$" and index + 1 < length and text[index + 1] in "{(":
            index = _matching(text, index + 1) + 1
        elif char == "{":
            end = _matching(text, index)
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


def _closing(text: str, start: int, quote: str) -> int:
    index = start
    while index < len(text) and text[index] != quote:
        index += 2 if text[index] == "\\" and quote == '"' else 1
    return index


def _matching(text: str, start: int) -> int:
    """The index of the bracket closing the one at `start` (quotes skipped), or len(text)."""
    opening = text[start]
    closing = "}" if opening == "{" else ")"
    depth, index = 0, start
    while index < len(text):
        char = text[index]
        if char == "\\":
            index += 2
            continue
        if char in "'\"":
            index = _closing(text, index + 1, char) + 1
            continue
        if char == opening:
            depth += 1
        elif char == closing:
            depth -= 1
            if depth == 0:
                return index
        index += 1
    return len(text)


def _split_commas(inner: str) -> list[str]:
    parts, depth, start, index = [], 0, 0, 0
    while index < len(inner):
        char = inner[index]
        if char == "\\":
            index += 2
            continue
        if char in "'\"":
            index = _closing(inner, index + 1, char) + 1
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


def _dequote(raw: str) -> str | None:
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
            end = _closing(raw, index + 1, "'")
            out.append(raw[index + 1 : end])
            index = end + 1
        elif char == '"':
            end = _closing(raw, index + 1, '"')
            body = raw[index + 1 : end]
            if "$" in body or "`" in body:
                return None
            out.append(_unescape_double_quoted(body))
            index = end + 1
        elif raw.startswith("$'", index):
            end = index + 2
            while end < length and raw[end] != "'":
                end += 2 if raw[end] == "\\" else 1
            decoded = _ansi_c(raw[index + 2 : end])
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


def normalise(script: str) -> str:
    """The script as bash tokenises it: backslash-newlines removed, word-starting `{` marked.

    Bash removes a backslash-newline everywhere except inside single quotes, `$'…'`, comments
    and quoted here-docs; tree-sitter does not, so `r\\⏎m` would be two words. A `{` that starts
    a word and is not followed by a blank is a brace expansion (`{rm,x}`), which tree-sitter reads
    as a broken group, and `r[m] x` is a pattern, which it reads as a broken array assignment:
    both become placeholders that `_text` turns back into `{` and `[`.
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
            out.append(_BRACE)
            index += 1
        elif word_start and (match := _SUBSCRIPT_WORD.match(script, index)) is not None:
            out.append(match.group().replace("[", _BRACKET, 1))  # `r[m] x` runs `rm`: not `r[m]=…`
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
            end = _closing(script, index + 1, char)
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


_DIRECTIVE = re.compile(r"%(?:%|[-+ #0-9.]*[a-zA-Z])")


def _printf(words: tuple[str, ...]) -> str:
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


def _operator(node: Node) -> str:
    return next((child.type for child in node.children if not child.is_named), "")


def _text(node: Node | None) -> str:
    data = node.text if node is not None else None
    if data is None:
        return ""
    text = data.decode(errors="replace")
    if "\ue000" in text or "\ue001" in text:  # the placeholders of `normalise`
        text = text.replace(_BRACE, "{").replace(_BRACKET, "[")
    return text


def _literal_value(node: Node) -> str | None:
    """A here-string's text when it holds no expansion."""
    text = _text(node)
    if node.type == "raw_string":
        return text[1:-1]
    if node.type == "word":
        return _unescape(text)
    if node.type == "string" and all(c.type == "string_content" for c in node.named_children):
        return _unescape_double_quoted(text[1:-1])
    return None


def _path_text(node: Node, directory_changed: bool) -> str:
    """A word as a path for the secret-file check: quotes removed, `$HOME`/`$PWD` placed."""
    text = _text(node)
    if node.type == "command_name":
        return _path_text(node.children[0], directory_changed) if node.children else ""
    if node.type == "word":
        return _unescape(text)
    if node.type == "raw_string":
        return text[1:-1]
    pieces = node.children if node.type in ("concatenation", "string") else [node]
    out: list[str] = []
    for piece in pieces:
        piece_text = _text(piece)
        if piece.type in ("simple_expansion", "expansion") and not out:
            name = piece_text.strip("${}")
            if name == "HOME":
                out.append("~")
                continue
            if name == "PWD" and not directory_changed:
                out.append(".")
                continue
        if piece.type == "word":
            out.append(_unescape(piece_text))
        elif piece.type == "raw_string":
            out.append(piece_text[1:-1])
        elif piece.type == "string_content":
            out.append(_unescape_double_quoted(piece_text))
        elif piece.type == "string":
            out.append(_path_text(piece, directory_changed))
        elif piece.is_named:
            out.append(piece_text)
    return "".join(out)


_ESCAPE = re.compile(r"\\(.)", re.DOTALL)
_QUOTED_ESCAPE = re.compile(r'\\([$`"\\\n])')


def _unescape(word: str) -> str:
    """Quote removal for an unquoted word: `r\\m` is `rm`, a backslash-newline disappears."""
    if "\\" not in word:
        return word
    return _ESCAPE.sub(r"\1", word.replace("\\\n", ""))


def _unescape_double_quoted(body: str) -> str:
    """Inside double quotes only `\\$`, `` \\` ``, `\\"`, `\\\\` and backslash-newline are escapes."""
    if "\\" not in body:
        return body
    return _QUOTED_ESCAPE.sub(lambda m: "" if m.group(1) == "\n" else m.group(1), body)


def _ansi_c(body: str) -> str | None:
    """`$'\\x72m'` is `rm`: decode the escapes, or give up (None) on anything unusual."""
    if not body.isascii():
        return None
    try:
        return codecs.decode(body, "unicode_escape")
    except UnicodeDecodeError:
        return None
