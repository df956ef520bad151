"""What the lesson notebooks share: showing the package's real source, and checking exercises.

A notebook runs against its lesson's snapshot (`scripts/lesson snapshot NN`): the `decode` it
imports is the package as it stands after that lesson. `show()` renders that package's own source,
so what a lesson shows is the code that runs, never a copy that can drift; `show_diff()` renders
what the lesson changed in a file an earlier lesson wrote.

    from course import show, show_diff
    show("decode.agent.loop", "AgentLoop.run_turn")     # one function, class or method
    show("decode.tools.read")                           # a whole module
    show_diff(4, "decode/agent/compose.py")             # what lesson 04 added to compose.py
"""

import ast
import difflib
import functools
import html
import importlib
import importlib.machinery
import importlib.util
import inspect
import os
import re
import sys
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from types import ModuleType
from typing import Any

ROOT = Path(__file__).resolve().parent.parent

# A notebook imports this first, from its lesson's folder; it may `os.chdir()` into a scratch
# project later, and `from exercises import …` must still find that folder's files.
_START = Path.cwd().resolve()
if _START.parent == ROOT / "lessons" and str(_START) not in sys.path:
    sys.path.insert(0, str(_START))


# A shown line keeps its shape, however long: a block that scrolls sideways instead of JupyterLab's
# output style, which wraps a `pre` anywhere, mid-word (ADR-0122). Its own light colours, so that it
# reads the same under a dark theme. JupyterLab keeps these inline styles; GitHub drops them.
CODE_BLOCK = (
    "white-space: pre; word-break: normal; overflow-wrap: normal; overflow-x: auto; padding: 0.5em;"
    " background-color: #f6f8fa; color: #1f2328; line-height: 1.4"
)
DIFF_HTML = {"+": "background-color: #d1f8d9", "-": "background-color: #ffdcd7", "@": "color: #0550ae"}
DIFF_ANSI = {"+": "\x1b[32m", "-": "\x1b[31m", "@": "\x1b[36m"}  # green, red, cyan: `git diff`'s colours
WHITESPACE_SPAN = re.compile(r'<span style="color: #BBB">(\s+)</span>')


class Source:
    """Code that displays highlighted in Jupyter (a diff's lines coloured) and as plain text elsewhere."""

    def __init__(self, text: str, language: str = "python", title: str = "") -> None:
        self.text = text.rstrip("\n")
        self.language = language
        self.title = title

    def __repr__(self) -> str:
        return f"# {self.title}\n{self.text}" if self.title else self.text

    def _repr_pretty_(self, printer: Any, cycle: bool) -> None:
        """The notebook's plain-text output: a diff's added and removed lines in colour, as a terminal shows them."""
        if self.language != "diff":
            printer.text(repr(self))
            return
        lines = [
            f"{DIFF_ANSI[line[:1]]}{line}\x1b[0m" if line[:1] in DIFF_ANSI else line for line in self.text.split("\n")
        ]
        printer.text("\n".join([f"# {self.title}", *lines] if self.title else lines))

    def _repr_html_(self) -> str:
        heading = f"<p><code>{html.escape(self.title, quote=False)}</code></p>" if self.title else ""
        return f'{heading}<pre style="{CODE_BLOCK}">{self._highlighted()}</pre>'

    def _highlighted(self) -> str:
        if self.language == "diff":
            return "\n".join(
                f'<span style="{DIFF_HTML[line[:1]]}">{html.escape(line, quote=False)}</span>'
                if line[:1] in DIFF_HTML
                else html.escape(line, quote=False)
                for line in self.text.split("\n")
            )
        from pygments import highlight  # the notebooks' environment has it (IPython needs it)
        from pygments.formatters import HtmlFormatter
        from pygments.lexers import get_lexer_by_name

        formatter = HtmlFormatter(nowrap=True, noclasses=True, style="default")
        highlighted = highlight(self.text, get_lexer_by_name(self.language), formatter).rstrip("\n")
        return WHITESPACE_SPAN.sub(r"\1", highlighted)


def _definition(tree: ast.Module, dotted: str) -> ast.AST:
    scope: ast.AST = tree
    for name in dotted.split("."):
        for node in ast.iter_child_nodes(scope):
            if isinstance(node, ast.FunctionDef | ast.AsyncFunctionDef | ast.ClassDef) and node.name == name:
                scope = node
                break
            if isinstance(node, ast.Assign | ast.AnnAssign):
                targets = node.targets if isinstance(node, ast.Assign) else [node.target]
                if any(isinstance(target, ast.Name) and target.id == name for target in targets):
                    scope = node
                    break
        else:
            raise LookupError(f"{dotted}: no {name!r} here")
    return scope


def show(module: str, name: str | None = None) -> Source:
    """The source of `module` (a dotted name), or of one definition in it (`Class.method` works).

    Decorators and comments above the definition come with it.
    """
    path = Path(inspect.getfile(importlib.import_module(module)))
    text = path.read_text(encoding="utf-8")
    title = path.relative_to(path.parents[len(module.split(".")) - 1 + (path.name == "__init__.py")]).as_posix()
    if name is None:
        return Source(text, title=title)
    node = _definition(ast.parse(text), name)
    lines = text.splitlines()
    start = min([node.lineno, *(d.lineno for d in getattr(node, "decorator_list", []))]) - 1
    while start > 0 and lines[start - 1].strip().startswith("#"):
        start -= 1
    end = node.end_lineno or node.lineno
    return Source("\n".join(lines[start:end]), title=f"{title}: {name}")


