"""The checks of lesson 03's exercise. Each drives the learner's code through the real REPL.

from exercises import check_add_files_command
check_add_files_command(add_files_command)
"""

import asyncio
import concurrent.futures
import io
import tempfile
from collections.abc import Callable, Coroutine
from pathlib import Path
from typing import Any

from course import Verdict, check


def _run(coroutine: Coroutine[Any, Any, Any]) -> Any:
    """Run `coroutine` on an event loop of its own (a notebook's kernel already runs one)."""
    with concurrent.futures.ThreadPoolExecutor(1) as worker:
        return worker.submit(asyncio.run, coroutine).result()


def _screen_after(registry: Any, workspace: Path, lines: list[str]) -> str:
    """What a real `Repl` on `workspace` shows after each of `lines` is submitted."""
    from prompt_toolkit.input import create_pipe_input
    from prompt_toolkit.output import DummyOutput
    from rich.console import Console

    from decode.agent.options import LoopOptions
    from decode.tui.app import Repl

    screen = io.StringIO()

    async def session() -> None:
        with create_pipe_input() as keyboard:
            repl = Repl(
                console=Console(file=screen, width=100, force_jupyter=False, force_terminal=False),
                options=LoopOptions(workspace, model="test"),
                commands=registry,
                history_file=workspace.parent / "history",
                input=keyboard,
                output=DummyOutput(),
            )
            for line in lines:
                await repl.submit(line)

    _run(session())
    # What the command printed: the REPL first echoes the command itself, as it echoes a prompt.
    return "\n".join(line.rstrip() for line in screen.getvalue().splitlines() if not line.startswith("❯ "))


def check_add_files_command(add_files_command: Callable[[Any], None]) -> Verdict:
    """`add_files_command(registry)` registers `/files [PATTERN]`, which lists the Workspace's files."""

    def test() -> None:
        from decode.tui.commands import builtin_commands

        registry = builtin_commands()
        add_files_command(registry)
        command = registry.get("files")
        assert command is not None, "after add_files_command(registry), registry.get('files') is None"
        assert command.summary.strip(), "give /files a summary: /help shows it"
        assert command.argument == "[PATTERN]", f"/files takes argument='[PATTERN]', not {command.argument!r}"
        with tempfile.TemporaryDirectory() as scratch:
            workspace = Path(scratch) / "project"
            (workspace / "src").mkdir(parents=True)
            for name in ["setup.py", "README.md", "src/app.py", "src/util.py"]:
                (workspace / name).write_text("x\n")
            elsewhere = Path(scratch) / "elsewhere.py"  # the current directory is not the Workspace
            elsewhere.write_text("x\n")
            screen = _screen_after(registry, workspace, ["/files src/*.py"])
            assert "error:" not in screen, f"/files src/*.py failed:\n{screen}"
            assert screen.splitlines() == ["src/app.py", "src/util.py"], (
                "/files src/*.py should show src/app.py and src/util.py, one per line, relative to "
                f"repl.workspace; the screen shows:\n{screen}"
            )
            screen = _screen_after(registry, workspace, ["/files"])
            assert screen.splitlines() == ["README.md", "setup.py"], (
                "/files without a pattern lists the files `*` matches (not the folder src), sorted; "
                f"the screen shows:\n{screen}"
            )
            screen = _screen_after(registry, workspace, ["/files *.rs"])
            assert screen.strip() == "no files match *.rs", (
                f"/files *.rs should say `no files match *.rs`; the screen shows:\n{screen}"
            )

    return check("/files lists the Workspace's files", test)
