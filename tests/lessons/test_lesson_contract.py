"""The lesson contract, enforced over every folder `lessons/NN-topic/`.

Each lesson has README.md, lesson.toml and a notebook pair (`NN-topic.py` + `NN-topic.ipynb`, in
sync, executed, ending with its exercises). Every file of the package is introduced by exactly one
lesson, `extends` only looks back, and a notebook imports only what lessons up to it introduced.
Tests taking a `lesson` argument run once per lesson folder, so new lessons are checked as they
appear. The pair check is `scripts/check_notebook_pairs.py` itself, imported by path.
"""

import ast
import re
import tomllib
from dataclasses import dataclass
from functools import cached_property
from pathlib import Path, PurePosixPath

import nbformat
import pytest

from tests.lessons.conftest import ROOT, lesson_script, pairs_script

LESSON_NAME = re.compile(r"^(\d{2})-[a-z0-9]+(?:-[a-z0-9]+)*$")
NOTEBOOK_COMPILE_FLAGS = ast.PyCF_ONLY_AST | ast.PyCF_ALLOW_TOP_LEVEL_AWAIT  # cells may `await`
PYTHON_WARNING = re.compile(r"\b[A-Z]\w*Warning: ")


@dataclass(frozen=True)
class Lesson:
    folder: Path

    @property
    def name(self) -> str:
        return self.folder.name

    @property
    def number(self) -> int:
        match = LESSON_NAME.match(self.name)
        return int(match.group(1)) if match else 10**6

    @property
    def notebook_py(self) -> Path:
        return self.folder / f"{self.name}.py"

    @property
    def notebook_ipynb(self) -> Path:
        return self.folder / f"{self.name}.ipynb"

    @cached_property
    def manifest(self) -> dict[str, list[str]]:
        """`introduces`, `extends` and `builds` (outside the package) of lesson.toml; an AssertionError if wrong."""
        path = self.folder / "lesson.toml"
        assert path.is_file(), f"lessons/{self.name}: lesson.toml is missing"
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except tomllib.TOMLDecodeError as exc:
            raise AssertionError(f"lessons/{self.name}/lesson.toml: {exc}") from None
        known = {"title", "introduces", "extends", "builds", "track"}  # `track`: tests/lessons/test_track.py
        assert set(data) <= known, f"lessons/{self.name}/lesson.toml: unknown keys"
        assert isinstance(data.get("title"), str), f"lessons/{self.name}/lesson.toml: `title` must be a string"
        assert data["title"].strip(), f"lessons/{self.name}/lesson.toml: `title` is empty"
        for key in ("introduces", "extends", "builds"):
            value = data.get(key, [])
            assert isinstance(value, list), f"lessons/{self.name}/lesson.toml: `{key}` must be a list of paths"
            assert all(isinstance(item, str) for item in value), f"lessons/{self.name}: `{key}` must hold strings"
        return {key: data.get(key, []) for key in ("introduces", "extends", "builds")}

    def code_cells(self) -> list[nbformat.NotebookNode]:
        if not self.notebook_ipynb.is_file():
            pytest.fail(f"lessons/{self.name}: {self.notebook_ipynb.name} is missing")
        notebook = nbformat.read(self.notebook_ipynb, as_version=4)
        return [cell for cell in notebook.cells if cell.cell_type == "code"]


def all_lessons() -> list[Lesson]:
    return sorted((Lesson(folder) for folder in pairs_script.lesson_folders()), key=lambda lesson: lesson.name)


def pytest_generate_tests(metafunc: pytest.Metafunc) -> None:
    if "lesson" in metafunc.fixturenames:
        lessons = all_lessons()
        metafunc.parametrize("lesson", lessons, ids=[lesson.name for lesson in lessons])


@pytest.fixture(scope="module")
def introduced_by() -> dict[str, list[Lesson]]:
    """Each path named in some `introduces`, with the lessons naming it.

    A lesson whose lesson.toml is broken is left out (its own test says why), so one half-written
    lesson does not fail every other lesson's checks.
    """
    owners: dict[str, list[Lesson]] = {}
    for lesson in all_lessons():
        try:
            introduces = lesson.manifest["introduces"]
        except AssertionError:
            continue
        for path in introduces:
            owners.setdefault(path, []).append(lesson)
    return owners


# --- layout --------------------------------------------------------------------------------------


def test_lesson_folders_are_numbered_uniquely() -> None:
    names = [lesson.name for lesson in all_lessons()]
    assert names, "no lesson folders under lessons/"
    badly_named = [name for name in names if not LESSON_NAME.match(name)]
    assert not badly_named, f"lesson folders are named NN-topic (two digits, lowercase, dashes): {badly_named}"
    numbers = [name[:2] for name in names]
    assert len(numbers) == len(set(numbers)), f"two lessons share a number: {names}"


