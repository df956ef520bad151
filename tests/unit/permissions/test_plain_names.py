"""Plain Names: one `lstat` answers what the full resolution would, or leaves the name to it."""

import os
from pathlib import Path

import pytest

from decode.entities.tools import ToolKind, ToolTraits
from decode.permissions import plain_names
from decode.permissions.gate import PermissionGate
from decode.permissions.shell import Glob
from decode.permissions.types import Mode
from tests.unit.permissions.test_gate import SECRET_FILES, corpus_places, corpus_traits, judge_corpus

__all__ = ["corpus_places"]  # the corpus's world, a fixture of test_gate

BASH = ToolTraits(ToolKind.OTHER, rules=("Bash",), command="command")
# Names that are files, folders, secrets, protected folders, symlinks of every kind, missing ones
# and odd spellings; then words that are not plain names at all.
PLAIN = ["f", "d", ".env", ".git", ".GIT", "missing", "a b", "-rf", "x=y", "é", "f ", "lf", "ld", "lout", "lenv"]
PLAIN += ["dangling", "loop", "lgit", "x" * 300, "a\0b", "~x", "..."]
LINKS = {"lf": "f", "ld": "d", "lout": "(home)", "lenv": ".env", "dangling": "nowhere", "loop": "loop"}
NOT_PLAIN = ["", ".", "..", "~", "d/", "./f", "d/../f", "~/f", "/etc/passwd", "lf/..", Glob("f*"), Glob("[f]")]


@pytest.fixture
def world(tmp_path: Path) -> tuple[Path, Path]:
    """A real workspace with a file, a folder, secrets, `.git`, and links in and out of it."""
    workspace, home = (tmp_path / "w").resolve(), (tmp_path / "h").resolve()
    (workspace / "d").mkdir(parents=True)
    (workspace / ".git").mkdir()
    home.mkdir()
    for name in ("f", ".env", "a b", "-rf", "x=y", "é", "f "):
        (workspace / name).write_text("x\n", encoding="utf-8")
    for link, target in {**LINKS, "lout": str(home), "lgit": ".git"}.items():
        (workspace / link).symlink_to(target)
    return workspace, home


async def _the_long_way(gate: PermissionGate, word: str, monkeypatch: pytest.MonkeyPatch) -> tuple:
    with monkeypatch.context() as patched:
        patched.setattr(plain_names, "look", lambda *_: None)
        written, real, folder = await gate.resolve(word)
    assert folder is None  # the full resolution does not ask
    return written, real, gate.may_be_folder(real)


@pytest.mark.parametrize("word", PLAIN + NOT_PLAIN, ids=repr)
async def test_a_plain_name_is_what_the_full_resolution_finds(
    word: str, world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, home = world
    gate = PermissionGate(workspace=workspace, home=home)
    looked = plain_names.look(gate.workspace, word)
    if looked is not None:
        assert looked == await _the_long_way(gate, word, monkeypatch)
    shortcut = word in PLAIN and word not in (*LINKS, "lgit", "x" * 300, "a\0b")  # too long, a NUL: the long way
    assert (looked is not None) == shortcut, "plain names that are not links take the shortcut, nothing else"


async def test_judging_plain_names_asks_no_more_of_the_file_system(
    world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """`ls f d a1 … a64`: one lstat a name, no `stat` for whether it is a folder (a link still gets both)."""
    workspace, home = world
    gate = PermissionGate(workspace=workspace, home=home)
    asked: list[str] = []
    isdir = os.path.isdir
    monkeypatch.setattr(os.path, "isdir", lambda path: asked.append(path) or isdir(path))
    names = " ".join(f"a{i}" for i in range(1, 63))
    verdict = await gate.check("bash", {"command": f"ls f d {names}"}, BASH)
    assert verdict.decision == "allow", verdict.reason
    assert asked == []
    await gate.check("bash", {"command": "ls ld lf"}, BASH)
    assert asked == [str(workspace / "d"), str(workspace / "f")]


COMMANDS = [
    "ls f d .env .git lf ld lout lenv dangling loop lgit missing",
    "cat f lenv",
    "grep -r x d ld",
    "rg x d",
    "grep x f",
    "wc -l f 'a b' -rf",
    "cp f .git",
    "echo x > f",
    "tee lgit/config < f",
    "cat .ENV",
    "ls '*.env' '.e*' f*",
    "find d -name '.env*'",
]


@pytest.mark.parametrize("mode", list(Mode))
async def test_every_verdict_is_the_same_without_the_shortcut(
    mode: Mode, world: tuple[Path, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    workspace, home = world
    calls = [("bash", {"command": command}, BASH) for command in COMMANDS]
    calls += [("read", {"path": word}, corpus_traits("read")) for word in PLAIN + NOT_PLAIN]
    calls += [("write", {"path": word}, corpus_traits("write")) for word in ("f", "d", ".env", ".git", "lgit")]
    gate = PermissionGate(mode=mode, workspace=workspace, home=home, secret_files=SECRET_FILES)
    shortcut = [await gate.check(*call) for call in calls]
    monkeypatch.setattr(plain_names, "look", lambda *_: None)
    walked = [await gate.check(*call) for call in calls]
    differences = [(call, a, b) for call, a, b in zip(calls, shortcut, walked, strict=True) if a != b]
    assert differences == []
    assert {verdict.decision for verdict in walked} >= ({"allow", "ask"} if mode is Mode.BYPASS else {"ask"})


async def test_every_corpus_case_gets_the_same_verdict_without_the_shortcut(
    corpus_places: dict[str, Path], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The corpus's own cases (its settings, files and symlinks), judged twice: with plain names
    looked up by one `lstat`, and with every name resolved in full. Decision, reason and rule must be equal."""
    shortcut = await judge_corpus(corpus_places)
    monkeypatch.setattr(plain_names, "look", lambda *_: None)
    walked = await judge_corpus(corpus_places)
    assert len(walked) > 600
    assert shortcut == walked
