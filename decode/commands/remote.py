"""Run decode on Modal: one task or N attempts at once.

`decode remote deploy|run|attempts|logs|serve-model`: decode's headless run on Modal.

Every subcommand needs Modal's cloud, so each first checks for a Modal token (the same check as
`--sandbox modal`) and stops with one line and exit code 2 when there is none, before any call.
`modal` is imported only after that check passes (it takes seconds): `--help` never imports it.
"""

import subprocess
import sys
from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import click

from decode.config.settings import Settings
from decode.permissions.modes import Mode
from decode.remote.attempts import COLUMNS, row
from decode.remote.task import RunOptions, redact

if TYPE_CHECKING:
    from rich.table import Table

    from decode.remote.runners import Runner

EXIT_USAGE = 2
NO_TOKEN = (
    "decode remote: no Modal token here. Run `modal token new` (or set MODAL_TOKEN_ID and MODAL_TOKEN_SECRET); "
    "nothing was sent to Modal."
)


def require_token() -> None:
    """Exit 2 with one line unless Modal's configuration holds a token."""
    from decode.sandbox.modal import has_token

    try:
        token = has_token()
    except ImportError as exc:
        click.echo(f"decode remote: the `modal` package is not installed ({exc})", err=True)
        sys.exit(EXIT_USAGE)
    if not token:
        click.echo(NO_TOKEN, err=True)
        sys.exit(EXIT_USAGE)


def _app_name() -> str:
    from decode.remote.app import app_name

    return app_name(Settings())


def _runner(local: bool) -> "Runner":
    """Here (`--local`), or the deployed app's `run_task` once a token is there."""
    from decode.remote.runners import LocalRunner, ModalRunner

    if local:
        return LocalRunner()
    require_token()
    return ModalRunner(_app_name())


def run_options(model: str | None, max_requests: int | None, permission_mode: str, agent: str | None) -> RunOptions:
    return RunOptions(model=model, max_requests=max_requests, permission_mode=permission_mode, agent=agent)


def task_options(command: Any) -> Any:
    """The options `run` and `attempts` share: what each remote `decode run` is given."""
    for decorate in reversed(
        [
            click.option(
                "--repo",
                required=True,
                metavar="URL",
                help="The repository to clone; the work comes back to it as branch decode/<session-id>.",
            ),
            click.option("-m", "--model", help="The model each run uses (default: the deployed DECODE_MODEL)."),
            click.option("--max-requests", type=click.IntRange(min=1), help="Ceiling on model requests per run."),
            click.option(
                "--permission-mode",
                type=click.Choice([mode.value for mode in Mode]),
                default="accept-edits",
                show_default=True,
                help="What runs without asking in each remote run.",
            ),
            click.option("--agent", metavar="NAME", help="The agent each run is (default: build)."),
            click.option(
                "--local",
                is_flag=True,
                help="Run here, the same code `run_task` runs, instead of on Modal (no token needed).",
            ),
        ]
    ):
        command = decorate(command)
    return command


@click.group(context_settings={"help_option_names": ["-h", "--help"]})
def remote() -> None:
    """Run decode on Modal: deploy the app, run one task, N attempts in parallel, read the logs."""


@remote.command()
def deploy() -> None:
    """Deploy the app decode-headless-<DECODE_ENV> (settings are baked in now)."""
    require_token()
    import modal

    from decode.remote.app import app

    with modal.enable_output():
        app.deploy()
    click.echo(f"deployed {app.name}")


@remote.command(name="run")
@click.argument("task")
@task_options
def run_one(task: str, repo: str, local: bool, **options: Any) -> None:
    """Run TASK once on Modal; print the run's result object (JSON)."""
    import json

    result = _runner(local).run(task, repo, run_options(**options))
    click.echo(redact(json.dumps(result, indent=2)))
    sys.exit(result.get("exit_code") or 0)


@remote.command()
@click.argument("n", type=click.IntRange(min=1, max=64))
@click.argument("task")
@task_options
def attempts(n: int, task: str, repo: str, local: bool, **options: Any) -> None:
    """Run TASK N times in parallel on Modal; print a table comparing the attempts."""
    from rich.console import Console

    from decode.remote.attempts import run_attempts

    runner = _runner(local)
    results = run_attempts(runner, n, task, repo, run_options(**options))
    Console(width=None if sys.stdout.isatty() else 120).print(attempts_table(results))  # a CI log is wide
    for number, call_id in enumerate(getattr(runner, "call_ids", []), start=1):
        click.echo(f"attempt {number}: decode remote logs {call_id}", err=True)


def attempts_table(results: Sequence[dict[str, Any]]) -> "Table":
    """The comparison table (`remote.attempts.row`): one row per attempt, in attempt order."""
    from rich.table import Table

    table = Table(title=f"{len(results)} attempts")
    for column in COLUMNS:
        table.add_column(column, justify="right" if column not in ("branch", "diff size") else "left")
    for number, result in enumerate(results, start=1):
        table.add_row(*row(number, result))
    return table


@remote.command()
@click.argument("call_id", required=False)
@click.option("--tail", type=click.IntRange(min=1), default=100, show_default=True, help="How many entries.")
def logs(call_id: str | None, tail: int) -> None:
    """Show a call's logs (CALL_ID, as `attempts` prints them), or the app's newest logs."""
    require_token()
    if call_id is None:
        sys.exit(subprocess.call([sys.executable, "-m", "modal", "app", "logs", _app_name(), "--tail", str(tail)]))
    import modal

    for entry in modal.FunctionCall.from_id(call_id).logs.tail(tail):
        click.echo(redact(entry.message.rstrip("\n")))


@remote.command(name="serve-model")
def serve_model() -> None:
    """Deploy the vLLM app decode-llm-<DECODE_ENV>: an open model for `--model modal:NAME`."""
    require_token()
    import modal

    from decode.remote.llm import SERVED_NAME, app

    with modal.enable_output():
        app.deploy()
    click.echo(f"deployed {app.name}: set DECODE_MODAL_LLM_URL to its URL + /v1, use --model modal:{SERVED_NAME}")