def test_lesson_has_readme_manifest_and_notebook_pair(lesson: Lesson) -> None:
    expected = ["README.md", "lesson.toml", lesson.notebook_py.name, lesson.notebook_ipynb.name]
    missing = [name for name in expected if not (lesson.folder / name).is_file()]
    assert not missing, f"lessons/{lesson.name} is missing {missing}"
    builds = lesson.manifest["builds"]  # what it adds outside the package (lesson 24: evals/)
    assert lesson.manifest["introduces"] or lesson.manifest["extends"] or builds, f"lessons/{lesson.name} adds nothing"
    missing = [path for path in builds if not (ROOT / path).exists()]
    assert not missing, f"lessons/{lesson.name} builds {missing}, which do not exist"


def test_notebook_ends_with_its_exercises(lesson: Lesson) -> None:
    """The last cells are the learner's: an exercise and the check that says whether it works."""
    cells = lesson.code_cells()
    assert cells, f"lessons/{lesson.name}: the notebook has no code cell"
    assert re.search(r"\bcheck_\w+\(", cells[-1].source), (
        f"lessons/{lesson.name}: the last code cell must run an exercise's check (`check_NAME(...)` of exercises.py)"
    )


GLOSSARY_LINK = re.compile(r"\]\(([^)#\s]*glossary\.md)#([^)\s]+)\)")


def test_notebook_ends_with_a_recap_linking_the_glossary(lesson: Lesson) -> None:
    """After the exercises, a short recap: what was built, the key idea, and the glossary's terms, linked."""
    notebook = nbformat.read(lesson.notebook_ipynb, as_version=4)
    last = notebook.cells[-1]
    assert last.cell_type == "markdown", f"lessons/{lesson.name}: the last cell is the recap, a Markdown cell"
    assert last.source.startswith("## Recap\n"), f"lessons/{lesson.name}: the last cell starts with `## Recap`"
    bullets = [line for line in last.source.splitlines() if line.startswith("- ")]
    assert 3 <= len(bullets) <= 6, f"lessons/{lesson.name}: the recap has {len(bullets)} bullets, not 3 to 6"
    links = GLOSSARY_LINK.findall(last.source)
    assert links, f"lessons/{lesson.name}: the recap links no glossary term"
    for target, anchor in links:
        glossary = (lesson.folder / target).resolve()
        assert glossary == ROOT / "docs" / "glossary.md", f"lessons/{lesson.name}: {target} is not docs/glossary.md"
        assert f'<a id="{anchor}"></a>' in glossary.read_text(encoding="utf-8"), (
            f"lessons/{lesson.name}: docs/glossary.md has no term with the anchor #{anchor}"
        )


def test_notebook_is_committed_executed_top_to_bottom(lesson: Lesson) -> None:
    """nbval compares only the outputs of cells that were run: an unexecuted notebook checks nothing."""
    counts = [cell.execution_count for cell in lesson.code_cells()]
    assert counts == list(range(1, len(counts) + 1)), (
        f"lessons/{lesson.name}: execution counts {counts}; run the whole notebook in a fresh kernel: "
        f"jupyter nbconvert --to notebook --execute --inplace {lesson.notebook_ipynb.name}"
    )


def test_notebook_outputs_hold_no_error_or_warning(lesson: Lesson) -> None:
    """A warning's text names a per-run temporary file, so a cell that warns never matches under nbval."""
    for number, cell in enumerate(lesson.code_cells()):
        for output in cell.outputs:
            assert output.output_type != "error", f"lessons/{lesson.name}: cell {number} raised {output.ename}"
            if output.output_type == "stream" and output.name == "stderr":
                assert not PYTHON_WARNING.search(output.text), (
                    f"lessons/{lesson.name}: cell {number} emits a Python warning; fix its cause:\n{output.text}"
                )


def test_notebook_pair_is_in_sync(lesson: Lesson) -> None:
    problem = pairs_script.pair_problem(pairs_script.Pair(lesson.notebook_py, lesson.notebook_ipynb))
    assert problem is None, problem


# --- introduces / extends ------------------------------------------------------------------------


def test_every_package_file_is_introduced_by_exactly_one_lesson(introduced_by: dict[str, list[Lesson]]) -> None:
    package_files = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "decode").rglob("*")
        if path.is_file() and "__pycache__" not in path.parts
    )
    orphans = [path for path in package_files if path not in introduced_by]
    twice = {path: [lesson.name for lesson in owners] for path, owners in introduced_by.items() if len(owners) > 1}
    assert not orphans, f"files no lesson.toml introduces (add each to one lesson's `introduces`): {orphans}"
    assert not twice, f"files introduced by more than one lesson: {twice}"


NO_LESSONS = ("evals/perf/", "evals/results/")  # the performance suite (`make bench`), and what runs leave


