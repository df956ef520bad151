"""Lesson 06's exercise: a path rule that every spelling of `.env` meets (lesson 07's closes the prefix bypass).

`check_is_env_file(candidate)` runs the learner's function on real files and symlinks and shows ✓ or ✗
with the first case it gets wrong (`course.check`). The reference solution is in `solutions.py`.
"""

import os
import tempfile
from collections.abc import Callable
from pathlib import Path

from course import Verdict, check


def check_is_env_file(is_env_file: Callable[[str, Path], bool]) -> Verdict:
    """`is_env_file(path, workspace)` meets every spelling of `workspace/.env`, and nothing else."""

    def test() -> None:
        with tempfile.TemporaryDirectory() as folder:
            workspace = Path(folder).resolve() / "project"
            (workspace / "src").mkdir(parents=True)
            (workspace / "docs").mkdir()
            (workspace / ".env").write_text("SECRET=1\n")
            (workspace / ".env.example").write_text("SECRET=\n")
            (workspace / "src" / ".env").write_text("OTHER=1\n")
            (workspace / "src" / "app.py").write_text("print('hi')\n")
            (workspace / "docs" / "env-link").symlink_to(workspace / ".env")
            (workspace / "docs" / "relative-link").symlink_to(Path("..") / ".env")
            (workspace / "alias").symlink_to(workspace)
            outside = Path(folder).resolve() / "elsewhere"
            outside.mkdir()
            (outside / ".env").write_text("NOT=ours\n")
            cases = [
                (".env", True),
                ("./.env", True),
                ("src/../.env", True),
                ("src//..//.env", True),
                (str(workspace / ".env"), True),
                ("docs/env-link", True),
                ("docs/relative-link", True),
                ("alias/.env", True),
                ("alias/src/../.env", True),
                (".env.example", False),
                ("src/.env", False),
                ("src/app.py", False),
                ("docs", False),
                (str(outside / ".env"), False),
                ("../elsewhere/.env", False),
                ("build/missing.txt", False),  # does not exist (yet): no error, just not .env
            ]
            previous = os.getcwd()
            os.chdir(outside)  # a relative path is relative to the workspace, not to where Python runs
            try:
                for path, expected in cases:
                    try:
                        answer = is_env_file(path, workspace)
                    except OSError as exc:
                        raise AssertionError(
                            f"is_env_file({path!r}, workspace) raised {type(exc).__name__}: a path that does not"
                            " exist yet (a file about to be written) must be judged too: resolve it non-strictly"
                        ) from exc
                    assert answer is expected, (
                        f"is_env_file({path!r}, workspace) returned {answer!r}; it should be {expected}"
                        + (" (follow symlinks and `..` before comparing)" if expected else "")
                    )
            finally:
                os.chdir(previous)

    return check("is_env_file: every spelling of workspace/.env, and nothing else", test)
