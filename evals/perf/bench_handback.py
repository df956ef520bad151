"""The hand-back (lesson 19): what bringing the work home safely costs.

- One hand-back of a changed file (stage in a private index, commit, push `decode/<id>` to a local
  source, all host-side in the Hand-back Repository) against the naive way, `git add -A && git
  commit && git push` run in the clone itself (which would run whatever its `.git/` names): target
  4x. The hardened way runs about a dozen small git commands instead of three.
"""

import asyncio
import subprocess
from collections.abc import Iterator
from itertools import count
from pathlib import Path

from perf import Comparison, Context, Subject


def _git(cwd: Path, *args: str) -> None:
    identity = ["-c", "user.name=Bench", "-c", "user.email=bench@example.com"]
    subprocess.run(["git", *identity, *args], cwd=cwd, check=True, capture_output=True)


def benchmarks(ctx: Context) -> Iterator[Comparison]:
    from decode.sandbox.handback import Outcome, hand_back
    from decode.sandbox.workspace import open_workspace

    source = ctx.tmp / "source"
    source.mkdir()
    _git(source, "init", "-q", "-b", "main")
    for i in range(50):
        (source / f"file{i}.txt").write_text(f"{i}\n" * 20)
    _git(source, "add", ".")
    _git(source, "commit", "-qm", "first")
    home = ctx.tmp / "home"
    home.mkdir()
    workspace = open_workspace(home, str(source), "bench")
    naive = ctx.tmp / "naive"
    _git(ctx.tmp, "clone", "-q", str(source), str(naive))
    loop = asyncio.new_event_loop()
    edits = count()

    def safely() -> None:
        (workspace.path / "file0.txt").write_text(f"edit {next(edits)}\n")
        if loop.run_until_complete(hand_back(workspace)).outcome is not Outcome.SHIPPED:
            raise RuntimeError("the hand-back did not ship")

    def naively() -> None:
        (naive / "file0.txt").write_text(f"edit {next(edits)}\n")
        _git(naive, "add", "-A")
        _git(naive, "commit", "-qm", "naive")
        _git(naive, "push", "-q", "origin", "HEAD:refs/heads/naive")

    yield Comparison(
        "hand-back of one changed file",
        Subject("decode: hand_back()", safely),
        Subject("naive: add, commit, push in the clone", naively),
        target=4.0,
        runs=15,
    )
    loop.close()