def test_every_evals_file_is_built_by_exactly_one_lesson() -> None:
    """What a lesson builds beside the package is in its snapshot and diff: none of it may be left out."""
    built: dict[str, list[int]] = {}
    for lesson in lesson_script.lessons().values():
        for path in lesson_script.built_files(lesson):
            built.setdefault(path, []).append(lesson.number)
    files = sorted(
        path.relative_to(ROOT).as_posix()
        for path in (ROOT / "evals").rglob("*")
        if path.is_file() and not lesson_script.NOT_BUILT & set(path.parts)
    )
    orphans = [path for path in files if path not in built and not path.startswith(NO_LESSONS)]
    twice = {path: numbers for path, numbers in built.items() if len(numbers) > 1}
    assert not orphans, f"files of evals/ no lesson.toml `builds` (name each, or its folder, in one lesson): {orphans}"
    assert not twice, f"files built by more than one lesson: {twice}"
    assert not [path for path in built if path.startswith(("decode/", *NO_LESSONS))]


def test_manifest_entries_are_existing_package_files(lesson: Lesson) -> None:
    problems = []
    for key in ("introduces", "extends"):
        entries = lesson.manifest[key]
        for entry in entries:
            path = PurePosixPath(entry)
            if path.is_absolute() or path.parts[:1] != ("decode",) or ".." in path.parts:
                problems.append(f"{key}: {entry!r} is not a path inside decode/")
            elif (ROOT / path).is_dir():
                problems.append(f"{key}: {entry!r} is a folder; name its files one by one")
            elif not (ROOT / path).is_file():
                problems.append(f"{key}: {entry!r} does not exist")
        if duplicates := sorted({entry for entry in entries if entries.count(entry) > 1}):
            problems.append(f"{key}: listed twice: {duplicates}")
    if both := sorted(set(lesson.manifest["introduces"]) & set(lesson.manifest["extends"])):
        problems.append(f"both introduced and extended: {both}")
    assert not problems, f"lessons/{lesson.name}/lesson.toml:\n  " + "\n  ".join(problems)


def test_extends_names_files_introduced_by_an_earlier_lesson(
    lesson: Lesson, introduced_by: dict[str, list[Lesson]]
) -> None:
    problems = []
    for entry in lesson.manifest["extends"]:
        owners = introduced_by.get(entry, [])
        if not owners:
            problems.append(f"{entry} is introduced by no lesson")
        elif not all(owner.number < lesson.number for owner in owners):
            problems.append(f"{entry} is introduced by {', '.join(o.name for o in owners)}, not before this lesson")
    assert not problems, f"lessons/{lesson.name}/lesson.toml `extends`:\n  " + "\n  ".join(problems)


# --- notebook imports ----------------------------------------------------------------------------


def _module_files(dotted: str) -> list[str] | None:
    """The files importing `dotted` runs (decode.a.b: decode/__init__.py, decode/a/__init__.py,
    decode/a/b.py), or None when there is no such module."""
    parts = dotted.split(".")
    files = []
    for depth in range(1, len(parts) + 1):
        base = ROOT.joinpath(*parts[:depth])
        if (base / "__init__.py").is_file():
            files.append(base / "__init__.py")
        elif depth == len(parts) and base.with_suffix(".py").is_file():
            files.append(base.with_suffix(".py"))
        else:
            return None
    return [path.relative_to(ROOT).as_posix() for path in files]


def _decode_imports(tree: ast.AST) -> list[tuple[int, str, list[str] | None]]:
    """(line, statement, files it needs) for each import of a decode module."""
    found = []
    for node in ast.walk(tree):
        if isinstance(node, ast.Import):
            found += [
                (node.lineno, f"import {a.name}", _module_files(a.name))
                for a in node.names
                if a.name.split(".")[0] == "decode"
            ]
        elif isinstance(node, ast.ImportFrom) and node.level == 0 and (node.module or "").split(".")[0] == "decode":
            files = _module_files(node.module)
            for alias in node.names:
                submodule = _module_files(f"{node.module}.{alias.name}") or []  # `from decode.agent import loop`
                found.append(
                    (
                        node.lineno,
                        f"from {node.module} import {alias.name}",
                        None if files is None else files + submodule,
                    )
                )
    return found


def test_notebook_imports_only_what_lessons_so_far_introduced(
    lesson: Lesson, introduced_by: dict[str, list[Lesson]]
) -> None:
    available = {path for path, owners in introduced_by.items() if min(o.number for o in owners) <= lesson.number}
    source = lesson.notebook_py.read_text(encoding="utf-8")
    tree = compile(source, str(lesson.notebook_py), "exec", flags=NOTEBOOK_COMPILE_FLAGS)
    problems: dict[str, str] = {}  # one line per missing file, naming its first import
    for line, statement, files in _decode_imports(tree):
        if files is None:
            problems[statement] = f"line {line}: `{statement}`: no such module in decode/"
            continue
        for path in files:
            if path not in available and path not in problems:
                owners = ", ".join(owner.name for owner in introduced_by.get(path, [])) or "no lesson"
                problems[path] = f"line {line}: `{statement}` needs {path}, introduced by {owners}"
    assert not problems, f"lessons/{lesson.name}/{lesson.notebook_py.name}:\n  " + "\n  ".join(problems.values())
