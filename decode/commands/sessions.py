"""List the sessions saved in this directory.

`decode sessions`: the conversations saved here, most recent first: id and date first, the first
prompt cut to the terminal's width (`decode/tui/session_list.py`).

Continue one with `decode --resume ID` (the REPL) or `decode run --resume ID "…"`; an ID can be
shortened to any prefix that names one session only. Exit codes: 0 listed (even when there is
none), 2 usage error.
"""

import json
from pathlib import Path

import click

from decode.context.catalog import SessionInfo, list_sessions
from decode.tui.session_list import session_rows, when

__all__ = ["sessions", "when"]

EXIT_OK = 0


def as_json(info: SessionInfo) -> dict[str, object]:
    return {
        "id": info.session_id,
        "path": str(info.path),
        "created_at": info.created_at.isoformat(),
        "updated_at": info.updated_at.isoformat(),
        "model": info.model,
        "first_prompt": info.first_prompt,
        "turns": info.turns,
        "tokens": info.tokens,
    }


@click.command(context_settings={"help_option_names": ["-h", "--help"]})
@click.option("--json", "as_json_lines", is_flag=True, help="One JSON object per session instead of a table.")
def sessions(as_json_lines: bool) -> None:
    """List the sessions saved in this directory (.decode/sessions/), most recent first."""
    found = list_sessions(Path.cwd())
    if as_json_lines:
        for info in found:
            click.echo(json.dumps(as_json(info)))
        return
    if not found:
        click.echo("No saved sessions in this directory yet: `decode` or `decode run` starts one.")
        return
    from rich.console import Console

    console = Console()
    for row in session_rows(found, console.width):  # id and date first, the prompt cut to fit
        console.print(row)
    click.echo('\nContinue one with `decode --resume ID` or `decode run --resume ID "…"`.')
