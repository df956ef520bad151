"""Reference solutions of lesson 03's exercise (and the mistake its check catches)."""

from pathlib import Path

from decode.tui.commands import CommandRegistry


def add_files_command(registry: CommandRegistry) -> None:
    @registry.command("files", "List the Workspace's files matching a glob", argument="[PATTERN]")
    async def files(repl, argument: str) -> None:
        pattern = argument or "*"
        found = sorted(
            path.relative_to(repl.workspace).as_posix() for path in repl.workspace.glob(pattern) if path.is_file()
        )
        if found:
            repl.renderer.info("\n".join(found))
        else:
            repl.renderer.notice(f"no files match {pattern}")


def wrong_add_files_command(registry: CommandRegistry) -> None:
    """Lists the current directory's files: the REPL's Workspace may be another folder."""

    @registry.command("files", "List the files matching a glob", argument="[PATTERN]")
    async def files(repl, argument: str) -> None:
        pattern = argument or "*"
        found = sorted(path.as_posix() for path in Path().glob(pattern) if path.is_file())  # noqa: ASYNC240
        if found:
            repl.renderer.info("\n".join(found))
        else:
            repl.renderer.notice(f"no files match {pattern}")
