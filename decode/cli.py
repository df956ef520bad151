"""The `decode` command.

`decode --version` and `decode --help` must stay fast (see `evals/perf/`), so this module imports
only click (and the small enums its options choose from): each subcommand lives in its own module
(`decode/commands/`, one per subcommand) and is imported the first time it is invoked; `--help`
reads a command's one-liner from its module's first line, or from `SUBCOMMANDS`, instead.

Exit codes shared by every subcommand: 0 success, 1 the run failed, 2 usage or configuration
error, 3 the request ceiling (`--max-requests`) was reached, 130 interrupted.
"""

import functools
import importlib
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import click

from decode import __version__
from decode.logging import init_logger
from decode.runtime.cli_options import SHARED, check_session_choice, settle_shared, with_options

init_logger()

# name -> ("module:attribute", short help). The help text lives here so `decode --help`
# can list commands without importing them.
SUBCOMMANDS: dict[str, tuple[str, str]] = {
    "run": ("decode.runtime.run:run", "Run one task headless and print the final answer."),  # [lesson 02]
}
# [lesson 03]
REPL_HELP = """Run `decode` for the interactive REPL (/help inside it lists the commands), or
`decode run "TASK"` for one task headless."""
# [/lesson 03]
COMMANDS = Path(__file__).parent / "commands"
"""The other subcommands: a module each (`decode/commands/__init__.py`), listed without importing it."""


@functools.cache
def _commands() -> dict[str, tuple[str, str]]:
    """`SUBCOMMANDS` and the modules of `decode/commands/`, each with its docstring's first line."""
    found = dict(SUBCOMMANDS)
    for path in sorted(COMMANDS.glob("[a-z]*.py")):
        with path.open(encoding="utf-8") as source:
            first = source.readline().strip().strip('"').strip()
        found[path.stem] = (f"decode.commands.{path.stem}:{path.stem}", first)
    return found


class LazyGroup(click.Group):
    """A click group whose subcommands are imported only when they are used."""

    own_process = False
    """True when decode reads its own command line (a test's CliRunner passes `args`)."""

    def main(self, args: Sequence[str] | None = None, *rest: Any, **extra: Any) -> Any:
        self.own_process = args is None
        # [lesson 02]
        # Before any command imports pydantic-ai: what it imports but decode does not use (the MCP
        # client stack, an unused HTTP transport) loads only when something asks for it.
        from decode.models.deferred_imports import defer_imports

        defer_imports()
        if self.own_process:
            import atexit
            import gc

            # At exit the interpreter's last garbage collections walk every object of every module
            # (0.4-0.6 s with pydantic-ai imported) to free memory the exit gives back anyway; frozen
            # objects are skipped. Files and sessions are closed by their owners, not the collector.
            atexit.register(gc.freeze)
        # [/lesson 02]
        return super().main(args, *rest, **extra)

    def parse_args(self, ctx: click.Context, args: list[str]) -> list[str]:  # [lesson 20]
        # `decode -p "TASK" …` (Claude Code's print mode) is `decode run "TASK" …`.
        return super().parse_args(ctx, print_mode(args, set(self.list_commands(ctx))))

    def resolve_command(  # [lesson 20]
        self, ctx: click.Context, args: list[str]
    ) -> tuple[str | None, click.Command | None, list[str]]:
        try:
            return super().resolve_command(ctx, args)
        except click.exceptions.NoSuchCommand:
            if not any(char.isspace() for char in args[0]):
                raise  # `decode sesions`: click's "did you mean"
            import shlex  # `decode "fix the bug"`: a task where a command goes

            task = shlex.quote(args[0])
            raise click.UsageError(f"{args[0]!r} is not a command; to run a task: decode run {task}", ctx) from None

    def list_commands(self, ctx: click.Context) -> list[str]:
        return sorted([*super().list_commands(ctx), *_commands()])

    def get_command(self, ctx: click.Context, cmd_name: str) -> click.Command | None:
        commands = _commands()
        if cmd_name not in commands:
            return super().get_command(ctx, cmd_name)
        target, short_help = commands[cmd_name]
        if ctx.meta.get("decode.listing_commands"):
            # `decode --help` only needs the name and the one-liner: don't import the command.
            return click.Command(cmd_name, short_help=short_help)
        if cmd_name == "run" and self.own_process:  # [lesson 02]
            # Start-up builds objects that live as long as the process: no collections on the way to
            # the first request (decode/collector.py; the agent loop switches them back on).
            from decode.collector import pause

            pause()
        module_name, attribute = target.split(":")
        return getattr(importlib.import_module(module_name), attribute)

    def format_commands(self, ctx: click.Context, formatter: click.HelpFormatter) -> None:
        ctx.meta["decode.listing_commands"] = True
        try:
            super().format_commands(ctx, formatter)
        finally:
            ctx.meta["decode.listing_commands"] = False


