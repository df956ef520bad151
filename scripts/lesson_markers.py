"""The lesson markers of `scripts/lesson`: how a source reads as of a lesson, and what its markers cost.

    code()  # [lesson 06]          this line exists from lesson 06 on

    def stop(self) -> None:  # [lesson 06]
        ...                         this function exists from lesson 06 on: a marker ending the first
                                    line of a statement (the `def` or `class` line, past decorators)
                                    covers all of it, and an assignment's attribute docstring too

    # [lesson 06]                   these lines exist from lesson 06 on
    gate = build_gate()
    # [before lesson 06]            optional: what stood here before lesson 06, commented out
    # gate = None
    # [/lesson 06]

`render()` reads a source as of a lesson; `before_blocks()` finds the `before` parts, which the
finished package holds as comments (ruff and ty see them only in a rendered source), and
`block_problems()` holds them to what a reader can take in: short, and one per function.
"""

import ast
import functools
import io
import re
import tokenize
from dataclasses import dataclass

LINE_MARKER = re.compile(r"\s+# \[lesson (\d\d)\]$")
OPEN = re.compile(r"^(\s*)# \[lesson (\d\d)\]$")
BEFORE = re.compile(r"^(\s*)# \[before lesson (\d\d)\]$")
CLOSE = re.compile(r"^(\s*)# \[/lesson (\d\d)\]$")
# Anything a marker could be mistaken for (another case, spacing, brackets): an error unless exact.
STRING_TOKENS = {
    tokenize.STRING,
    *(getattr(tokenize, name) for name in ("FSTRING_MIDDLE", "TSTRING_MIDDLE") if hasattr(tokenize, name)),
}
ANY_MARKER = re.compile(r"#\s*[\[［]\s*(?:/|before\s+)?\s*lessons?\b", re.IGNORECASE)
# What the marker count counts: a line holding any of the three forms (`grep -c` over the package).
COUNTED = re.compile(r"\[lesson|\[/lesson|\[before lesson")

# The limits of ADR-0118: a `before` part is what a learner reads in the earlier lesson.
MOST_BEFORE_LINES = 10
MOST_BEFORE_BLOCKS_PER_FUNCTION = 1


class MarkerError(Exception):
    """A marker that cannot be read: unbalanced, unknown lesson, or badly placed."""


@functools.cache  # every snapshot reads the same sources: tokenize each text once a process
def _comments(text: str, name: str) -> dict[int, int]:
    """The column where each line's comment starts, by line number (Python's own tokenizer, so a
    `#` inside a string is no comment). A marker-like text inside a string is a MarkerError."""
    comments: dict[int, int] = {}
    try:
        for token in tokenize.generate_tokens(io.StringIO(text).readline):
            if token.type == tokenize.COMMENT:
                comments[token.start[0]] = token.start[1]
            elif token.type in STRING_TOKENS and ANY_MARKER.search(token.string):
                raise MarkerError(f"{name}:{token.start[0]}: a lesson marker inside a string; markers are comments")
    except (tokenize.TokenError, SyntaxError) as exc:
        raise MarkerError(f"{name}: cannot be read as Python ({exc})") from None
    return comments


def render(text: str, lesson: int, known: set[int], name: str = "<source>") -> str:
    """`text` as of `lesson`: later lessons' lines dropped, their `before` sections restored.

    Raises MarkerError for an unbalanced block, an unknown lesson number, a misspelt or misplaced
    marker, or a `before` line that is not a comment.
    """
    _comments(text, name)  # a source Python cannot read is an error, markers or not
    if not ANY_MARKER.search(text):  # most files: nothing below could drop, restore or refuse a line
        return text
    return "".join(line for _, line in render_lines(text, lesson, known, name))


