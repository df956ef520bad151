"""What a hand-back says: what was shipped where, or why not and where the work is."""

from pathlib import Path

from decode.sandbox.handback import HandBack, Outcome
from decode.sandbox.workspace import Workspace

WS = Workspace(Path("/p/.decode/workspaces/ab12"), "/src", "ab12", "0" * 40)


def test_shipped() -> None:
    lines = HandBack(WS, Outcome.SHIPPED, "f" * 40, ("f00d123 decode: the work",), 1, ("M a.txt", "A b.txt")).report()

    assert lines[0] == "hand-back: shipped decode/ab12 — 1 commit, 2 files"
    assert "  f00d123 decode: the work" in lines
    assert "    A b.txt" in lines
    assert lines[-1] == "  pushed to /src (its working tree, index and HEAD are untouched)"


def test_kept_says_where_and_how_to_push_by_hand() -> None:
    lines = HandBack(WS, Outcome.KEPT, "f" * 40, (), 3, ("M a.txt",), error="Connection refused").report()

    assert lines[0].startswith("hand-back: committed (not pushed) decode/ab12 — 3 commits")
    assert "  the push to /src failed: Connection refused" in lines
    assert "  the branch decode/ab12 is kept in /p/.decode/workspaces/ab12.git" in lines
    assert lines[-1] == "  push it yourself: git --git-dir=/p/.decode/workspaces/ab12.git push /src decode/ab12"


def test_nothing_and_failed() -> None:
    assert HandBack(WS, Outcome.NOTHING).report() == [
        "hand-back: nothing to ship (no commit and no change in the Workspace /p/.decode/workspaces/ab12)"
    ]
    assert "has it all" in HandBack(WS, Outcome.NOTHING, already=True).report()[0]
    failed = HandBack(WS, Outcome.FAILED, error="git is not installed").report()
    assert failed == [
        "hand-back failed: git is not installed",
        "  the work stays in the Workspace /p/.decode/workspaces/ab12",
    ]


def test_long_lists_are_cut_and_counted() -> None:
    files = tuple(f"A f{i}.txt" for i in range(25))
    lines = HandBack(WS, Outcome.SHIPPED, "f" * 40, ("c1 one",), 30, files).report()

    assert "  … and 29 more commits" in lines
    assert "    … and 5 more files" in lines