def print_mode(args: list[str], commands: set[str]) -> list[str]:  # [lesson 20]
    """`-p`/`--print` before any subcommand (Claude Code's `claude -p "TASK"`): the same arguments as
    `decode run`'s, that option taken out. Anything else as it is."""
    ends = args.index("--") if "--" in args else len(args)
    flags = [i for i, arg in enumerate(args[:ends]) if arg in ("-p", "--print")]
    commanded = any(arg in commands for arg in args[: flags[0]]) if flags else True
    if commanded:
        return args
    return ["run", *args[: flags[0]], *args[flags[0] + 1 :]]


def _dotenv_needs_care() -> bool:  # [lesson 16]
    """Is `./.env` something other than a small regular file (a FIFO, a device, a huge file)? One stat, no read."""
    import os
    import stat

    try:
        found = os.stat(".env")
    except OSError:
        return False
    return not stat.S_ISREG(found.st_mode) or found.st_size > 1 << 20


@click.group(
    cls=LazyGroup,
    invoke_without_command=True,
    context_settings={"help_option_names": ["-h", "--help"]},
    epilog=REPL_HELP,  # [lesson 03]
)
@click.version_option(__version__, "--version", "-V", prog_name="decode", message="%(prog)s %(version)s")
@with_options(SHARED)  # the REPL's options, each the `LoopOptions` field of its name  # [lesson 03]
@click.pass_context
def cli(ctx: click.Context, **options: Any) -> None:
    """decode: a terminal coding agent you can read from end to end."""
    if isinstance(ctx.command, LazyGroup) and ctx.command.own_process:
        # Before any command runs (not for --version or --help, which run none, and stay fast):
        # the programs decode starts can no longer read its credentials from `/proc/$PPID/environ`
        # (decode/config/secrets.py). A test's CliRunner keeps its own process as it is.
        from decode.config.secrets import hide_credentials

        hide_credentials()
    if _dotenv_needs_care():  # [lesson 16]
        # fastmcp reads the project's `.env` when pydantic_ai is imported, before decode's settings do:
        # decode's safe reader takes over that read first (config/project_env.py), so a FIFO cannot hang it.
        import decode.config.project_env  # noqa: F401
    ctx.meta["decode.other_grants"] = _agent_grants  # `decode permissions` trusts agents too  # [lesson 15]
    if ctx.invoked_subcommand is not None:
        if any(value is not None for value in options.values()):
            raise click.UsageError(f"options go after the subcommand: decode {ctx.invoked_subcommand} --model …")
        return
    # [lesson 03]
    if isinstance(ctx.command, LazyGroup) and ctx.command.own_process:
        # As for `decode run`: no collections while the prompt and the agent load; the warm-up
        # switches them back on once the agent is ready (decode/collector.py).
        from decode.collector import pause

        pause()
    # Imported here: prompt_toolkit and Rich load only when the REPL starts, never for --help.
    from decode.agent.options import LoopOptions
    from decode.tui.launch import run_repl

    check_session_choice(options)  # `decode --resume ID --fork-session`  # [lesson 20]
    settle_shared(options, Path.cwd())  # `--settings` read (14: `--add-dir` checked): exit 2 if unusable  # [lesson 06]
    ctx.exit(run_repl(LoopOptions(Path.cwd(), **options)))
    # [before lesson 03]
    # click.echo(ctx.get_help())  # no REPL yet: `decode` alone shows what there is
    # [/lesson 03]


def _agent_grants(project: Path) -> list[Any]:  # [lesson 15]
    """What the project's agent files grant (`decode.agents.trust`), for `decode permissions`."""
    from decode.agents.catalog import discover_agents

    return list(discover_agents(project).grants)