def render_lines(text: str, lesson: int, known: set[int], name: str = "<source>") -> list[tuple[int, str]]:
    """`render()`'s lines, each with the number of the source line it comes from."""
    out: list[tuple[int, str]] = []
    # One frame per open block: (its lesson, indentation, whether we are in its `before` part).
    stack: list[tuple[int, str, bool]] = []
    comments = _comments(text, name)
    covered = _covered_statements(text, comments)  # first line -> (the marked line, the last line)
    heads: set[int] = set()  # the marked lines of the statements being read
    ends: list[int] = []  # the last lines of the covered statements being read, innermost last

    def keeping() -> bool:
        return all((number <= lesson) != before for number, _, before in stack)

    def known_number(raw: str, line_number: int) -> int:
        number = int(raw)
        if number not in known:
            raise MarkerError(f"{name}:{line_number}: lesson {raw} does not exist")
        return number

    lines = text.splitlines(keepends=True)
    for line_number, line in enumerate(lines, start=1):
        while ends and ends[-1] < line_number:  # a covered statement ended: its frame closes
            ends.pop()
            stack.pop()
        if line_number in covered:  # a statement its first line's marker covers opens a frame
            head, last = covered[line_number]
            match = LINE_MARKER.search(lines[head - 1].rstrip("\n"))
            assert match is not None  # `_covered_statements` found it
            number = known_number(match.group(1), head)
            if stack and (stack[-1][2] or number <= stack[-1][0]):
                raise MarkerError(
                    f"{name}:{head}: lesson {match.group(1)}'s statement inside a later block or a `before`"
                )
            stack.append((number, "", False))
            heads.add(head)
            ends.append(last)
        bare = line.rstrip("\n")
        comment = bare[comments[line_number] :] if line_number in comments else ""
        if comment and comment == bare.strip():  # a line that is only a comment: a block marker?
            if match := OPEN.match(bare):
                number = known_number(match.group(2), line_number)
                if stack and number <= stack[-1][0]:
                    raise MarkerError(
                        f"{name}:{line_number}: lesson {match.group(2)} opens inside a later lesson's block"
                    )
                if stack and stack[-1][2]:
                    raise MarkerError(f"{name}:{line_number}: a block opens inside a `before` part")
                stack.append((number, match.group(1), False))
                continue
            if match := BEFORE.match(bare):
                number = known_number(match.group(2), line_number)
                if not stack or stack[-1][0] != number or stack[-1][2]:
                    raise MarkerError(f"{name}:{line_number}: `before lesson {match.group(2)}` outside its block")
                stack[-1] = (number, stack[-1][1], True)
                continue
            if match := CLOSE.match(bare):
                number = known_number(match.group(2), line_number)
                if not stack or stack[-1][0] != number:
                    raise MarkerError(f"{name}:{line_number}: `/lesson {match.group(2)}` closes no open block")
                stack.pop()
                continue
        if (match := LINE_MARKER.search(bare)) and comment and line_number in comments:
            number = known_number(match.group(1), line_number)
            if line_number in heads:  # the statement's own marker: its frame is open
                if keeping():
                    out.append((line_number, bare[: match.start()] + line[len(bare) :]))
                continue
            if stack and stack[-1][2]:
                raise MarkerError(f"{name}:{line_number}: a line marker inside a `before` part")
            if stack and number <= stack[-1][0]:
                raise MarkerError(f"{name}:{line_number}: lesson {match.group(1)}'s line inside a later lesson's block")
            if keeping() and number <= lesson:
                out.append((line_number, bare[: match.start()] + line[len(bare) :]))
            continue
        if ANY_MARKER.search(comment):
            raise MarkerError(
                f"{name}:{line_number}: a misspelt lesson marker; the forms are `# [lesson NN]`, "
                "`# [before lesson NN]`, `# [/lesson NN]`, alone on a line or (`# [lesson NN]`) ending one"
            )
        if stack and stack[-1][2]:
            indent = stack[-1][1]
            if bare.strip() and not bare.startswith(indent + "#"):
                raise MarkerError(f"{name}:{line_number}: a `before` line must be a comment at the block's indentation")
            if keeping():
                restored = bare[len(indent) + 1 :]
                restored = restored[1:] if restored.startswith(" ") else restored
                out.append((line_number, (indent + restored if restored else "") + line[len(bare) :]))
            continue
        if keeping():
            out.append((line_number, line))
    for _ in ends:  # statements that end the file
        stack.pop()
    if stack:
        raise MarkerError(f"{name}: lesson {stack[-1][0]:02}'s block is never closed")
    return out


def _covered_statements(text: str, comments: dict[int, int]) -> dict[int, tuple[int, int]]:
    """The statements a line marker covers whole: by first line (a decorator's, if any), the marked
    line and the last line. A marker covers a statement when it ends the statement's first line
    (for a `def` or `class`, the line of that keyword) and the statement is more than that line:
    a body, a continuation, decorators, or an assignment's attribute docstring after it. An `elif`
    is no statement of its own here: its marker covers its line only."""
    lines = text.splitlines()
    marked = {
        number
        for number, column in comments.items()
        if lines[number - 1][:column].strip() and LINE_MARKER.search(lines[number - 1])
    }
    if not marked:
        return {}
    covered: dict[int, tuple[int, int]] = {}
    for body in _bodies(ast.parse(text)):
        for index, node in enumerate(body):
            if node.lineno not in marked or _is_elif(lines, node):
                continue
            first = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))])
            last = node.end_lineno or node.lineno
            following = body[index + 1] if index + 1 < len(body) else None
            if isinstance(node, ast.Assign | ast.AnnAssign) and _is_docstring(following):
                last = following.end_lineno or last  # type: ignore[union-attr]
            if (first, last) != (node.lineno, node.lineno):
                covered[first] = (node.lineno, last)
    return covered