@functools.cache
def lesson_script() -> ModuleType:
    """`scripts/lesson` as a module (it has no `.py` suffix, so it is loaded by path)."""
    loader = importlib.machinery.SourceFileLoader("lesson_script", str(ROOT / "scripts" / "lesson"))
    spec = importlib.util.spec_from_loader("lesson_script", loader)
    assert spec is not None
    module = importlib.util.module_from_spec(spec)
    loader.exec_module(module)
    return module


def show_diff(lesson: int, path: str) -> Source:
    """What lesson `lesson` changed in `path` (from the repository root), as a unified diff.

    A notebook shows what its own lesson, or an earlier one, changed, never a later lesson's code.
    """
    if LESSON is not None and lesson > LESSON:
        raise ValueError(f"lesson {LESSON:02}'s notebook cannot show lesson {lesson:02}'s code")
    script = lesson_script()
    earlier = script.previous(lesson)
    after = script.snapshot_files(lesson).get(path, b"").decode()
    before = script.snapshot_files(earlier).get(path, b"").decode() if earlier is not None else ""
    lines = difflib.unified_diff(
        before.splitlines(), after.splitlines(), f"lesson {earlier or 0:02}", f"lesson {lesson:02}", lineterm=""
    )
    return Source("\n".join(list(lines)[2:]), language="diff", title=f"{path}: what lesson {lesson:02} adds")


@dataclass(frozen=True)
class Verdict:
    """The result of one exercise check: true when it passed; displays as its ✓ or ✗ line."""

    passed: bool
    line: str

    def __bool__(self) -> bool:
        return self.passed

    def __repr__(self) -> str:
        return self.line


def check(description: str, test: Callable[[], None]) -> Verdict:
    """Run one exercise check: ✓, or ✗ with the reason, shown as the cell's result.

    `test` raises AssertionError (with a message for the learner) when the exercise is not solved
    yet; NotImplementedError means it was not started. Any other exception is the learner's code
    crashing, and is reported the same way, by its type and message.
    """
    try:
        test()
    except NotImplementedError:
        return Verdict(False, f"✗ {description}: not started yet (the function still raises NotImplementedError)")
    except AssertionError as exc:
        return Verdict(False, f"✗ {description}: {exc}")
    except Exception as exc:  # the learner's code crashed: say how, as a ✗ line, not a traceback
        return Verdict(False, f"✗ {description}: it raised {type(exc).__name__}: {exc}")
    return Verdict(True, f"✓ {description}")


def in_snapshot() -> bool:
    """Whether `decode` is imported from a lesson snapshot rather than the finished package."""
    decode = sys.modules.get("decode") or importlib.import_module("decode")
    return Path(inspect.getfile(decode)).resolve().parent != ROOT / "decode"


def package_lesson() -> int | None:
    """The lesson whose snapshot `decode` comes from, when it can be told: COURSE_LESSON, or the
    `.lessons/NN/` folder the snapshot was written to; None for the finished package or an unnamed copy."""
    if not in_snapshot():
        return None
    if LESSON is not None:
        return LESSON
    folder = Path(inspect.getfile(sys.modules["decode"])).resolve().parent.parent
    return int(folder.name) if folder.name.isdigit() and folder.parent.name == ".lessons" else None


def wrong_package() -> str | None:
    """One line when this notebook's lesson (its folder's) is not the lesson of the `decode` it runs on."""
    if NOTEBOOK is None:
        return None
    if not in_snapshot():
        running = f"the finished package ({ROOT / 'decode'})"
    elif (lesson := package_lesson()) is not None and lesson != NOTEBOOK:
        running = f"lesson {lesson:02}'s package"
    else:
        return None
    return (
        f"⚠ lesson {NOTEBOOK:02}'s notebook runs on {running}, so some cells will not show what the text says:"
        f" open it with `make lab` (each notebook on its own lesson's package) or `make lab N={NOTEBOOK:02}`"
    )


# The lesson whose snapshot this kernel runs against, when it runs against one: nbval, `scripts/lesson
# execute` and `make lab` set COURSE_LESSON next to the snapshot on PYTHONPATH.
LESSON = int(os.environ["COURSE_LESSON"]) if os.environ.get("COURSE_LESSON", "").isdigit() else None
# The lesson whose notebook imports this: the folder it starts in (see the top of this file).
NOTEBOOK = int(_START.name[:2]) if _START.parent == ROOT / "lessons" and _START.name[:2].isdigit() else None
if LESSON is not None and not in_snapshot():
    raise RuntimeError(
        f"COURSE_LESSON={LESSON:02}, but `decode` comes from the finished package ({ROOT / 'decode'}): put lesson"
        f" {LESSON:02}'s snapshot first on PYTHONPATH (make lab N={LESSON:02}), or unset COURSE_LESSON"
    )
if warning := wrong_package():
    print(warning, file=sys.stderr)  # shown under the notebook's first cell: the one that imports course
