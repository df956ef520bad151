"""List the sessions saved in this directory.

`decode sessions`: the conversations saved here, most recent first.

Continue one with `decode --resume ID` (the REPL) or `decode run --resume ID "…"`; an ID can be
shortened to any prefix that names one session only. Exit codes: 0 listed (even when there is
none), 2 usage error.
"""

import json
from datetime import UTC, datetime
from pathlib import Path

import click

from decode.context.catalog import SessionInfo, list_sessions

EXIT_OK = 0


def when(moment: datetime, now: datetime) -> str:
    """`just now`, `5 min ago`, `3 h ago`, then the UTC date: readable at a glance."""
    seconds = (now - moment).total_seconds()
    if seconds < 60:
        return "just now"
    if seconds < 3600:
        return f"{int(seconds // 60)} min ago"
    if seconds < 86_400:
        return f"{int(seconds // 3600)} h ago"
    return f"{moment.astimezone(UTC):%Y-%m-%d %H:%M} UTC"


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
    from rich.table import Table

    now = datetime.now(UTC)
    table = Table(box=None, pad_edge=False)
    for column, justify in (("id", "left"), ("when", "left"), ("turns", "right"), ("tokens", "right")):
        table.add_column(column, justify=justify, no_wrap=True)
    table.add_column("first prompt", overflow="ellipsis", no_wrap=True)
    for info in found:
        table.add_row(
            info.session_id, when(info.updated_at, now), str(info.turns), f"{info.tokens:,}", info.first_prompt
        )
    Console().print(table)
    click.echo('\nContinue one with `decode --resume ID` or `decode run --resume ID "…"`.')