def _bodies(tree: ast.AST) -> list[list[ast.stmt]]:
    """Every list of statements in `tree`: module, class and function bodies, branches."""
    found = []
    for node in ast.walk(tree):
        for field in ("body", "orelse", "finalbody", "handlers"):
            value = getattr(node, field, None)
            if isinstance(value, list) and value and isinstance(value[0], ast.stmt):
                found.append(value)
        if isinstance(node, ast.Match):
            found.extend(case.body for case in node.cases)
    return found


def _is_docstring(node: ast.stmt | None) -> bool:
    return isinstance(node, ast.Expr) and isinstance(node.value, ast.Constant) and isinstance(node.value.value, str)


def _is_elif(lines: list[str], node: ast.stmt) -> bool:
    return isinstance(node, ast.If) and lines[node.lineno - 1].lstrip().startswith("elif")


def marked_lessons(text: str) -> set[int]:
    """The lesson numbers the markers of `text` name."""
    numbers = set()
    for line in text.splitlines():
        for pattern in (LINE_MARKER, OPEN, BEFORE, CLOSE):
            if match := pattern.search(line):
                numbers.add(int(match.groups()[-1]))
    return numbers


def marker_count(text: str) -> int:
    """How many lines of `text` hold a marker: what a reader of the finished package steps over."""
    return sum(1 for line in text.splitlines() if COUNTED.search(line))


@dataclass(frozen=True)
class BeforeBlock:
    line: int  # the `# [before lesson NN]` line
    lesson: int
    length: int  # the commented-out lines
    function: str | None  # the innermost function holding it, None at module or class level
    function_line: int | None  # that function's `def` line


def before_blocks(text: str, name: str = "<source>") -> list[BeforeBlock]:
    """Every `before` part of `text` (whose markers `render()` reads without error)."""
    comments = _comments(text, name)
    lines = text.splitlines()
    scopes = _function_scopes(text)
    blocks: list[BeforeBlock] = []
    opened: tuple[int, int] | None = None  # the open `before` part: its marker line and lesson
    for line_number, line in enumerate(lines, start=1):
        if line_number not in comments or line[comments[line_number] :] != line.strip():
            continue
        if match := BEFORE.match(line):
            opened = (line_number, int(match.group(2)))
        elif (match := CLOSE.match(line)) and opened and opened[1] == int(match.group(2)):
            start, number = opened
            scope = _innermost(scopes, start, len(match.group(1)))
            function, function_line = (scope[3], scope[0]) if scope else (None, None)
            blocks.append(BeforeBlock(start, number, line_number - start - 1, function, function_line))
            opened = None
    return blocks


def _function_scopes(text: str) -> list[tuple[int, int, int, str]]:
    """Each function's first line, last line (with the comments trailing its body), column and name."""
    tree = ast.parse(text)
    statements = [node for node in ast.walk(tree) if isinstance(node, ast.stmt)]
    last = len(text.splitlines())
    scopes = []
    for node in statements:
        if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef):
            end = node.end_lineno or node.lineno
            following = [s.lineno for s in statements if s.lineno > end and s.col_offset <= node.col_offset]
            scopes.append((node.lineno, min(following, default=last + 1) - 1, node.col_offset, node.name))
    return scopes


def _innermost(scopes: list[tuple[int, int, int, str]], line: int, column: int) -> tuple[int, int, int, str] | None:
    holding = [scope for scope in scopes if scope[0] < line <= scope[1] and scope[2] < column]
    return max(holding, key=lambda scope: scope[2]) if holding else None


def block_problems(text: str, name: str) -> list[str]:
    """The `before` parts of `text` that break ADR-0118's limits, as `path:line: problem` lines."""
    problems = []
    in_function: dict[int, list[BeforeBlock]] = {}  # by the `def` line of the function holding them
    for block in before_blocks(text, name):
        if block.length > MOST_BEFORE_LINES:
            problems.append(
                f"{name}:{block.line}: a `before lesson {block.lesson:02}` part of {_lines(block.length)}"
                f" (at most {MOST_BEFORE_LINES})"
            )
        if block.function_line is None:
            continue
        earlier = in_function.setdefault(block.function_line, [])
        if len(earlier) >= MOST_BEFORE_BLOCKS_PER_FUNCTION:
            problems.append(
                f"{name}:{block.line}: another `before` part ({_lines(block.length)}) in {block.function}() (the"
                f" first at line {earlier[0].line}; at most {MOST_BEFORE_BLOCKS_PER_FUNCTION} a function)"
            )
        earlier.append(block)
    return problems


def _lines(count: int) -> str:
    return f"{count} line" if count == 1 else f"{count} lines"
